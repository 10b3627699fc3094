/** The processing and USPTO dashboards (spec 2 §2, §4): one component, the USPTO parts switched on by `kind`. */
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import {
  PROCESSING_SORTS,
  PROCESSING_STATUSES,
  QUEUE_CONSTANTS,
  USPTO_SORTS,
  USPTO_STATUSES,
  extractProcessingIds,
  extractUsptoIds,
  type QueueStatus,
} from "@contract/queues";
import { ConfirmAction } from "~/ui/confirm";
import { DataTable, Pagination, type Column } from "~/ui/list";
import { useHydrated } from "~/ui/hydrated";
import { Toast, toastOf } from "~/ui/toast";
import type { queueLoader } from "./queues.server";
import { QUEUE_TEXTS as T, SORT_LABELS, STATUS_LABELS } from "./texts";
import {
  FilterForm,
  Freshness,
  InspectPanel,
  RowAction,
  ScheduleBox,
  SortSelect,
  StatusBadge,
  StatusChecks,
  SummaryPie,
  inspectLinkId,
  useAutoRefresh,
} from "./ui";

type Data = Awaited<ReturnType<Awaited<ReturnType<typeof queueLoader>>["json"]>>;
type Row = Data["data"][number];
type ActionData =
  | { schedule?: { text: string; ids: string[]; error: string | null }; confirm?: string; id?: string; ids?: string[]; toast?: unknown }
  | undefined;

/** The form the rows' checkboxes belong to (they sit in the table, the form above it). */
const BULK_FORM = "bulk-jobs";

const REQUEUE_PROCESSING: readonly QueueStatus[] = ["completed", "failed", "dead"];

function canRequeue(kind: Data["kind"], s: QueueStatus) {
  return kind === "processing" ? REQUEUE_PROCESSING.includes(s) : s !== "queued" && s !== "requeued";
}

