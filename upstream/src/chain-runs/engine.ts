/**
 * The run engine (docs/decisions/chain-runs.md): a run lives here, not in a request. Its events are written to the log
 * (store.ts) and then told to whoever listens; a run with no listener goes on until it ends, is stopped, or passes its
 * maximum duration. Stop aborts the run's signal, which the provider adapter's request and every wait carry.
 */
import {
  RUN_LIMITS,
  RUN_MESSAGES,
  isRunOver,
  type Run,
  type RunEvent,
  type RunEventData,
  type RunEventType,
  type RunLimits,
  type RunStatus,
  type Usage,
} from "../../contract/chain-runs";
import type { Actor } from "../lib/http";
import { HttpError } from "../lib/http";
import type { ChatScope, RunsStore } from "./store";

export type Listener = (event: RunEvent) => void;

/** A run going in this process. */
export class LiveRun {
  seq = 0;
  status: RunStatus = "running";
  readonly controller = new AbortController();
  readonly listeners = new Set<Listener>();
  usage: Usage = { promptTokens: 0, completionTokens: 0 };
  outputChars = 0;
  /** Set while waiting at a form: resolves with the form's values, rejects when the run is stopped. */
  resume: { resolve: (values: Record<string, unknown>) => void; reject: (error: Error) => void } | null = null;
  deadline: NodeJS.Timeout | null = null;
  /** A chain run gone on into its chat: the run's usage when the chat began (the chat's part is what came after). */
  chatFrom: Usage | null = null;

  constructor(
    readonly id: string,
    readonly kind: "chain" | "chat",
    readonly owner: string,
  ) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }
}

/** The run's own error: it ends the run with `message` (a stop, a bound, a provider failure). */
export class RunFailure extends Error {
  constructor(
    message: string,
    readonly status: "failed" | "cancelled" = "failed",
  ) {
    super(message);
    this.name = "RunFailure";
  }
}

export class RunRegistry {
  private readonly live = new Map<string, LiveRun>();
  private pending: { run: LiveRun; event: RunEvent }[] = [];
  private flushing: NodeJS.Immediate | null = null;

  constructor(
    private readonly store: RunsStore,
    private readonly limits: RunLimits = RUN_LIMITS,
  ) {}

  /** Runs going in this process (the bench reads it). */
  get size(): number {
    return this.live.size;
  }

  /** A new run for `actor`, refused (429) past the bounds of runs at once. */
  open(actor: Actor, kind: "chain" | "chat", chainId: string | null, parentId: string | null = null): LiveRun {
    let mine = 0;
    for (const r of this.live.values()) if (r.owner === actor.id) mine++;
    if (mine >= this.limits.perUser) throw new HttpError(429, RUN_MESSAGES.tooManyRuns(mine));
    if (this.live.size >= this.limits.total) throw new HttpError(429, RUN_MESSAGES.busy);
    const row = this.store.create(kind, chainId, actor.id, parentId);
    const run = new LiveRun(row.id, kind, actor.id);
    this.live.set(run.id, run);
    run.deadline = setTimeout(() => this.stop(run, RUN_MESSAGES.tooLong(this.limits.durationMs)), this.limits.durationMs);
    run.deadline.unref();
    return run;
  }

  get(id: string): LiveRun | null {
    return this.live.get(id) ?? null;
  }

  /** Writes an event and tells the listeners; nothing is written once the run is over, but its last words. */
  emit<T extends RunEventType>(run: LiveRun, type: T, data: RunEventData[T]): RunEvent | null {
    if (isRunOver(run.status)) return null;
    if (run.seq >= this.limits.events && type !== "error" && type !== "chain-finish" && type !== "chat-end") {
      throw new RunFailure(RUN_MESSAGES.tooManyEvents(this.limits.events));
    }
    const event = this.store.event(++run.seq, type, data);
    this.pending.push({ run, event });
    if (!this.flushing) this.flushing = setImmediate(() => this.flush());
    return event;
  }

  /**
   * Writes the events emitted since the last flush in one transaction, then tells their runs' listeners: an event is
   * in the log before anyone reads it, and a stream of tokens costs one commit per turn of the event loop rather than
   * one per token. Readers of the log flush first, so they never miss an event emitted but not yet written.
   */
  flush(): void {
    if (this.flushing) clearImmediate(this.flushing);
    this.flushing = null;
    if (!this.pending.length) return;
    const batch = this.pending;
    this.pending = [];
    this.store.write(batch.map(({ run, event }) => ({ runId: run.id, event })));
    for (const { run, event } of batch) for (const listener of run.listeners) listener(event);
  }

