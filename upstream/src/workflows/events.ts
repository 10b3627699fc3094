/**
 * Queuing an event for the docket engine: the event row (its id is the idempotency key) and its job on the job queue
 * (queue "workflows", job id = event id), written in the caller's transaction when there is one: a portfolio write and
 * its event commit together or not at all. The engine's worker processes it (engine.ts), never the request.
 */
import crypto from "node:crypto";
import type { Db } from "../db";
import { prepared } from "../lib/collection";
import { SqliteJobQueue } from "../queue/sqlite-queue";

export const WORKFLOW_QUEUE = "workflows";

export type QueuedEvent = {
  /** The idempotency key; a random one when absent. */
  id?: string;
  code: string;
  reference: string;
  clientCode?: string | null;
  /** Who emitted it: "api", "portfolio", "email", "workflow-form", "workflow". */
  source: string;
  data: Record<string, unknown>;
  depth?: number;
  actor?: string | null;
};

const queues = new WeakMap<Db, SqliteJobQueue>();
const pokes = new WeakMap<Db, () => void>();

/** The engine's worker of this database, told at once when an event is queued in this process. */
export function onWorkflowEvent(db: Db, poke: (() => void) | null): void {
  if (poke) pokes.set(db, poke);
  else pokes.delete(db);
}

/**
 * Queues an event: `{ id, created }`, `created` false when an event with this id exists (it is not queued again).
 * Call inside the transaction of the write that causes it.
 */
export function queueWorkflowEvent(db: Db, event: QueuedEvent, now: () => number): { id: string; created: boolean } {
  const id = event.id ?? crypto.randomUUID();
  const at = new Date(now()).toISOString();
  const info = prepared(
    db,
    `insert into workflow_events (id, code, reference, client_code, source, data, depth, status, created_at, created_by)
     values (?, ?, ?, ?, ?, ?, ?, 'queued', ?, ?) on conflict (id) do nothing`,
  ).run(id, event.code, event.reference, event.clientCode ?? null, event.source, JSON.stringify(event.data), event.depth ?? 0, at, event.actor ?? null);
  if (info.changes === 0) return { id, created: false };
  let queue = queues.get(db);
  if (!queue) queues.set(db, (queue = new SqliteJobQueue(db, now)));
  queue.enqueue(WORKFLOW_QUEUE, [{ id, maxAttempts: 5 }]);
  const poke = pokes.get(db);
  if (poke) setImmediate(poke);
  return { id, created: true };
}