export function QueueDashboard() {
  const loaded = useLoaderData<typeof queueLoader>() as unknown as Data;
  const everyMs = loaded.kind === "processing" ? QUEUE_CONSTANTS.processingRefreshMs : QUEUE_CONSTANTS.usptoRefreshMs;
  const { data, failed, resume } = useAutoRefresh(loaded, everyMs);
  const action = useActionData() as ActionData;
  const navigation = useNavigation();
  const location = useLocation();
  const uspto = data.kind === "uspto";
  const statuses = uspto ? USPTO_STATUSES : PROCESSING_STATUSES;
  const write = data.may.write;
  const onlyUnmatched = uspto && data.view.unmatched && data.view.statuses.length === 0;
  const hydrated = useHydrated();
  const rowIds = data.data.map((j) => j.id);
  const [picked, setPicked] = useState<string[]>([]);
  // Rows that left the page (deleted, filtered out, refreshed away) are no longer selected.
  const selected = picked.filter((id) => rowIds.includes(id));
  // New data from the server (an action done, a filter or page changed) starts with nothing selected, as it does
  // without JavaScript; the auto-refresh keeps the selection.
  useEffect(() => setPicked([]), [loaded]);
  // Boxes ticked before the page hydrated stay ticked.
  useEffect(() => {
    const early = [...document.querySelectorAll<HTMLInputElement>(`input[form="${BULK_FORM}"][name="ids"]:checked`)].map((b) => b.value);
    if (early.length) setPicked(early);
  }, []);
  const toggle = (id: string, on: boolean) => setPicked((p) => (on ? [...p.filter((x) => x !== id), id] : p.filter((x) => x !== id)));

  const columns: Column<Row>[] = [
    ...(write
      ? [
          {
            header: T.select,
            className: "select",
            cell: (j: Row) => (
              <input
                type="checkbox"
                name="ids"
                value={j.id}
                form={BULK_FORM}
                aria-label={T.selectRow(j.id)}
                {...(hydrated ? { checked: selected.includes(j.id), onChange: (e) => toggle(j.id, e.currentTarget.checked) } : { defaultChecked: action?.ids?.includes(j.id) })}
              />
            ),
          } satisfies Column<Row>,
        ]
      : []),
    { header: T.columns.id, cell: (j) => <code>{j.id}</code> },
    { header: T.columns.status, cell: (j) => <StatusBadge status={j.status} label={STATUS_LABELS[j.status]} /> },
    ...(uspto
      ? [
          { header: T.columns.customer, cell: (j: Row) => j.customerNumber ?? "" },
          { header: T.columns.changed, cell: (j: Row) => <span className="nowrap">{j.changed}</span> },
          {
            header: T.columns.priority,
            cell: (j: Row) =>
              write && (j.status === "queued" || j.status === "requeued") ? (
                <Form method="post" className="priority-form" preventScrollReset>
                  <input type="hidden" name="id" value={j.id} />
                  <label className="visually-hidden" htmlFor={`priority-${j.id}`}>
                    {`${T.priority} ${j.id}`}
                  </label>
                  <input id={`priority-${j.id}`} name="priority" type="number" step={1} min={-1_000_000} max={1_000_000} defaultValue={j.priority} key={j.priority} />
                  <button type="submit" name="intent" value="priority" className="btn btn-secondary btn-small">
                    {T.updatePriority}
                  </button>
                </Form>
              ) : (
                j.priority
              ),
          },
          { header: T.columns.unmatched, cell: (j: Row) => (j.isUnmatched ? T.columns.unmatched : "") },
        ]
      : []),
    { header: T.columns.created, cell: (j) => <span className="nowrap">{j.created}</span> },
    { header: T.columns.updated, cell: (j) => <span className="nowrap">{j.updated}</span> },
    { header: T.columns.message, cell: (j) => <span className="message-cell">{j.message ?? ""}</span> },
    {
      header: T.columns.actions,
      className: "actions",
      cell: (j) => (
        <div className="row-actions">
          {(uspto ? write && j.message : j.status === "failed") ? (
            <Link id={inspectLinkId(j.id)} className="btn btn-secondary btn-small" to={inspectHref(j.id)} preventScrollReset>
              {T.inspect}
            </Link>
          ) : null}
          {write && canRequeue(data.kind, j.status) ? <RowAction intent="requeue" label={T.requeue} fields={{ id: j.id }} /> : null}
          {write && j.status !== "inprogress" ? (
            <ConfirmAction
              intent="delete"
              id={`delete-${j.id}`}
              fields={{ id: j.id }}
              label={T.delete}
              title={T.deleteTitle(j.id)}
              message={T.cannotUndo}
              confirmLabel={T.delete}
              confirming={action?.confirm === "delete" && action.id === j.id}
            />
          ) : null}
        </div>
      ),
    },
  ];

  function inspectHref(id: string) {
    const p = new URLSearchParams(location.search);
    p.set("inspect", id);
    return `?${p}`;
  }

  const pieCounts = statuses.map((s) => ({ id: s, label: STATUS_LABELS[s], value: data.aggs[s] ?? 0 }));
  const title = uspto ? T.usptoTitle : T.processingTitle;
  const pausing = navigation.formData?.get("intent") === "pause" || navigation.formData?.get("intent") === "resume";

  return (
    <div className="queue-dashboard">
      <header className="page-header">
        <div>
          <h1>{title}</h1>
          <p className="page-subtitle">
            <StatusBadge status={data.active ? "completed" : "dead"} label={data.active ? T.active : T.paused} /> · {T.total(data.jobs)}
          </p>
        </div>
        <div className="header-actions">
          {write ? (
            <Form method="post" className="inline-form" preventScrollReset>
              <button type="submit" name="intent" value={data.active ? "pause" : "resume"} className="btn btn-primary" disabled={pausing && navigation.state !== "idle"}>
                {data.active ? T.pause : T.resume}
              </button>
            </Form>
          ) : null}
          {uspto ? (
            <Link to="/uspto/configuration" className="btn btn-secondary">
              {T.configuration}
            </Link>
          ) : null}
        </div>
      </header>
      <Toast toast={toastOf(action)} />
      {data.missing ? (
        <p className="form-error" role="note">
          {T.notConfigured} {data.missing}
        </p>
      ) : null}
      <Freshness readAt={data.readAt} everyMs={everyMs} failed={failed} resume={resume} />
      {data.inspect ? (
        <InspectPanel
          title={`${T.inspect}: ${data.inspect.id}`}
          message={data.inspect.message}
          stack={data.inspect.stack}
          returnFocusId={inspectLinkId(data.inspect.id)}
        />
      ) : null}

      {uspto && write ? (
        <div className="uspto-actions">
          <ConfirmAction
            intent="sync"
            label={T.sync}
            title={T.syncTitle}
            message={T.syncMessage}
            confirmLabel={T.sync}
            confirming={action?.confirm === "sync"}
            disabled={data.syncInProgress}
            disabledReason={data.syncInProgress ? T.syncInProgress : undefined}
            danger={false}
          />
          <ConfirmAction intent="sync-customers" label={T.syncCustomers} title={T.syncCustomersTitle} message={T.syncCustomersMessage} confirmLabel={T.syncCustomers} confirming={action?.confirm === "sync-customers"} danger={false} />
          <ConfirmAction intent="delete-cache" label={T.deleteCache} title={T.deleteCacheTitle} message={T.deleteCacheMessage} confirmLabel={T.deleteCache} confirming={action?.confirm === "delete-cache"} />
          {onlyUnmatched && data.toDelete > 0 ? (
            <ConfirmAction
              intent="remove-unmatched"
              label={T.removeUnmatched(data.toDelete)}
              title={T.removeUnmatchedTitle}
              message={T.removeUnmatchedMessage}
              confirmLabel={T.removeUnmatched(data.toDelete)}
              confirming={action?.confirm === "remove-unmatched"}
            />
          ) : null}
        </div>
      ) : null}

      <div className="queue-layout">
        <section className="queue-main" aria-labelledby="jobs-heading">
          <h2 id="jobs-heading" className="visually-hidden">
            {T.jobs}
          </h2>
          <FilterForm keep={uspto && data.tab === "customers" ? { tab: "customers" } : undefined}>
            <div className="queue-search">
              <label htmlFor="queue-search">{T.search}</label>
              <input id="queue-search" type="search" name="q" defaultValue={data.view.q} key={data.view.q} maxLength={QUEUE_CONSTANTS.maxSearch} autoComplete="off" />
              <button type="submit" className="btn btn-secondary">
                {T.find}
              </button>
            </div>
            <StatusChecks options={statuses} labels={STATUS_LABELS} chosen={data.view.statuses} />
            {uspto ? (
              <label className="unmatched-check">
                <input type="checkbox" name="unmatched" value="1" defaultChecked={data.view.unmatched} key={String(data.view.unmatched)} />
                {T.isUnmatched}
              </label>
            ) : null}
            <SortSelect options={uspto ? USPTO_SORTS : PROCESSING_SORTS} labels={SORT_LABELS} value={data.view.sort} />
          </FilterForm>
          <p className="muted">{T.total(data.total)}</p>
          {write ? (
            <BulkActions
              rowIds={rowIds}
              selected={selected}
              setSelected={setPicked}
              failed={data.aggs.failed ?? 0}
              confirming={action?.confirm === "delete-selected" ? (action.ids ?? []) : null}
            />
          ) : null}
          <DataTable caption={T.jobs} columns={columns} rows={data.data} rowKey={(j) => j.id} empty={<p>{T.noJobs}</p>} />
          <Pagination page={data.view.page} pageSize={data.view.pageSize} total={data.total} />
        </section>
        <aside className="queue-side">
          {write ? <ScheduleBox extract={uspto ? extractUsptoIds : extractProcessingIds} initial={action?.schedule ?? null} /> : null}
          <div className="summary-block">
            {uspto ? (
              <nav className="tabs" aria-label={T.summary}>
                <Link to="?tab=summary" aria-current={data.tab === "summary" ? "page" : undefined} preventScrollReset>
                  {T.summary}
                </Link>
                <Link to="?tab=customers" aria-current={data.tab === "customers" ? "page" : undefined} preventScrollReset>
                  {T.customerSummary}
                </Link>
              </nav>
            ) : null}
            {uspto && data.tab === "customers" ? (
              <CustomerSummary rows={data.aggsCustomers} />
            ) : (
              <SummaryPie title={T.summary} counts={pieCounts} />
            )}
          </div>
        </aside>
      </div>
    </div>
  );
}

