/** The categorization page's results: the matching applications of the last run, their tags and scores, paged. */
import { CATEGORIZATION_PAGE_SIZE } from "@contract/categorization-constants";
import { MAX_RESULT_WINDOW } from "@contract/portfolio-constants";
import { formatScore } from "~/lib/format";
import type { ResultRow, Results } from "./page.server";
import { CATEGORIZATION as C } from "./texts";

export function ResultsView({ results, ranEdited }: { results: Results | null; ranEdited: boolean }) {
  if (!results) return <p className="muted">{C.notRun}</p>;
  if (!results.ok) {
    return (
      <div className="cat-search-failed" role="alert">
        <p>{results.message}</p>
        {results.detail ? <p className="small">{results.detail}</p> : null}
      </div>
    );
  }
  const pages = Math.ceil(Math.min(results.total, MAX_RESULT_WINDOW) / CATEGORIZATION_PAGE_SIZE);
  const page = Math.floor(results.from / CATEGORIZATION_PAGE_SIZE) + 1;
  return (
    <section className="cat-results" aria-labelledby="cat-results-title">
      <div className="cat-heading">
        <h3 id="cat-results-title">{C.resultsTitle}</h3>
        <span className="muted" role="status">
          {results.totalIsMore ? C.totalMore(results.total) : C.total(results.total)}
        </span>
      </div>
      {ranEdited ? <p className="small muted">{C.unsavedResults}</p> : null}
      {results.rows.length === 0 ? <p className="muted">{C.noResults}</p> : null}
      {results.rows.map((row) => (
        <Result key={row.id} row={row} />
      ))}
      {pages > 1 ? (
        <nav className="pagination" aria-label={C.pages.label}>
          <button type="submit" form="cat-form" name="from" value={String(results.from - CATEGORIZATION_PAGE_SIZE)} className="btn btn-secondary btn-small" disabled={page <= 1}>
            {C.pages.previous}
          </button>
          <span className="small">{C.pages.of(page, pages)}</span>
          <button type="submit" form="cat-form" name="from" value={String(results.from + CATEGORIZATION_PAGE_SIZE)} className="btn btn-secondary btn-small" disabled={page >= pages}>
            {C.pages.next}
          </button>
        </nav>
      ) : null}
    </section>
  );
}

function Result({ row }: { row: ResultRow }) {
  return (
    <article className="result cat-result" aria-labelledby={`cat-r-${row.id}`}>
      <h4 id={`cat-r-${row.id}`} className="result-title">
        <span className="result-id">{row.id}</span>{" "}
        <span className="muted small">
          {C.relevance} {formatScore(row.score)}
        </span>
      </h4>
      <dl className="cat-fields">
        {row.fields.map((f) => (
          <div key={f.field}>
            <dt>{C.fields[f.field]}</dt>
            <dd dangerouslySetInnerHTML={{ __html: f.html }} />
          </div>
        ))}
      </dl>
      <ul className="tag-list" aria-label={C.tags}>
        {row.tags.length === 0 ? <li className="muted small">{C.noTagsOnApp}</li> : null}
        {row.tags.map((t) => (
          <li key={t.name} className="tag">
            {`${t.name}:${formatScore(t.score)}`}
          </li>
        ))}
      </ul>
    </article>
  );
}
