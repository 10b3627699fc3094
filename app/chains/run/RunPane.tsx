import { Form, Link } from "@remix-run/react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { RUN_EVENT_TYPES, closingEvent, isUserAuthor, type RunEvent, type RunFormVariable, type RunWithEvents } from "@contract/chain-runs";
import { ChatBox } from "./RunBar";
import { answerOf, foldEvent, isGoing, paneOf, type PaneItem, type PaneState } from "./view";
import { RUNS } from "./texts";

/** Spec 3 §9: the pane follows new output while the reader is within 20 px of its bottom. */
const FOLLOW_PX = 20;
/** Spec 3 §9: a scroll the pane made itself is not the reader's for 100 ms. */
const PROGRAMMATIC_MS = 100;
/** Without JavaScript the run's page reloads itself this often while the run is going. */
const REFRESH_SECONDS = 2;

/**
 * The output pane of a run (spec 3 §2.9, §4.3): each link's item with what it was sent, its streamed answer, tokens
 * and time; retries and errors; the paused form with Continue; Stop while going. Rendered from the run's log on the
 * server; with JavaScript the page then listens to the run's events (the resource route) and folds each into the
 * same model, following the scroll; without it the page refreshes itself until the run is over.
 *
 * Once over, a run with a chat to follow offers its message box: a chain run that went on into its chat (its links
 * all finished), and a message after one (`followUp`: the chain run the next message follows).
 */
export function RunPane({ chainId, run, followUp = null, after = null }: { chainId: string; run: RunWithEvents; followUp?: string | null; after?: ReactNode }) {
  const [pane, setPane] = useState<PaneState>(() => ({ ...paneOf(run.events), status: run.status }));
  // The loader's run after a post (Stop, Continue): events the stream has not brought yet are folded in, and its
  // status holds when it is at least as recent as the pane.
  useEffect(() => {
    setPane((p) => {
      const next = run.events.reduce(foldEvent, p);
      return (run.events.at(-1)?.id ?? 0) >= p.lastId ? { ...next, status: run.status } : next;
    });
  }, [run]);
  const going = isGoing(pane.status);
  useRunEvents(chainId, run.id, run.kind, going, pane.lastId, setPane);
  const chatTo = run.kind === "chain" ? (pane.chat && (pane.status === "finished" || pane.items.some((i) => i.type === "chat")) ? run.id : null) : followUp;
  const scroller = useFollowScroll(pane);
  const action = `/chains/${encodeURIComponent(chainId)}/runs/${encodeURIComponent(run.id)}`;
  return (
    <section className="run-pane" aria-labelledby="run-output">
      {pane.status === "running" || pane.status === "starting" ? (
        <noscript>
          <meta httpEquiv="refresh" content={String(REFRESH_SECONDS)} />
          <p className="muted">{RUNS.refreshing}</p>
        </noscript>
      ) : null}
      <div className="run-bar">
        <h2 id="run-output">{RUNS.output}</h2>
        <span className={`badge run-status run-status-${pane.status}`} role="status" aria-live="polite">
          {RUNS.status[pane.status]}
        </span>
        {pane.usage ? <span className="muted">{RUNS.tokens(pane.usage)}</span> : null}
        {going ? (
          <Form method="post" action={action}>
            <button type="submit" name="intent" value="stop" className="btn btn-danger">
              {RUNS.stop}
            </button>
          </Form>
        ) : (
          <Link to={`/chains/${encodeURIComponent(chainId)}`} className="btn btn-secondary">
            {RUNS.reset}
          </Link>
        )}
      </div>
      <div className="run-items" ref={scroller} tabIndex={0} aria-label={RUNS.output}>
        {pane.items.length ? pane.items.map((i) => <RunItem key={i.key} item={i} />) : <p className="muted">{RUNS.noEvents}</p>}
        {pane.error && !pane.items.some((i) => i.error) ? (
          <p className="form-error" role="alert">
            {pane.error}
          </p>
        ) : null}
        {pane.form ? <RunForm action={action} variables={pane.form.variables} /> : null}
      </div>
      {after}
      {chatTo && !going ? <ChatBox action={`/chains/${encodeURIComponent(chainId)}/runs`} run={chatTo} /> : null}
    </section>
  );
}

/** Messages of a conversation with the chain's chat, the user's and the chat's, in order. */
export function Conversation({ id, messages }: { id: string; messages: readonly { author: string; text: string }[] }) {
  return (
    <section aria-labelledby={id} className="run-conversation">
      <h2 id={id}>{RUNS.conversation}</h2>
      {messages.map((m, i) => (
        <p key={i}>
          <strong>{isUserAuthor(m.author) ? RUNS.you : RUNS.assistant}:</strong> {m.text}
        </p>
      ))}
    </section>
  );
}

