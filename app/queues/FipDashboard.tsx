/** The FIP dashboard (spec 2 §2 FIP, §4, §8): matters synchronized with the docket system, or failed with the error. */
import { Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { FIP_FILTERS, FIP_SORTS, QUEUE_CONSTANTS } from "@contract/queues";
import { formatDate } from "~/lib/format";
import { ConfirmAction } from "~/ui/confirm";
import { DataTable, Pagination, type Column } from "~/ui/list";
import type { fipLoader } from "./queues.server";
import { FIP_FILTER_LABELS, FIP_SORT_LABELS, QUEUE_TEXTS as T } from "./texts";
import { FilterForm, Freshness, InspectPanel, RowAction, SortSelect, StatusBadge, StatusChecks, SummaryPie, inspectLinkId, useAutoRefresh } from "./ui";

type Data = Awaited<ReturnType<Awaited<ReturnType<typeof fipLoader>>["json"]>>;
type Row = Data["data"][number];

export function FipDashboard() {
  const loaded = useLoaderData<typeof fipLoader>() as unknown as Data;
  const { data, failed, resume } = useAutoRefresh(loaded, QUEUE_CONSTANTS.fipRefreshMs);
  const location = useLocation();
  const action = useActionData() as { confirm?: string; id?: string } | undefined;
  const write = data.may.write;
  const inspectHref = (id: string) => {
    const p = new URLSearchParams(location.search);
    p.set("inspect", id);
    return `?${p}`;
  };
  const columns: Column<Row>[] = [
    { header: T.fipColumns.matter, cell: (m) => <span className="nowrap">{m.matterNumber}</span> },
    {
      header: T.fipColumns.fipId,
      cell: (m) =>
        m.matterUrl ? (
          <a href={m.matterUrl} target="_blank" rel="noopener noreferrer" className="nowrap">
            {m.fipId}
            <span className="visually-hidden"> {T.newTab}</span>
          </a>
        ) : (
          m.fipId
        ),
    },
    { header: T.fipColumns.audit, cell: (m) => <span className="nowrap">{m.fipAuditDate ? formatDate(m.fipAuditDate) : ""}</span> },
    {
      header: T.fipColumns.status,
      cell: (m) => <StatusBadge status={m.synchronized ? "synchronized" : "failed"} label={m.synchronized ? T.synchronized : T.failed} />,
    },
    { header: T.fipColumns.created, cell: (m) => <span className="nowrap">{m.created}</span> },
    { header: T.fipColumns.updated, cell: (m) => <span className="nowrap">{m.updated}</span> },
    { header: T.fipColumns.error, cell: (m) => <span className="message-cell">{m.error ?? ""}</span> },
    {
      header: T.fipColumns.actions,
      className: "actions",
      cell: (m) => (
        <div className="row-actions">
          {!m.synchronized && m.error ? (
            <Link id={inspectLinkId(m.id)} className="btn btn-secondary btn-small" to={inspectHref(m.id)} preventScrollReset>
              {T.inspect}
            </Link>
          ) : null}
          {write ? <RowAction intent="sync" label={T.syncMatter} fields={{ fipId: m.fipId, matterNumber: m.matterNumber }} /> : null}
          {write ? (
            <ConfirmAction
              intent="delete"
              id={`delete-${m.id}`}
              fields={{ id: m.id }}
              label={T.delete}
              title={T.deleteTitle(m.matterNumber || m.fipId)}
              message={T.cannotUndo}
              confirmLabel={T.delete}
              confirming={action?.confirm === "delete" && action.id === m.id}
            />
          ) : null}
        </div>
      ),
    },
  ];
  return (
    <div className="queue-dashboard">
      <header className="page-header">
        <h1>{T.fipTitle}</h1>
      </header>
      {data.missing ? (
        <p className="form-error" role="note">
          {T.notConfigured} {data.missing}
        </p>
      ) : null}
      <Freshness readAt={data.readAt} everyMs={QUEUE_CONSTANTS.fipRefreshMs} failed={failed} resume={resume} />
      {data.inspect ? <InspectPanel title={T.inspectTitle} message={data.inspect.message} returnFocusId={inspectLinkId(data.inspect.id)} /> : null}
      <div className="queue-layout">
        <section className="queue-main" aria-labelledby="matters-heading">
          <h2 id="matters-heading" className="visually-hidden">
            {T.fipTitle}
          </h2>
          <FilterForm>
            <StatusChecks options={FIP_FILTERS} labels={FIP_FILTER_LABELS} chosen={data.view.statuses} />
            <SortSelect options={FIP_SORTS} labels={FIP_SORT_LABELS} value={data.view.sort} label={T.fipSortLabel} />
          </FilterForm>
          <p className="muted">{T.total(data.total)}</p>
          <DataTable caption={T.fipTitle} columns={columns} rows={data.data} rowKey={(m) => m.id} empty={<p>{T.noMatters}</p>} />
          <Pagination page={data.view.page} pageSize={data.view.pageSize} total={data.total} />
        </section>
        <aside className="queue-side">
          <SummaryPie
            title={T.summary}
            counts={[
              { id: "failed", label: T.failed, value: data.aggs.failed },
              { id: "synchronized", label: T.synchronized, value: data.aggs.synchronized },
            ]}
          />
        </aside>
      </div>
    </div>
  );
}
