import { Link } from "@remix-run/react";
import type { SerializeFrom } from "@remix-run/node";
import type { ReactNode } from "react";
import { formatScore } from "~/lib/format";
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
      <Section id="abstract" title={A.abstract}>
        <LongText text={a.abstract} />
      </Section>
      <Section id="scores" title={A.scores}>
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
      </Section>
      <Section id="tags" title={A.tags}>
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
      </Section>
      <Section id="summary" title={A.aiSummary}>
        {a.summaryHtml ? (
          <div className="summary-html" dangerouslySetInnerHTML={{ __html: a.summaryHtml }} />
        ) : (
          <p className="muted">{A.none}</p>
        )}
      </Section>
      <Section id="products" title={A.products}>
        {a.products.length ? <ProductList products={a.products} /> : <p className="muted">{R.noProducts}</p>}
      </Section>
      <Section id="claims" title={A.claims}>
        <LongText text={a.claims} />
      </Section>
      <Section id="specification" title={A.specification}>
        <LongText text={a.specification} />
      </Section>
      <Section id="dates" title={A.dates}>
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
      </Section>
    </article>
  );
}

/** One part of the application's page: a section named by its heading. */
function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={`application-${id}`}>
      <h2 id={`application-${id}`}>{title}</h2>
      {children}
    </section>
  );
}