/**
 * What to do with the ticked rows, and Requeue all failed. The rows' checkboxes belong to this form (`form=`), so it
 * works without JavaScript; Delete selected asks first (the kit's confirmation, carrying the ids). With JavaScript,
 * Select all and the count of selected rows.
 */
function BulkActions({
  rowIds,
  selected,
  setSelected,
  failed,
  confirming,
}: {
  rowIds: string[];
  selected: string[];
  setSelected: (ids: string[]) => void;
  failed: number;
  /** The ids the server asks to confirm deleting (without JavaScript), else null. */
  confirming: string[] | null;
}) {
  const hydrated = useHydrated();
  const none = hydrated && selected.length === 0;
  const all = rowIds.length > 0 && selected.length === rowIds.length;
  // A step the server answered (a click before the page hydrated) is about the rows it was sent.
  const ids = confirming ?? selected;
  return (
    <div className="bulk-actions" role="group" aria-label={T.bulkActions}>
      <Form method="post" id={BULK_FORM} className="inline-form bulk-form" preventScrollReset>
        {hydrated ? (
          <label className="select-all">
            <input type="checkbox" checked={all} onChange={(e) => setSelected(e.currentTarget.checked ? rowIds : [])} />
            {T.selectAll}
          </label>
        ) : null}
        {hydrated ? (
          <span className="muted" aria-live="polite">
            {T.selected(selected.length)}
          </span>
        ) : null}
        <button type="submit" name="intent" value="requeue-selected" className="btn btn-secondary btn-small" aria-disabled={none || undefined} onClick={(e) => none && e.preventDefault()}>
          {T.requeueSelected}
        </button>
        {hydrated || confirming ? null : (
          <button type="submit" name="intent" value="delete-selected" className="btn btn-danger btn-small">
            {T.deleteSelected}
          </button>
        )}
      </Form>
      {hydrated || confirming ? (
        <ConfirmAction
          intent="delete-selected"
          fields={{ ids }}
          label={T.deleteSelected}
          title={T.deleteSelectedTitle(ids.length)}
          message={T.cannotUndo}
          confirmLabel={T.deleteSelected}
          confirming={confirming !== null}
          disabled={ids.length === 0}
        />
      ) : null}
      {failed > 0 ? (
        <Form method="post" className="inline-form" preventScrollReset>
          <button type="submit" name="intent" value="requeue-failed" className="btn btn-secondary btn-small">
            {T.requeueAllFailed(failed)}
          </button>
        </Form>
      ) : null}
    </div>
  );
}

function CustomerSummary({ rows }: { rows: Data["aggsCustomers"] }) {
  if (!rows.length) return <p className="muted">{T.noSummary}</p>;
  const used = USPTO_STATUSES.filter((s) => rows.some((r) => r.counts[s]));
  return (
    <div className="table-wrap" role="region" aria-label={T.customerSummary} tabIndex={0}>
      <table className="data-table">
        <caption className="visually-hidden">{T.customerSummary}</caption>
        <thead>
          <tr>
            <th scope="col">{T.customer}</th>
            {used.map((s) => (
              <th scope="col" key={s} className="num">
                {STATUS_LABELS[s]}
              </th>
            ))}
            <th scope="col" className="num">
              Total
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.customerNumber}>
              <th scope="row">{r.customerNumber}</th>
              {used.map((s) => (
                <td key={s} className="num">
                  {r.counts[s] ?? 0}
                </td>
              ))}
              <td className="num">{r.total}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
