import { Link, useLocation } from "@remix-run/react";
import { useState } from "react";
import type { SerializeFrom } from "@remix-run/node";
import { CSV_DOWNLOAD_SIZE, MAX_RESULT_WINDOW } from "@contract/portfolio-constants";
import { Icon } from "~/ui/icons";
import { Toast, toastOf } from "~/ui/toast";
import { ActionDialog, AddTagForm, EditFieldsForm } from "./Dialogs";
import { portfolioUrl, searchOnly, withViewOf } from "./params";
import { FromPagination, RemoveTagDialog, ResultCard, type RemoveTagConfirm } from "./Results";
import type { portfolioLoader } from "./search.server";
import { SearchForm, TagFacet } from "./SearchForm";
import { SelectionBar, bulkOf } from "./Selection";
import { REINDEX } from "./reindex-texts";
import { PORTFOLIO } from "./texts";

type Data = SerializeFrom<typeof portfolioLoader>;

/** Which form an action's answer belongs to (several forms share the page). */
function answerFor(actionData: unknown, form: "addTag" | "editFields", id: string): unknown {
  if (!actionData || typeof actionData !== "object") return undefined;
  const a = actionData as { form?: string; applicationId?: string };
  return a.form === form && a.applicationId === id ? actionData : undefined;
}

function confirmingOf(actionData: unknown): RemoveTagConfirm {
  if (!actionData || typeof actionData !== "object" || !("confirm" in actionData)) return null;
  const a = actionData as { confirm: unknown; applicationId?: string; tag?: string };
  return a.confirm === "removeTag" && a.applicationId && a.tag ? { applicationId: a.applicationId, tag: a.tag } : null;
}

/** /portfolio (spec 2 §2 Portfolio). */
export function PortfolioPage({ data, actionData }: { data: Data; actionData: unknown }) {
  const { rows, total, totalIsMore, facet, organizations, organizationsFailed, may, error } = data;
  const params = withViewOf(data.params, useLocation().search);
  const [removing, setRemoving] = useState<{ applicationId: string; tag: string } | null>(null);
  const base = searchOnly(params);
  const closeTo = portfolioUrl(base);
  const searching = Boolean(params.qs || params.tags.length);
  const confirming = confirmingOf(actionData);
  const bulk = bulkOf(actionData);
  // The export stops at CSV_DOWNLOAD_SIZE rows: said before the download, not found out in the file.
  const csvCapped = !error && (total > CSV_DOWNLOAD_SIZE || totalIsMore);
  return (
    <>
      <Toast toast={toastOf(actionData)} />
      <div className="page-header">
        <div>
          <h1>{PORTFOLIO.title}</h1>
          <p className="page-subtitle" aria-live="polite">
            {error ? null : totalIsMore ? (
              <>
                {PORTFOLIO.totalMore(total)}{" "}
                <Link to={portfolioUrl({ ...base, countAll: true })} title={PORTFOLIO.countAllHint} preventScrollReset>
                  {PORTFOLIO.countAll}
                </Link>
              </>
            ) : (
              PORTFOLIO.total(total)
            )}
          </p>
        </div>
        <div className="page-actions">
          {total > 0 ? (
            <a
              className="btn btn-secondary"
              href={portfolioUrl(base, "/portfolio/csv")}
              download
              aria-describedby={csvCapped ? "csv-cap" : undefined}
            >
              {PORTFOLIO.downloadCsv}
            </a>
          ) : null}
          {csvCapped ? (
            <p id="csv-cap" className="muted small csv-cap">
              {PORTFOLIO.csvCap(CSV_DOWNLOAD_SIZE)}
            </p>
          ) : null}
          {may.write ? (
            <>
              <Link className="btn btn-secondary" to="/portfolio/import">
                {PORTFOLIO.uploadCsv}
              </Link>
              <Link className="btn btn-secondary" to="/portfolio/reindex">
                {REINDEX.title}
              </Link>
              <Link className="btn btn-primary" to="/portfolio/add">
                <Icon name="plus" /> {PORTFOLIO.newApplication}
              </Link>
            </>
          ) : null}
        </div>
      </div>
      <SearchForm params={params} organizations={organizations} />
      {organizationsFailed ? (
        <p className="form-error" role="status">
          {PORTFOLIO.organizationsFailed}
        </p>
      ) : null}
      <div className="portfolio-layout">
        <aside className="portfolio-facets" aria-label="Filters">
          <TagFacet params={params} buckets={facet.buckets} sampled={facet.sampled} />
        </aside>
        <section className="portfolio-results" aria-label="Results">
          {error ? (
            <div className="form-error" role="alert">
              <p>{error.message}</p>
              {error.detail ? <p className="small">{error.detail}</p> : null}
            </div>
          ) : rows.length === 0 ? (
            <div className="empty-state">
              <p>{searching ? PORTFOLIO.empty.noResults : PORTFOLIO.empty.portfolio}</p>
              <p className="small">{searching ? PORTFOLIO.empty.noResultsHint : may.write ? PORTFOLIO.empty.portfolioHint : null}</p>
            </div>
          ) : (
            <>
              <SelectionBar canWrite={may.write} answer={bulk} />
              <ol className="results" start={params.from + 1}>
                {rows.map((row) => (
                  <li key={row.id}>
                    <ResultCard
                      row={row}
                      params={params}
                      canWrite={may.write}
                      confirming={confirming}
                      onRemove={setRemoving}
                      selected={bulk?.ids.includes(row.id) ?? false}
                    >
                      {may.write && params.addTag === row.id ? (
                        <ActionDialog
                          id="add-tag-dialog"
                          title={PORTFOLIO.addTag.title(row.id)}
                          closeTo={closeTo}
                          openerId={`add-tag-${row.id}`}
                        >
                          {(cancel) => <AddTagForm row={row} actionData={answerFor(actionData, "addTag", row.id)} cancel={cancel} />}
                        </ActionDialog>
                      ) : null}
                      {may.write && params.edit === row.id ? (
                        <ActionDialog
                          id="edit-fields-dialog"
                          title={PORTFOLIO.editFields.title(row.id)}
                          closeTo={closeTo}
                          openerId={`edit-${row.id}`}
                        >
                          {(cancel) => (
                            <EditFieldsForm row={row} actionData={answerFor(actionData, "editFields", row.id)} cancel={cancel} />
                          )}
                        </ActionDialog>
                      ) : null}
                    </ResultCard>
                  </li>
                ))}
              </ol>
              {total > MAX_RESULT_WINDOW || totalIsMore ? <p className="muted small">{PORTFOLIO.windowNote(MAX_RESULT_WINDOW)}</p> : null}
              <FromPagination params={params} total={total} />
            </>
          )}
        </section>
      </div>
      {may.write ? <RemoveTagDialog target={removing} onClose={() => setRemoving(null)} /> : null}
    </>
  );
}
