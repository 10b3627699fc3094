/**
 * The runs and their event logs in SQLite (schema.ts). An event is written before any listener hears of it, so a
 * reader that reconnects with the last id it saw gets exactly the rest from here.
 */
import crypto from "node:crypto";
import type { ChainChat } from "../../contract/chains";
import type { ConversationItem, Run, RunContext, RunEvent, RunEventType, RunStatus, Usage } from "../../contract/chain-runs";
import type { Db } from "../db";

type RunRow = {
  id: string;
  kind: "chain" | "chat";
  chain_id: string | null;
  started_by: string;
  status: RunStatus;
  started_at: string;
  ended_at: string | null;
  prompt_tokens: number;
  completion_tokens: number;
  waiting_at: number | null;
  error: string | null;
  parent_id: string | null;
  has_scope: 0 | 1;
};
type EventRow = { seq: number; type: RunEventType; at: string; data: string };

const runOf = (r: RunRow): Run => ({
  id: r.id,
  kind: r.kind,
  chainId: r.chain_id,
  status: r.status,
  startedBy: r.started_by,
  startedAt: r.started_at,
  endedAt: r.ended_at,
  usage: { promptTokens: r.prompt_tokens, completionTokens: r.completion_tokens },
  waitingAt: r.waiting_at,
  error: r.error,
  parentId: r.parent_id,
  chat: r.has_scope === 1,
});

/** What a chain run's chat reads, kept for the messages sent after it (migration 111). */
export type ChatScope = { chat: ChainChat; context: RunContext; variables: Record<string, unknown>; organizations: string[] };

export const eventOf = (r: EventRow): RunEvent => ({ id: r.seq, type: r.type, at: r.at, data: JSON.parse(r.data) as never }) as RunEvent;

export class RunsStore {
  private readonly q;
  private readonly expireOne: (before: string, events: number) => boolean;
  private readonly writeAll: (events: readonly { runId: string; event: RunEvent }[]) => void;

  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {
    this.q = {
      insert: db.prepare(
        "insert into chain_runs (id, kind, chain_id, started_by, status, started_at, parent_id) values (@id, @kind, @chainId, @startedBy, 'running', @at, @parentId)",
      ),
      // Not the scope itself (up to a run's outputs and context): whether there is one.
      get: db.prepare(
        "select id, kind, chain_id, started_by, status, started_at, ended_at, prompt_tokens, completion_tokens, waiting_at, error, parent_id, scope is not null as has_scope from chain_runs where id = ?",
      ),
      setScope: db.prepare("update chain_runs set scope = ? where id = ?"),
      scope: db.prepare("select scope from chain_runs where id = ?"),
      // The latest follow-ups of a chain run, newest first (the caller turns them round).
      children: db.prepare("select id, status from chain_runs where parent_id = ? order by started_at desc, rowid desc limit ?"),
      first: db.prepare("select seq, type, at, data from chain_run_events where run_id = ? order by seq limit 1"),
      lastTwo: db.prepare("select seq, type, at, data from chain_run_events where run_id = ? order by seq desc limit 2"),
      status: db.prepare("update chain_runs set status = @status, waiting_at = @waitingAt, error = coalesce(@error, error), ended_at = @endedAt where id = @id"),
      usage: db.prepare("update chain_runs set prompt_tokens = @promptTokens, completion_tokens = @completionTokens where id = @id"),
      append: db.prepare("insert into chain_run_events (run_id, seq, type, at, data) values (?, ?, ?, ?, ?)"),
      after: db.prepare("select seq, type, at, data from chain_run_events where run_id = ? and seq > ? order by seq limit ?"),
      expired: db.prepare("select id from chain_runs where ended_at is not null and ended_at < ? order by ended_at limit 1"),
      firstSeq: db.prepare("select min(seq) as seq from chain_run_events where run_id = ?"),
      dropEvents: db.prepare("delete from chain_run_events where run_id = ? and seq < ?"),
      dropRun: db.prepare("delete from chain_runs where id = ?"),
      orphans: db.prepare(
        "update chain_runs set status = 'failed', error = @error, ended_at = @at, waiting_at = null where status in ('running', 'waiting')",
      ),
    };
    this.expireOne = db.transaction((before: string, events: number): boolean => {
      const run = this.q.expired.get(before) as { id: string } | undefined;
      if (!run) return false;
      // Events first, a slice of the log by its key: a run's log may hold RUN_LIMITS.events rows, more than a step.
      const first = (this.q.firstSeq.get(run.id) as { seq: number | null }).seq;
      if (first === null) this.q.dropRun.run(run.id);
      else this.q.dropEvents.run(run.id, first + events);
      return true;
    });
    this.writeAll = db.transaction((events: readonly { runId: string; event: RunEvent }[]) => {
      for (const { runId, event } of events) this.q.append.run(runId, event.id, event.type, event.at, JSON.stringify(event.data));
    });
  }

