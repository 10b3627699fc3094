import { Form, Link, useLocation, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { MAX_RESULT_WINDOW } from "@contract/portfolio-constants";
import type { Product } from "@contract/portfolio";
import { formatScore } from "~/lib/format";
import { useHydrated } from "~/ui/hydrated";
import { Pagination } from "~/ui/list";
import { openModal } from "~/ui/modal";
import { applicationUrl, portfolioUrl, searchOnly, type PortfolioParams } from "./params";
import type { ResultRow } from "./search.server";
import { SelectBox } from "./Selection";
import { PORTFOLIO } from "./texts";

const R = PORTFOLIO.result;
const P = PORTFOLIO.product;

const scoreText = (n: number | null) => formatScore(n, R.notScored);

/** An application's products: name, company and parent, score, source, flags, summary and similarity. */
export function ProductList({ products }: { products: readonly Product[] }) {
  return (
    <ul className="products">
      {products.map((p, i) => (
        <li key={`${p.name}-${i}`}>
          <strong>{p.name}</strong>
          {p.company ? ` — ${p.company}` : ""}
          {p.ultimateParentCompany && p.ultimateParentCompany !== p.company ? ` (${p.ultimateParentCompany})` : ""}
          <span className="muted small">
            {" "}
            {P.score} {scoreText(p.score)} · {P.source} {p.source}
            {p.isInternal ? ` · ${P.isInternal}` : ""}
            {p.isCompetitor ? ` · ${P.isCompetitor}` : ""}
          </span>
          {p.summary ? <p className="small">{p.summary}</p> : null}
          {p.similarityAssessment ? (
            <p className="small muted">
              {P.similarityAssessment}: {p.similarityAssessment}
            </p>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

/** The remove-tag confirmation step the action answered with (no JavaScript), if any. */
export type RemoveTagConfirm = { applicationId: string; tag: string } | null;

/**
 * One application of the results (spec 2 §2, §3): id, title and abstract with the matches marked, the AI summary
 * (sanitized HTML), products, scores, tags with scores; with the `portfolio` permission, Add tag, Edit fields and a
 * remove (×) per tag. `children` is the dialog open on it without JavaScript (the add-tag or edit-fields form).
 */
export function ResultCard({
  row,
  params,
  canWrite,
  confirming,
  onRemove,
  selected = false,
  children,
}: {
  row: ResultRow;
  /** Ticked in the selection form (it came back: a refusal, the remove confirmation). */
  selected?: boolean;
  params: PortfolioParams;
  canWrite: boolean;
  confirming: RemoveTagConfirm;
  onRemove: (target: { applicationId: string; tag: string }) => void;
  children?: ReactNode;
}) {
  const hydrated = useHydrated();
  const base = searchOnly(params);
  const headingId = `result-${row.id}-title`;
  return (
    <article className="result" id={`result-${row.id}`} aria-labelledby={headingId}>
      <header className="result-head">
        <div className="result-head-row">
          <SelectBox id={row.id} checked={selected} />
          <h2 id={headingId} className="result-title">
            {/* The application's own page, with this search in its URL for its way back. */}
            <Link to={applicationUrl(row.id, base)}>
              <span className="result-id">{row.id}</span>{" "}
              <span dangerouslySetInnerHTML={{ __html: row.titleHtml || "&nbsp;" }} />
            </Link>
          </h2>
        </div>
        {row.sourceId ? (
          <p className="muted small">
            {R.source}: {row.sourceId}
          </p>
        ) : null}
      </header>
      {row.abstractHtml ? <p className="result-abstract" dangerouslySetInnerHTML={{ __html: row.abstractHtml }} /> : null}
      {row.summaryHtml ? (
        <details className="result-summary">
          <summary>{R.aiSummary}</summary>
          <div className="summary-html" dangerouslySetInnerHTML={{ __html: row.summaryHtml }} />
        </details>
      ) : null}
      <dl className="result-scores">
        <div>
          <dt>{R.broadScore}</dt>
          <dd>{scoreText(row.broadScore)}</dd>
        </div>
        <div>
          <dt>{R.detectableScore}</dt>
          <dd>{scoreText(row.detectableScore)}</dd>
        </div>
        {row.score !== null ? (
          <div>
            <dt>{R.relevance}</dt>
            <dd>{scoreText(row.score)}</dd>
          </div>
        ) : null}
      </dl>
      {row.products.length ? (
        <details className="result-products">
          <summary>
            {R.products} ({row.products.length})
          </summary>
          <ProductList products={row.products} />
        </details>
      ) : null}
      <div className="result-tags">
        <h3 className="visually-hidden">{R.tags}</h3>
        {row.tags.length === 0 ? <span className="muted small">{R.noTags}</span> : null}
        <ul className="tag-list" aria-label={R.tags}>
          {row.tags.map((t) => (
            <li key={t.name} className="tag">
              <span>
                {t.name}
                <span className="tag-score">:{scoreText(t.score)}</span>
              </span>
              {canWrite ? (
                <Form
                  method="post"
                  className="inline-form"
                  preventScrollReset
                  onSubmit={(e) => {
                    if (!hydrated) return;
                    e.preventDefault();
                    onRemove({ applicationId: row.id, tag: t.name });
                  }}
                >
                  <input type="hidden" name="applicationId" value={row.id} />
                  <input type="hidden" name="tag" value={t.name} />
                  <button
                    type="submit"
                    name="intent"
                    value="removeTag"
                    className="tag-remove"
                    aria-label={R.removeTag(t.name)}
                    title={R.removeTag(t.name)}
                  >
                    ×
                  </button>
                </Form>
              ) : null}
            </li>
          ))}
        </ul>
      </div>
      {confirming && confirming.applicationId === row.id && !hydrated ? (
        <RemoveTagStep target={confirming} inline />
      ) : null}
      {canWrite ? (
        <p className="result-actions">
          <Link
            id={`add-tag-${row.id}`}
            to={portfolioUrl({ ...base, addTag: row.id })}
            preventScrollReset
            className="btn btn-secondary btn-small"
          >
            {R.addTag}
          </Link>
          <Link
            id={`edit-${row.id}`}
            to={portfolioUrl({ ...base, edit: row.id })}
            preventScrollReset
            className="btn btn-secondary btn-small"
          >
            {R.editFields}
          </Link>
        </p>
      ) : null}
      {children}
    </article>
  );
}

/** The remove-tag confirmation: its text and the form posting `confirmed=yes` (kit pattern, app/ui/confirm.tsx). */
function RemoveTagStep({
  target,
  inline,
  onCancel,
}: {
  target: { applicationId: string; tag: string };
  inline?: boolean;
  onCancel?: () => void;
}) {
  const C = PORTFOLIO.confirmRemoveTag;
  const location = useLocation();
  const navigation = useNavigation();
  const pending = navigation.state !== "idle" && navigation.formData?.get("intent") === "removeTag";
  const titleId = inline ? `remove-tag-${target.applicationId}-title` : "remove-tag-title";
  const body = (
    <>
      <h2 id={titleId}>{C.title}</h2>
      <p>{C.message(target.tag, target.applicationId)}</p>
      <Form method="post" className="confirm-actions" preventScrollReset>
        <input type="hidden" name="intent" value="removeTag" />
        <input type="hidden" name="confirmed" value="yes" />
        <input type="hidden" name="applicationId" value={target.applicationId} />
        <input type="hidden" name="tag" value={target.tag} />
        <button type="submit" className="btn btn-danger" disabled={pending}>
          {pending ? `${C.confirm}…` : C.confirm}
        </button>
        {onCancel ? (
          <button data-initial-focus type="button" className="btn btn-secondary" onClick={onCancel}>
            {PORTFOLIO.addTag.cancel}
          </button>
        ) : (
          <Link to={location.pathname + location.search} className="btn btn-secondary" autoFocus preventScrollReset>
            {PORTFOLIO.addTag.cancel}
          </Link>
        )}
      </Form>
    </>
  );
  if (inline) {
    return (
      <section className="confirm-inline" role="alertdialog" aria-labelledby={titleId}>
        {body}
      </section>
    );
  }
  return body;
}

/**
 * The page's one remove-tag dialog (with JavaScript): a tag's × opens it for that tag; focus starts on Cancel. It
 * closes once the post has gone through (the page reloads with the tag gone and the toast).
 */
export function RemoveTagDialog({
  target,
  onClose,
}: {
  target: { applicationId: string; tag: string } | null;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const navigation = useNavigation();
  const [shown, setShown] = useState(target);
  useEffect(() => {
    if (!target) return;
    setShown(target);
  }, [target]);
  // Opened once the step is rendered, so focus starts on its Cancel.
  useEffect(() => {
    if (shown && target) openModal(ref.current);
  }, [shown, target]);
  // Closed once the confirmed post has gone through (answered, and the page reloaded).
  const submitting = navigation.state !== "idle" && navigation.formData?.get("intent") === "removeTag";
  const submitted = useRef(false);
  useEffect(() => {
    if (submitting) submitted.current = true;
    else if (submitted.current) {
      submitted.current = false;
      ref.current?.close();
    }
  }, [submitting]);
  return (
    <dialog ref={ref} className="confirm-dialog" aria-labelledby="remove-tag-title" onClose={onClose}>
      {shown ? <RemoveTagStep target={shown} onCancel={() => ref.current?.close()} /> : null}
    </dialog>
  );
}

/**
 * The kit's pagination over `from` (spec 2 §2: `from` in the URL). Only the first 10,000 results can be paged through
 * (the engine's result window, as with Elasticsearch); every page size divides it, so the last page ends inside it.
 */
export function FromPagination({ params, total }: { params: PortfolioParams; total: number }) {
  const base = searchOnly(params);
  return (
    <Pagination
      page={Math.floor(params.from / params.size) + 1}
      pageSize={params.size}
      total={Math.min(total, MAX_RESULT_WINDOW)}
      href={(p) => portfolioUrl({ ...base, from: (p - 1) * params.size })}
    />
  );
}
