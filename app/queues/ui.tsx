/** The dashboards' shared parts: summary pie, freshness and auto-refresh, filters, inspect, schedule box. */
import { Pie } from "@nivo/pie";
import { Form, Link, useLocation, useMatches, useNavigate, useNavigation } from "@remix-run/react";
import { useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { submitForm, useAutoSubmit } from "~/ui/auto-submit";
import { useAdoptEarlyInput, useHydrated } from "~/ui/hydrated";
import { fetchJson } from "~/ui/fetch-json";
import { openModal } from "~/ui/modal";
import { QUEUE_TEXTS as T } from "./texts";

const STATUS_COLORS: Record<string, string> = {
  queued: "#64748b",
  requeued: "#7c3aed",
  inprogress: "#2563eb",
  failed: "#b91c1c",
  completed: "#15803d",
  dead: "#1f2937",
  delete: "#94a3b8",
  warning: "#b45309",
  synchronized: "#15803d",
};

/** A status as text with a coloured dot: never by colour alone. */
export function StatusBadge({ status, label }: { status: string; label: string }) {
  return (
    <span className={`status-badge status-${status}`}>
      <span className="status-dot" aria-hidden="true" style={{ background: STATUS_COLORS[status] ?? "#64748b" }} />
      {label}
    </span>
  );
}

/**
 * The summary pie, drawn on the server as SVG by @nivo/pie (fixed size, no animation, no interaction), with the same
 * numbers in a table so it reads without JavaScript and with a screen reader.
 */
export function SummaryPie({ title, counts }: { title: string; counts: { id: string; label: string; value: number }[] }) {
  const shown = counts.filter((c) => c.value > 0);
  const total = counts.reduce((a, c) => a + c.value, 0);
  return (
    <figure className="summary-pie">
      <figcaption className="summary-title">{title}</figcaption>
      <div className="summary-body">
        {shown.length ? (
          <div className="pie-frame" aria-hidden="true">
            <Pie
              width={200}
              height={200}
              data={shown}
              animate={false}
              isInteractive={false}
              innerRadius={0.5}
              padAngle={1}
              enableArcLinkLabels={false}
              enableArcLabels={false}
              colors={(d) => STATUS_COLORS[String(d.id)] ?? "#64748b"}
              margin={{ top: 4, right: 4, bottom: 4, left: 4 }}
            />
          </div>
        ) : (
          <p className="muted">{T.noSummary}</p>
        )}
        <table className="summary-table">
          <thead>
            <tr>
              <th scope="col">{T.statusLegend}</th>
              <th scope="col" className="num">
                {T.count}
              </th>
            </tr>
          </thead>
          <tbody>
            {counts.map((c) => (
              <tr key={c.id}>
                <th scope="row">
                  <StatusBadge status={c.id} label={c.label} />
                </th>
                <td className="num">{c.value}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">Total</th>
              <td className="num">{total}</td>
            </tr>
          </tfoot>
        </table>
      </div>
    </figure>
  );
}

/**
 * Fresh data every `everyMs` with JavaScript: the route's own loader data (`?_data=`), shown in place of the page's.
 * The first failed refresh stops it (and says so) until Resume. Navigations bring the page's data back.
 */
export function useAutoRefresh<D>(data: D, everyMs: number): { data: D; failed: boolean; resume: () => void } {
  const matches = useMatches();
  const routeId = matches[matches.length - 1]?.id ?? "";
  const location = useLocation();
  const navigation = useNavigation();
  const [fresh, setFresh] = useState<{ data: D; from: D } | null>(null);
  const [failed, setFailed] = useState(false);
  const busy = navigation.state !== "idle";
  useEffect(() => {
    if (failed || busy) return;
    const timer = window.setInterval(async () => {
      try {
        const search = new URLSearchParams(location.search);
        search.set("_data", routeId);
        const next = await fetchJson<D>(`${location.pathname}?${search}`);
        setFresh({ data: next, from: data });
      } catch {
        setFailed(true);
      }
    }, everyMs);
    return () => window.clearInterval(timer);
  }, [failed, busy, everyMs, location.pathname, location.search, routeId, data]);
  // Data the page got by navigating (after an action, a filter change) wins over an older refresh.
  const shown = fresh && fresh.from === data ? fresh.data : data;
  return { data: shown, failed, resume: () => setFailed(false) };
}

/** "Data read at …" and a Refresh link (works without JavaScript); with it, the auto-refresh state and Resume. */
export function Freshness({ readAt, everyMs, failed, resume }: { readAt: string; everyMs: number; failed: boolean; resume: () => void }) {
  const hydrated = useHydrated();
  const location = useLocation();
  return (
    <div className="freshness" role="status" aria-live="polite">
      <span className="muted">{T.readAt(readAt)}</span>{" "}
      {hydrated && !failed ? <span className="muted">{T.autoRefresh(everyMs / 1000)}</span> : null}
      {hydrated && failed ? (
        <>
          <strong className="refresh-stopped">{T.refreshStopped}</strong>{" "}
          <button type="button" className="btn btn-secondary btn-small" onClick={resume}>
            {T.resumeRefresh}
          </button>
        </>
      ) : null}{" "}
      <Link to={location.pathname + location.search} className="btn btn-secondary btn-small" preventScrollReset>
        {T.refresh}
      </Link>
    </div>
  );
}

/** A GET form of filters that submits itself on change with JavaScript; the Apply button without it. */
export function FilterForm({ children, keep }: { children: ReactNode; keep?: Record<string, string> }) {
  const hydrated = useHydrated();
  const auto = useAutoSubmit(submitForm);
  return (
    <Form method="get" className="queue-filters" preventScrollReset onChange={auto.onChange} onKeyDown={auto.onKeyDown} onBlur={auto.onBlur}>
      <input type="hidden" name="filtered" value="1" />
      {Object.entries(keep ?? {}).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      {children}
      {hydrated ? null : (
        <button type="submit" className="btn btn-secondary">
          {T.apply}
        </button>
      )}
    </Form>
  );
}

export function StatusChecks<S extends string>({ options, labels, chosen, legend = T.statusLegend, name = "status" }: { options: readonly S[]; labels: Record<S, string>; chosen: readonly string[]; legend?: string; name?: string }) {
  return (
    <fieldset className="status-checks" key={chosen.join(",")}>
      <legend>{legend}</legend>
      {options.map((s) => (
        <label key={s}>
          <input type="checkbox" name={name} value={s} defaultChecked={chosen.includes(s)} />
          {labels[s]}
        </label>
      ))}
    </fieldset>
  );
}

export function SortSelect<S extends string>({ options, labels, value, label = T.sort }: { options: readonly S[]; labels: Record<S, string>; value: string; label?: string }) {
  return (
    <label className="sort-select">
      {label}
      <select name="sort" defaultValue={value} key={value}>
        {options.map((s) => (
          <option key={s} value={s}>
            {labels[s]}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * The inspect view (`?inspect=id`). With JavaScript a modal dialog: focus moves into it (on Close), Escape or Close
 * shuts it, and focus goes back to the row's Inspect link (`returnFocusId`). Without JavaScript the server renders the
 * same content as a panel above the list, its Close a link back to the list.
 */
export function InspectPanel({ title, message, stack, returnFocusId }: { title: string; message: string; stack?: string; returnFocusId: string }) {
  const hydrated = useHydrated();
  const location = useLocation();
  const navigate = useNavigate();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const params = new URLSearchParams(location.search);
  params.delete("inspect");
  const back = `${location.pathname}${params.size ? `?${params}` : ""}`;
  useEffect(() => {
    if (hydrated) openModal(dialogRef.current);
  }, [hydrated]);
  const body = (
    <>
      <h2 id="inspect-title">{title}</h2>
      <h3>{T.message}</h3>
      <pre className="inspect-text">{message}</pre>
      {stack ? (
        <>
          <h3>{T.stack}</h3>
          <pre className="inspect-text">{stack}</pre>
        </>
      ) : null}
    </>
  );
  if (!hydrated) {
    return (
      <section className="inspect-panel" role="dialog" aria-modal="false" aria-labelledby="inspect-title">
        {body}
        <Link to={back} className="btn btn-secondary" autoFocus preventScrollReset>
          {T.close}
        </Link>
      </section>
    );
  }
  return (
    <dialog
      ref={dialogRef}
      className="inspect-panel inspect-dialog"
      aria-labelledby="inspect-title"
      // Escape (the browser's cancel) and Close both end here: back to the row, then the list's address without inspect.
      onClose={() => {
        document.getElementById(returnFocusId)?.focus();
        navigate(back, { preventScrollReset: true });
      }}
    >
      {body}
      <button type="button" className="btn btn-secondary" data-initial-focus onClick={() => dialogRef.current?.close()}>
        {T.close}
      </button>
    </dialog>
  );
}

/** The id of a row's Inspect link, where focus returns when its dialog closes. */
export const inspectLinkId = (id: string) => `inspect-${id}`;

/** A one-button POST form for a row action (Requeue, Delete, Sync matter …). */
export function RowAction({ intent, label, fields, danger = false }: { intent: string; label: string; fields: Record<string, string>; danger?: boolean }) {
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && navigation.formData?.get("intent") === intent && Object.entries(fields).every(([k, v]) => navigation.formData?.get(k) === v);
  return (
    <Form method="post" className="inline-form" preventScrollReset>
      {Object.entries(fields).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      <button type="submit" name="intent" value={intent} className={`btn btn-small ${danger ? "btn-danger" : "btn-secondary"}`} disabled={pending}>
        {label}
      </button>
    </Form>
  );
}

/**
 * The schedule box: paste any text; the ids found are shown before scheduling (live with JavaScript, "Show ids"
 * without); Schedule needs at least one.
 */
export function ScheduleBox({ extract, initial }: { extract: (text: string) => string[]; initial?: { text: string; ids: string[]; error: string | null } | null }) {
  const hydrated = useHydrated();
  const [text, setText] = useState(initial?.text ?? "");
  const textRef = useRef<HTMLTextAreaElement>(null);
  useAdoptEarlyInput(textRef, text, setText);
  const ids = useMemo(() => (hydrated ? extract(text) : (initial?.ids ?? [])), [hydrated, text, extract, initial]);
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && navigation.formData?.get("intent") === "schedule";
  // Emptied once a schedule has gone through (the navigation back to idle), not on mount: what was pasted before the
  // page hydrated stays.
  const previousState = useRef(navigation.state);
  useEffect(() => {
    if (previousState.current !== "idle" && navigation.state === "idle" && !initial) setText("");
    previousState.current = navigation.state;
  }, [navigation.state, initial]);
  return (
    <Form method="post" className="schedule-box" preventScrollReset>
      <label htmlFor="schedule-text" className="field-label">
        {T.scheduleLabel}
      </label>
      <p className="field-hint" id="schedule-hint">
        {T.scheduleHint}
      </p>
      <textarea
        ref={textRef}
        id="schedule-text"
        name="text"
        rows={4}
        maxLength={100_000}
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        aria-describedby="schedule-hint schedule-found"
      />
      <div id="schedule-found" aria-live="polite">
        {ids.length ? (
          <>
            <p className="field-hint">{T.extracted(ids.length)}</p>
            <ul className="id-chips">
              {ids.slice(0, 200).map((id) => (
                <li key={id}>{id}</li>
              ))}
              {ids.length > 200 ? <li>…</li> : null}
            </ul>
          </>
        ) : initial?.error ? (
          <p className="field-error">{initial.error}</p>
        ) : hydrated && text.trim() ? (
          <p className="field-hint">{T.noneExtracted}</p>
        ) : null}
      </div>
      <div className="form-actions">
        {hydrated ? null : (
          <button type="submit" name="intent" value="preview" className="btn btn-secondary">
            {T.extract}
          </button>
        )}
        <button type="submit" name="intent" value="schedule" className="btn btn-primary" disabled={(hydrated && ids.length === 0) || pending}>
          {T.schedule}
        </button>
      </div>
    </Form>
  );
}