  private iso = () => new Date(this.now()).toISOString();

  create(kind: "chain" | "chat", chainId: string | null, startedBy: string, parentId: string | null = null): Run {
    const id = crypto.randomUUID();
    this.q.insert.run({ id, kind, chainId, startedBy, at: this.iso(), parentId });
    return this.get(id)!;
  }

  get(id: string): Run | null {
    const row = this.q.get.get(id) as RunRow | undefined;
    return row ? runOf(row) : null;
  }

  setStatus(id: string, status: RunStatus, o: { waitingAt?: number | null; error?: string | null } = {}): void {
    const over = status === "finished" || status === "failed" || status === "cancelled";
    this.q.status.run({ id, status, waitingAt: o.waitingAt ?? null, error: o.error ?? null, endedAt: over ? this.iso() : null });
  }

  setUsage(id: string, usage: Usage): void {
    this.q.usage.run({ id, ...usage });
  }

  setScope(id: string, scope: ChatScope): void {
    this.q.setScope.run(JSON.stringify(scope), id);
  }

  scopeOf(id: string): ChatScope | null {
    const row = this.q.scope.get(id) as { scope: string | null } | undefined;
    return row?.scope ? (JSON.parse(row.scope) as ChatScope) : null;
  }

  /**
   * Chain run `id`'s conversation with its chat, oldest first: its chat's answer, then the latest `max` follow-ups'
   * messages (the first event of each, `chat-start`) and answers (the last, `chat-end`, when it finished) — index and
   * key lookups only, never a scan of a log. Each text at most `chars` long (what a chat message may be).
   */
  conversation(id: string, max: number, chars: number): ConversationItem[] {
    const out: ConversationItem[] = [];
    const answer = (runId: string) => {
      const end = (this.q.lastTwo.all(runId) as EventRow[]).map(eventOf).find((e) => e.type === "chat-end");
      if (end?.type === "chat-end" && end.data.status === "finished") out.push({ author: "assistant", text: end.data.output.slice(0, chars), runId });
    };
    answer(id);
    const children = (this.q.children.all(id, max) as { id: string; status: RunStatus }[]).reverse();
    for (const child of children) {
      const row = this.q.first.get(child.id) as EventRow | undefined;
      const start = row ? eventOf(row) : null;
      if (start?.type !== "chat-start" || start.data.message === undefined) continue;
      out.push({ author: "CURRENT_USER", text: start.data.message.slice(0, chars), runId: child.id });
      answer(child.id);
    }
    return out;
  }

  /** Event `seq` of run `id` as readers get it (not written yet: `write` does). */
  event<T extends RunEventType>(seq: number, type: T, data: unknown): RunEvent {
    // The caller's value itself: events are plain JSON data, written once and never changed after.
    return { id: seq, type, at: this.iso(), data: data as never } as RunEvent;
  }

  /** Writes events of runs in one transaction (one commit for many tokens' events). */
  write(events: readonly { runId: string; event: RunEvent }[]): void {
    this.writeAll(events);
  }

  /** The events after `seq`, in order (at most `limit`). */
  eventsAfter(id: string, seq: number, limit = 100_000): RunEvent[] {
    return (this.q.after.all(id, seq, limit) as EventRow[]).map(eventOf);
  }

  /**
   * One step of the retention sweep (RUN_RETENTION): of the run that ended first more than `keepMs` ago, up to
   * `events` of its events, or the run itself once its log is empty. Answers whether there was such a run.
   */
  expireStep(keepMs: number, events: number): boolean {
    return this.expireOne(new Date(this.now() - keepMs).toISOString(), events);
  }

  /** Runs a previous process left going cannot go on (their provider requests died with it). */
  failOrphans(message: string): number {
    return this.q.orphans.run({ error: message, at: this.iso() }).changes;
  }
}
