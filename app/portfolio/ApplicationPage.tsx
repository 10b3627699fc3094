import { Link } from "@remix-run/react";
import type { SerializeFrom } from "@remix-run/node";
import { formatScore } from "../lib/format";
import type { applicationLoader } from "./detail.server";
import { ProductList } from "./Results";
import { PORTFOLIO } from "./texts";

const A = PORTFOLIO.application;
const R = PORTFOLIO.result;

type Data = SerializeFrom<typeof applicationLoader>;

/** A long text field (claims, specification): its paragraphs as written, or "None.". */
function LongText({ text }: { text: string }) {
  return text ? <div className="application-text">{text}</div> : <p className="muted">{A.none}</p>;
}

/** /portfolio/{id}: every field of one application, read-only (its changes are on the results' card). */
export function ApplicationPage({ data }: { data: Data }) {
  const a = data.application;
  return (
    <article className="application" aria-labelledby="application-title">
      <p className="application-back">
        <Link to={data.back}>← {A.back}</Link>
      </p>
      <header className="page-header">
        <div>
          <h1 id="application-title" className="application-title">
            <span className="result-id">{a.id}</span> {a.title}
          </h1>
          <dl className="application-facts">
            <div>
              <dt>{A.portfolio}</dt>
              <dd>{a.portfolioId}</dd>
            </div>
            {a.sourceId ? (
              <div>
                <dt>{A.source}</dt>
                <dd>{a.sourceId}</dd>
              </div>
            ) : null}
          </dl>
        </div>
      </header>
      <section aria-labelledby="application-abstract">
        <h2 id="application-abstract">{A.abstract}</h2>
        <LongText text={a.abstract} />
      </section>
      <section aria-labelledby="application-scores">
        <h2 id="application-scores">{A.scores}</h2>
        <dl className="result-scores">
          <div>
            <dt>{R.broadScore}</dt>
            <dd>{formatScore(a.broadScore, R.notScored)}</dd>
          </div>
          <div>
            <dt>{R.detectableScore}</dt>
            <dd>{formatScore(a.detectableScore, R.notScored)}</dd>
          </div>
        </dl>
      </section>
      <section aria-labelledby="application-tags">
        <h2 id="application-tags">{A.tags}</h2>
        {a.tags.length ? (
          <ul className="tag-list">
            {a.tags.map((t) => (
              <li key={t.name} className="tag">
                {t.name}
                <span className="tag-score">:{formatScore(t.score, R.notScored)}</span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">{R.noTags}</p>
        )}
      </section>
      <section aria-labelledby="application-summary">
        <h2 id="application-summary">{A.aiSummary}</h2>
        {a.summaryHtml ? (
          <div className="summary-html" dangerouslySetInnerHTML={{ __html: a.summaryHtml }} />
        ) : (
          <p className="muted">{A.none}</p>
        )}
      </section>
      <section aria-labelledby="application-products">
        <h2 id="application-products">{A.products}</h2>
        {a.products.length ? <ProductList products={a.products} /> : <p className="muted">{R.noProducts}</p>}
      </section>
      <section aria-labelledby="application-claims">
        <h2 id="application-claims">{A.claims}</h2>
        <LongText text={a.claims} />
      </section>
      <section aria-labelledby="application-specification">
        <h2 id="application-specification">{A.specification}</h2>
        <LongText text={a.specification} />
      </section>
      <section aria-labelledby="application-dates">
        <h2 id="application-dates">{A.dates}</h2>
        <dl className="application-facts">
          <div>
            <dt>{A.created}</dt>
            <dd>
              {a.created}
              {a.createdBy ? ` ${A.by(a.createdBy)}` : ""}
            </dd>
          </div>
          <div>
            <dt>{A.updated}</dt>
            <dd>
              {a.updated}
              {a.updatedBy ? ` ${A.by(a.updatedBy)}` : ""}
            </dd>
          </div>
        </dl>
      </section>
    </article>
  );
}
