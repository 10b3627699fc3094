import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { submitForm, useAutoSubmit } from "~/ui/auto-submit";
import { ListHeader, Pagination } from "~/ui/list";
import { AssigneeInput } from "../AssigneeInput";
import type { milestonesLoader, MilestoneRow, Urgency } from "./milestones.server";
import { useNextKey } from "./next-key";
import { MILESTONES } from "./texts";

const T = MILESTONES;
const F = T.filters;

/** The badge of a pressing date: "Overdue" or "Due this week" (text, not colour alone). */
export function UrgencyBadge({ urgency }: { urgency: Urgency }) {
  if (!urgency) return null;
  return <span className={`docket-badge docket-${urgency}`}>{urgency === "overdue" ? T.badges.overdue : T.badges.week}</span>;
}

/**
 * The docket (docs/decisions/docket-screen.md): the counts that start the morning (overdue, due this week), the
 * filters as one GET form (submitting itself with JavaScript, an Apply button without), and the milestones as cards,
 * each with its open tasks: a list that reads at 390 px without sideways scrolling.
 */
export function MilestoneList() {
  const data = useLoaderData<typeof milestonesLoader>();
  const { query, rows, total, counts } = data;
  const auto = useAutoSubmit(submitForm);
  const busy = useNavigation().state === "loading";
  const from = encodeURIComponent(data.search);
  const first = rows[0] ? milestoneHref(rows[0].id, from) : null;
  useNextKey(first);
  return (
    <>
      <ListHeader title={T.title} total={T.summary(rows.length, total)} />
      <nav className="docket-counts" aria-label={T.counts.label}>
        <Link to={counts.overdueHref} className="docket-count docket-overdue" aria-current={query.overdue && !query.dueThisWeek ? "page" : undefined}>
          {T.counts.overdue(counts.overdue)}
        </Link>
        <Link to={counts.weekHref} className="docket-count docket-week" aria-current={query.dueThisWeek && !query.overdue ? "page" : undefined}>
          {T.counts.week(counts.week)}
        </Link>
      </nav>
      {/* Keyed by the query: back/forward and the count links reset the controls to what the URL says. */}
      <Form method="get" className="docket-filters" key={data.search} aria-busy={busy} onChange={auto.onChange} onKeyDown={auto.onKeyDown} onBlur={auto.onBlur}>
        <fieldset className="docket-filter-set">
          <legend className="visually-hidden">{F.legend}</legend>
          <input type="hidden" name="filtered" value="1" />
          <label className="docket-check">
            <input type="checkbox" name="mine" value="true" defaultChecked={query.mine} />
            {F.mine}
          </label>
          <label className="docket-check">
            <input type="checkbox" name="overdue" value="true" defaultChecked={query.overdue} />
            {T.dueOptions.overdue}
          </label>
          <label className="docket-check">
            <input type="checkbox" name="dueThisWeek" value="true" defaultChecked={query.dueThisWeek} />
            {T.dueOptions.week}
          </label>
          <div className="field docket-field">
            <label htmlFor="docket-assignee">{F.assignee}</label>
            <AssigneeInput
              id="docket-assignee"
              name="assignee"
              type="email"
              defaultValue={query.mine ? "" : (query.assignee ?? "")}
              placeholder={data.me}
              aria-describedby="docket-assignee-hint"
              autoComplete="off"
            />
            <p id="docket-assignee-hint" className="field-hint">
              {F.assigneeHint}
            </p>
          </div>
          <div className="field docket-field">
            <label htmlFor="docket-workflow">{F.workflow}</label>
            <select id="docket-workflow" name="workflow" defaultValue={query.workflow ?? ""}>
              <option value="">{F.anyWorkflow}</option>
              {data.workflows.map((w) => (
                <option key={w.value} value={w.value}>
                  {w.label}
                </option>
              ))}
            </select>
          </div>
          <div className="field docket-field">
            <label htmlFor="docket-status">{F.status}</label>
            <select id="docket-status" name="status" defaultValue={query.status ?? "any"}>
              {(["open", "completed", "deleted", "any"] as const).map((s) => (
                <option key={s} value={s}>
                  {T.statusOptions[s]}
                </option>
              ))}
            </select>
          </div>
          <div className="field docket-field">
            <label htmlFor="docket-sort">{F.sort}</label>
            <select id="docket-sort" name="sort" defaultValue={query.sort}>
              {data.sorts.map((s) => (
                <option key={s} value={s}>
                  {T.sortOptions[s]}
                </option>
              ))}
            </select>
          </div>
        </fieldset>
        <div className="docket-filter-actions">
          <button type="submit" className="btn btn-secondary">
            {F.apply}
          </button>
          <Link to="/milestones">{F.reset}</Link>
        </div>
      </Form>
      {rows.length === 0 ? (
        <div className="empty-state">
          {query.mine && query.status === "open" && !query.overdue && !query.dueThisWeek && !query.workflow ? (
            <p>{T.empty.mine}</p>
          ) : (
            <p>{T.empty.filtered}</p>
          )}
          <p>
            <Link to={`?filtered=1&status=open&sort=${query.sort}`}>{T.empty.showAll}</Link>
          </p>
        </div>
      ) : (
        <ol className="docket" aria-label={T.title}>
          {rows.map((m, i) => (
            <MilestoneCard key={m.id} m={m} from={from} first={i === 0} />
          ))}
        </ol>
      )}
      <Pagination page={query.page} pageSize={data.pageSize} total={total} />
    </>
  );
}

const milestoneHref = (id: string, from: string) => `/milestones/${encodeURIComponent(id)}?from=${from}`;

function MilestoneCard({ m, from, first }: { m: MilestoneRow; from: string; first: boolean }) {
  const L = T.labels;
  const href = milestoneHref(m.id, from);
  return (
    <li className={`docket-card${m.urgency ? ` docket-card-${m.urgency}` : ""}`}>
      <div className="docket-card-head">
        <h2 className="docket-title">
          <Link to={href} accessKey={first ? "n" : undefined} aria-keyshortcuts={first ? "N" : undefined}>
            {m.title}
          </Link>
        </h2>
        <UrgencyBadge urgency={m.urgency} />
        <span className={`docket-status docket-status-${m.status}`}>{T.status[m.status]}</span>
      </div>
      <dl className="docket-facts">
        <Fact label={L.dueAt} value={m.dueAt} />
        <Fact label={L.clientDueDate} value={m.clientDueDate} />
        <Fact label={L.reference} value={m.clientCode ? `${m.reference} (${m.clientCode})` : m.reference} />
        <Fact label={L.workflow} value={m.workflowTitle} />
        <Fact label={L.template} value={m.templateTitle} />
      </dl>
      {m.openTasks.length ? (
        <ul className="docket-tasks" aria-label={`${L.openTasks}: ${m.title}`}>
          {/* The list answer carries the first open tasks; the rest are on the milestone's page. */}
          {m.openTasks.map((t) => (
            <li key={t.id}>
              <span className="docket-task-title">{t.title}</span>{" "}
              <span className="muted small">
                {t.assignees.length ? t.assignees.join(", ") : T.unassigned}
                {" · "}
                {t.dueAt}
              </span>{" "}
              <UrgencyBadge urgency={t.urgency} />
            </li>
          ))}
          {m.openTaskCount > m.openTasks.length ? <li className="muted small">{T.moreTasks(m.openTaskCount - m.openTasks.length)}</li> : null}
        </ul>
      ) : m.status === "open" ? (
        <p className="muted small">{T.noOpenTasks}</p>
      ) : null}
    </li>
  );
}

export function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div className="docket-fact">
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}