function RunItem({ item }: { item: PaneItem }) {
  const answer = answerOf(item);
  return (
    <article className="run-item" data-testid="run-item">
      <h3>
        {item.name} <span className="muted">{item.type}</span>
      </h3>
      {item.notes.map((n, i) => (
        <p key={i} className="muted run-note">
          {n}
        </p>
      ))}
      {answer ? <div className="run-answer" data-testid="run-answer">{answer}</div> : null}
      {item.files.map((f, i) => (
        <img key={i} className="run-image" src={`data:image/${f.type === "jpg" ? "jpeg" : f.type};base64,${f.base64}`} alt={f.name} />
      ))}
      {item.error ? (
        <p className="form-error" role="alert">
          {item.error}
        </p>
      ) : null}
      <p className="muted run-facts">
        {[item.variable ? RUNS.outputVariable(item.variable) : null, item.usage ? RUNS.tokens(item.usage) : null, item.ms !== null ? RUNS.time(item.ms) : null]
          .filter((fact) => fact !== null)
          .join(" · ")}
      </p>
      {item.input !== null ? (
        <details className="run-inspect">
          <summary>{RUNS.input}</summary>
          <pre>{JSON.stringify(item.input, null, 2)}</pre>
        </details>
      ) : null}
    </article>
  );
}

/** A claim offered by a claims picker (the context's claims, as the run resolved them). */
const claimsOf = (value: unknown) =>
  (Array.isArray(value) ? value : [])
    .filter((c): c is { claimNumber: number; text?: string; selected?: boolean } => typeof c === "object" && c !== null && typeof (c as { claimNumber?: unknown }).claimNumber === "number")
    .sort((a, b) => a.claimNumber - b.claimNumber);

/** The paused form (a server form: Continue posts its values). Claims pickers: one claim in single-claim mode, else several. */
function RunForm({ action, variables }: { action: string; variables: RunFormVariable[] }) {
  return (
    <Form method="post" action={action} className="run-form">
      <fieldset>
        <legend>{RUNS.formTitle}</legend>
        {variables.map((v) => {
          const id = `run-var-${v.name}`;
          const name = `var:${v.name}`;
          if (v.type === "boolean") {
            return (
              <label key={v.name} className="checkbox">
                <input type="checkbox" name={name} defaultChecked={v.value === true} /> {v.label || v.name}
              </label>
            );
          }
          if (v.type === "claims") {
            const claims = claimsOf(v.value);
            return (
              <fieldset key={v.name} className="context-claims">
                <legend>
                  {v.label || v.name}: {v.singleClaimMode ? RUNS.claimsSingle : RUNS.claimsMany}
                </legend>
                {claims.map((c) => (
                  <label key={c.claimNumber} className="context-claim">
                    <input type={v.singleClaimMode ? "radio" : "checkbox"} name={name} value={c.claimNumber} defaultChecked={c.selected === true} />
                    <span>
                      <strong>{RUNS.claimLabel(c.claimNumber)}</strong> {c.text ?? ""}
                    </span>
                  </label>
                ))}
              </fieldset>
            );
          }
          return (
            <div key={v.name} className="field">
              <label htmlFor={id}>{v.label || v.name}</label>
              <textarea id={id} name={name} rows={3} defaultValue={typeof v.value === "string" ? v.value : v.value == null ? "" : JSON.stringify(v.value)} />
            </div>
          );
        })}
      </fieldset>
      <button type="submit" name="intent" value="continue" className="btn btn-primary">
        {RUNS.continue}
      </button>
    </Form>
  );
}

/**
 * Listens to the run's events while it is going: an EventSource on the resource route from the last event shown; a
 * dropped connection reconnects by itself with Last-Event-ID. Each event is folded into the pane; 'Bad stream data'
 * for a stream event without content (spec 3 §5).
 */
function useRunEvents(chainId: string, runId: string, kind: RunWithEvents["kind"], going: boolean, lastId: number, setPane: (f: (p: PaneState) => PaneState) => void) {
  const from = useRef(lastId);
  from.current = lastId;
  useEffect(() => {
    if (!going || typeof EventSource === "undefined") return;
    const source = new EventSource(`/chains/${encodeURIComponent(chainId)}/runs/${encodeURIComponent(runId)}/events?after=${from.current}`);
    const onEvent = (message: MessageEvent<string>) => {
      let event: RunEvent;
      try {
        event = JSON.parse(message.data) as RunEvent;
      } catch {
        // Spec 3 §8: unparsable event data is logged, not shown.
        console.error("Unparsable run event", message.data);
        return;
      }
      if (event.type === "stream" && typeof event.data?.content !== "string") {
        setPane((p) => ({ ...p, error: RUNS.messages.badStreamData }));
        return;
      }
      setPane((p) => foldEvent(p, event));
      if (event.type === closingEvent(kind)) source.close();
    };
    for (const type of RUN_EVENT_TYPES) source.addEventListener(type, onEvent);
    return () => source.close();
  }, [chainId, runId, kind, going, setPane]);
}

/** Keeps the pane scrolled to its end while the reader is within FOLLOW_PX of it (spec 3 §9). */
function useFollowScroll(pane: PaneState) {
  const ref = useRef<HTMLDivElement>(null);
  const following = useRef(true);
  const programmatic = useRef(false);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const onScroll = () => {
      if (programmatic.current) return;
      following.current = el.scrollHeight - el.scrollTop - el.clientHeight <= FOLLOW_PX;
    };
    el.addEventListener("scroll", onScroll, { passive: true });
    return () => {
      el.removeEventListener("scroll", onScroll);
      window.clearTimeout(timer.current);
    };
  }, []);
  useEffect(() => {
    const el = ref.current;
    if (!el || !following.current) return;
    programmatic.current = true;
    el.scrollTop = el.scrollHeight;
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => (programmatic.current = false), PROGRAMMATIC_MS);
  }, [pane]);
  return ref;
}
