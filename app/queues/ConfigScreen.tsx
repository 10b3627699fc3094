/** The USPTO configuration (spec 2 §2, §3, §5, §7): schedule with a cron builder and next runs, time-out, durations. */
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { Cron } from "croner";
import { useMemo, useRef, useState, type ReactNode } from "react";
import { CRON_FIELDS, DURATION_PRESETS, cronError, cronNamedParts, formatDuration, parseDuration, timeoutMinutes } from "@contract/queues";
import { Toast, toastOf } from "~/ui/toast";
import { useAdoptEarlyInput, useHydrated } from "~/ui/hydrated";
import type { configLoader } from "./queues.server";
import { QUEUE_TEXTS as T } from "./texts";

type ActionData = { fieldError?: { field: string; message: string; value: string }; toast?: unknown } | undefined;

const CRON_PARTS = ["minute", "hour", "dom", "month", "dow"] as const;

function FieldError({ id, message }: { id: string; message: string | null | undefined }) {
  return message ? (
    <p id={id} className="field-error" role="alert">
      {message}
    </p>
  ) : null;
}

export function ConfigScreen() {
  const { config, nextRuns, loadError, may } = useLoaderData<typeof configLoader>();
  const action = useActionData() as ActionData;
  const err = (field: string) => (action?.fieldError?.field === field ? action.fieldError : null);
  return (
    <div className="queue-dashboard">
      <header className="page-header">
        <div>
          <h1>{T.configurationTitle}</h1>
          <p className="page-subtitle">
            <Link to="/uspto">{T.usptoTitle}</Link>
          </p>
        </div>
      </header>
      <Toast toast={toastOf(action)} />
      {loadError || !config ? (
        <>
          <Toast toast={{ type: "error", message: T.loadConfigFailed, description: loadError ?? "" }} />
          <p className="form-error" role="alert">
            {T.loadConfigFailed} {loadError}
          </p>
        </>
      ) : (
        <div className="config-grid">
          <ScheduleCard current={config.schedule.current} fallback={config.schedule.default} nextRuns={nextRuns} error={err("schedule")} write={may.write} />
          <section className="config-card" aria-labelledby="timeout-title">
            <h2 id="timeout-title">{T.requestTimeout}</h2>
            <p className="config-values">
              <span>{T.current(`${config.requestTimeout.current} ms`)}</span>
              <span>{T.defaultValue(`${config.requestTimeout.default} ms`)}</span>
            </p>
            {may.write ? <TimeoutForm current={config.requestTimeout.current} error={err("timeout")} /> : null}
          </section>
          <DurationCard field="repeat" title={T.downloadRepeat} value={config.downloadRepeat} error={err("repeat")} write={may.write} />
          <DurationCard field="delay" title={T.tooManyRequestsDelay} value={config.tooManyRequestsDelay} error={err("delay")} write={may.write} />
        </div>
      )}
    </div>
  );
}

/** A builder in a disclosure: its inputs update the field with JavaScript; without it, its own button posts `intent`. */
function Builder({ intent, hint, children }: { intent: string; hint?: string; children: ReactNode }) {
  const hydrated = useHydrated();
  return (
    <details className="builder">
      <summary>{T.builder}</summary>
      {hint ? <p className="field-hint">{hint}</p> : null}
      <Form method="post" className="builder-fields" preventScrollReset>
        {children}
        {hydrated ? null : (
          <button type="submit" name="intent" value={intent} className="btn btn-secondary">
            {T.build}
          </button>
        )}
      </Form>
    </details>
  );
}

function nextRunsOf(expression: string): { iso: string; text: string }[] | null {
  if (cronError(expression)) return null;
  try {
    return new Cron(expression, { paused: true })
      .nextRuns(5)
      .map((d) => ({ iso: d.toISOString(), text: d.toLocaleString(undefined, { dateStyle: "long", timeStyle: "short" }) }));
  } catch {
    return null;
  }
}

function ScheduleCard({ current, fallback, nextRuns, error, write }: { current: string; fallback: string; nextRuns: { iso: string; text: string }[]; error: { message: string; value: string } | null; write: boolean }) {
  const hydrated = useHydrated();
  const [text, setText] = useState(error?.value ?? current);
  const inputRef = useRef<HTMLInputElement>(null);
  useAdoptEarlyInput(inputRef, text, setText);
  // The builder edits the five named fields; a leading second or trailing year is not one of them.
  const parts = cronNamedParts(text);
  const problem = hydrated ? cronError(text) : null;
  // With JavaScript, the next runs of what is typed (browser time); else the saved schedule's, from the server.
  const preview = useMemo(() => (hydrated && text.trim() !== current ? nextRunsOf(text) : null), [hydrated, text, current]);
  const runs = preview ?? nextRuns;
  const setPart = (i: number, value: string) => {
    const next = CRON_PARTS.map((_, j) => (j === i ? value.trim() || "*" : (parts[j] ?? "*")));
    setText(next.join(" "));
  };
  return (
    <section className="config-card" aria-labelledby="schedule-title">
      <h2 id="schedule-title">{T.scheduleField}</h2>
      <p className="config-values">
        <span>
          {T.current("")}
          <code>{current}</code>
        </span>
        <span>
          {T.defaultValue("")}
          <code>{fallback}</code>
        </span>
      </p>
      {write ? (
        <>
          <Form method="post" className="config-row" preventScrollReset>
            <label htmlFor="schedule" className="visually-hidden">
              {T.scheduleField}
            </label>
            <input
              ref={inputRef}
              id="schedule"
              name="schedule"
              value={text}
              maxLength={200}
              onChange={(e) => setText(e.currentTarget.value)}
              aria-invalid={error || problem ? true : undefined}
              aria-describedby="schedule-error"
            />
            <button type="submit" name="intent" value="schedule" className="btn btn-primary">
              {T.update}
            </button>
          </Form>
          <FieldError id="schedule-error" message={problem ?? error?.message} />
          <Builder intent="schedule-build" hint={T.cronBuilderHint}>
              {CRON_FIELDS.map((f, i) => (
                <label key={f.name}>
                  {`${f.name} (${f.min}-${f.max})`}
                  <input
                    name={`cron-${CRON_PARTS[i]}`}
                    defaultValue={parts[i] ?? "*"}
                    key={hydrated ? undefined : parts[i]}
                    maxLength={40}
                    onChange={(e) => setPart(i, e.currentTarget.value)}
                  />
                </label>
              ))}
          </Builder>
        </>
      ) : null}
      <h3 className="field-label">{T.nextRuns}</h3>
      <ol className="next-runs">
        {runs.map((r) => (
          <li key={r.iso}>
            <time dateTime={r.iso}>{r.text}</time>
          </li>
        ))}
      </ol>
    </section>
  );
}