  /** Tokens spent: recorded, and the run stopped past its bound. */
  addUsage(run: LiveRun, usage: Usage): void {
    run.usage = { promptTokens: run.usage.promptTokens + usage.promptTokens, completionTokens: run.usage.completionTokens + usage.completionTokens };
    this.store.setUsage(run.id, run.usage);
    if (run.usage.promptTokens + run.usage.completionTokens > this.limits.tokens) throw new RunFailure(RUN_MESSAGES.tooManyTokens(this.limits.tokens));
  }

  /** Counts a link's output toward the run's bound. */
  addOutput(run: LiveRun, chars: number): void {
    run.outputChars += chars;
    if (run.outputChars > this.limits.runOutputChars) throw new RunFailure(RUN_MESSAGES.outputTooLong(this.limits.runOutputChars));
  }

  /** Keeps what a chain run's chat reads, for the messages sent after the run. */
  keepScope(run: LiveRun, scope: ChatScope): void {
    this.store.setScope(run.id, scope);
  }

  /** The chat's part of a chain run's usage (all of a chat run's). */
  chatUsage(run: LiveRun): Usage {
    const from = run.chatFrom ?? { promptTokens: 0, completionTokens: 0 };
    return { promptTokens: run.usage.promptTokens - from.promptTokens, completionTokens: run.usage.completionTokens - from.completionTokens };
  }

  waiting(run: LiveRun, index: number): Promise<Record<string, unknown>> {
    run.status = "waiting";
    this.store.setStatus(run.id, "waiting", { waitingAt: index });
    return new Promise((resolve, reject) => {
      run.resume = { resolve, reject };
    });
  }

  /** Resumes a run waiting at a form with its values. */
  continue(run: LiveRun, values: Record<string, unknown>): void {
    if (run.status !== "waiting" || !run.resume) throw new HttpError(409, RUN_MESSAGES.notWaiting);
    const resume = run.resume;
    run.resume = null;
    run.status = "running";
    this.store.setStatus(run.id, "running");
    resume.resolve(values);
  }

  /**
   * Ends the run: an `error` event for a failure or a stop, then the closing event (`chain-finish` / `chat-end`) with
   * the status, and the row. The signal is aborted, so a provider request still open is closed now.
   */
  end(run: LiveRun, status: "finished" | "failed" | "cancelled", o: { message?: string; link?: number | null; output?: Record<string, string> | string } = {}): void {
    if (isRunOver(run.status)) return;
    // First, so that a provider request still open is closed before anything else is done.
    if (status !== "finished") run.controller.abort();
    if (status !== "finished") this.emit(run, "error", { link: o.link ?? null, message: o.message ?? RUN_MESSAGES.failed });
    if (run.kind === "chain") {
      // A chain run that failed or was stopped in its chat closes the chat's part first.
      if (run.chatFrom && status !== "finished") this.emit(run, "chat-end", { status, usage: this.chatUsage(run), output: "" });
      this.emit(run, "chain-finish", { status, usage: run.usage, output: typeof o.output === "object" ? o.output : {} });
    } else {
      this.emit(run, "chat-end", { status, usage: run.usage, output: typeof o.output === "string" ? o.output : "" });
    }
    run.status = status;
    // Its last events reach its listeners before they are let go.
    this.flush();
    this.store.setStatus(run.id, status, { error: status === "finished" ? null : (o.message ?? RUN_MESSAGES.failed) });
    if (run.deadline) clearTimeout(run.deadline);
    this.live.delete(run.id);
    run.controller.abort();
    run.resume?.reject(new RunFailure(o.message ?? RUN_MESSAGES.cancelled, "cancelled"));
    run.resume = null;
    run.listeners.clear();
  }

  /** Stop (the owner's, or the duration bound's): cancelled at once, the provider's request aborted. */
  stop(run: LiveRun, message: string = RUN_MESSAGES.cancelled): void {
    this.end(run, "cancelled", { message });
  }

  /** What a reader of run `id` may see: the stored run with the live status. */
  read(id: string): Run | null {
    return this.store.get(id);
  }

  closeAll(message: string): void {
    for (const run of [...this.live.values()]) this.end(run, "failed", { message });
    this.flush();
  }
}