function TimeoutForm({ current, error }: { current: number; error: { message: string; value: string } | null }) {
  const [text, setText] = useState(error?.value ?? String(current));
  const inputRef = useRef<HTMLInputElement>(null);
  useAdoptEarlyInput(inputRef, text, setText);
  const ms = Number(text);
  return (
    <>
      <Form method="post" className="config-row" preventScrollReset>
        <label htmlFor="timeout" className="visually-hidden">
          {T.requestTimeout}
        </label>
        <input ref={inputRef} id="timeout" name="timeout" inputMode="numeric" value={text} maxLength={20} onChange={(e) => setText(e.currentTarget.value)} aria-invalid={error ? true : undefined} aria-describedby="timeout-hint timeout-error" />
        <button type="submit" name="intent" value="timeout" className="btn btn-primary">
          {T.update}
        </button>
      </Form>
      <p className="field-hint" id="timeout-hint">
        {Number.isFinite(ms) && ms > 0 ? T.sentAsMinutes(timeoutMinutes(ms)) : ""}
      </p>
      <FieldError id="timeout-error" message={error?.message} />
    </>
  );
}

function DurationCard({ field, title, value, error, write }: { field: "repeat" | "delay"; title: string; value: { current: number; default: number }; error: { message: string; value: string } | null; write: boolean }) {
  const hydrated = useHydrated();
  const [text, setText] = useState(error?.value ?? (value.current ? formatDuration(value.current) : "0s"));
  const inputRef = useRef<HTMLInputElement>(null);
  useAdoptEarlyInput(inputRef, text, setText);
  const parsed = parseDuration(text);
  const live = hydrated && text.trim() && "error" in parsed ? parsed.error : null;
  const ms = "ms" in parsed ? parsed.ms : 0;
  const part = (unit: number, mod: number) => Math.floor(ms / unit) % mod;
  const id = `${field}-input`;
  return (
    <section className="config-card" aria-labelledby={`${field}-title`}>
      <h2 id={`${field}-title`}>{title}</h2>
      <p className="config-values">
        <span>{T.current(formatDuration(value.current))}</span>
        <span>{T.defaultValue(formatDuration(value.default))}</span>
      </p>
      {write ? (
        <>
          <Form method="post" className="config-row" preventScrollReset>
            <label htmlFor={id} className="visually-hidden">
              {title}
            </label>
            <input ref={inputRef} id={id} name={field} value={text} maxLength={100} placeholder="1d 2h 30m 15s" onChange={(e) => setText(e.currentTarget.value)} aria-invalid={error || live ? true : undefined} aria-describedby={`${field}-hint ${field}-error`} />
            <label className="sort-select">
              {T.presets}
              <select
                name={`${field}-preset`}
                defaultValue=""
                onChange={(e) => {
                  const v = e.currentTarget.value;
                  if (v !== "") setText(Number(v) ? formatDuration(Number(v)) : "0s");
                }}
              >
                <option value="">—</option>
                {DURATION_PRESETS.map((p) => (
                  <option key={p.ms} value={p.ms}>
                    {p.ms ? p.label : T.noDelayPreset}
                  </option>
                ))}
              </select>
            </label>
            <button type="submit" name="intent" value={field} className="btn btn-primary">
              {T.update}
            </button>
          </Form>
          <p className="field-hint" id={`${field}-hint`}>
            {T.durationHint}
          </p>
          <FieldError id={`${field}-error`} message={live ?? error?.message} />
          <Builder intent={`${field}-build`}>
              {(
                [
                  ["d", "Days", 30, part(86_400_000, 1_000)],
                  ["h", "Hours", 23, part(3_600_000, 24)],
                  ["m", "Minutes", 59, part(60_000, 60)],
                  ["s", "Seconds", 59, part(1000, 60)],
                ] as const
              ).map(([unit, label, max, v]) => (
                <label key={unit}>
                  {label}
                  <input
                    type="number"
                    name={`${field}-${unit}`}
                    min={0}
                    max={max}
                    step={1}
                    value={hydrated ? v : undefined}
                    defaultValue={hydrated ? undefined : v}
                    onChange={(e) => {
                      const n = Math.min(Math.max(0, Math.floor(Number(e.currentTarget.value) || 0)), max);
                      const units = { d: part(86_400_000, 1_000), h: part(3_600_000, 24), m: part(60_000, 60), s: part(1000, 60), [unit]: n };
                      const total = units.d * 86_400_000 + units.h * 3_600_000 + units.m * 60_000 + units.s * 1000;
                      setText(total ? formatDuration(total) : "0s");
                    }}
                  />
                </label>
              ))}
          </Builder>
        </>
      ) : null}
    </section>
  );
}
