/**
 * The runs' HTTP API at /api/v2/nlp (docs/decisions/chain-runs.md): start a chain or a chat run and read its events as
 * server-sent events, read them again from any point, stop and continue a run, resolve a form's variables.
 * Running needs prompts.read (a run changes no chain); a run is seen, stopped and continued by its starter only.
 */
import { Hono, type MiddlewareHandler } from "hono";
import { z } from "zod";
import {
  ChatBody,
  ContinueBody,
  RUN_LIMITS,
  RUN_MESSAGES,
  ResolveBody,
  StreamBody,
  closingEvent,
  isRunOver,
  sseOf,
  type ResolveAnswer,
  type RunEvent,
  type RunWithEvents,
} from "../../contract/chain-runs";
import { HttpError, jsonBody, notFound, requirePermission, validate, type AppContext, type AppEnv } from "../lib/http";
import type { LiveRun } from "./engine";
import type { ChainRuns } from "./service";
import { resolveVariables } from "./resolve";

const After = z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

const encoder = new TextEncoder();

/**
 * The events of run `id` after `after` from the log, then the live ones as they are written, until the run's closing
 * event (a chain run's `chain-finish`, a chat run's `chat-end`: closingEvent); a `ping` (no `id:` line, so a resume point is never a ping) every `pingMs`. A
 * listener that goes away leaves the run going.
 */
export function eventStream(runs: ChainRuns, id: string, after: number, headers: Record<string, string> = {}, pingMs: number = RUN_LIMITS.pingMs): Response {
  let cleanup = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let last = after;
      let closed = false;
      let listening: LiveRun | null = null;
      const closing = closingEvent(runs.store.get(id)?.kind ?? "chain");
      const ping = setInterval(() => {
        if (!closed) controller.enqueue(encoder.encode(`event: ping\ndata: ${JSON.stringify({ id: last, type: "ping", at: new Date().toISOString(), data: {} })}\n\n`));
      }, pingMs);
      ping.unref();
      cleanup = () => {
        clearInterval(ping);
        listening?.listeners.delete(send);
      };
      const close = () => {
        if (closed) return;
        closed = true;
        cleanup();
        controller.close();
      };
      function send(e: RunEvent) {
        if (closed || e.id <= last) return;
        last = e.id;
        controller.enqueue(encoder.encode(sseOf(e)));
        if (e.type === closing) close();
      }
      // One turn of the event loop: every event emitted so far written, the log read, then the listener added, so
      // nothing is missed or sent twice.
      runs.registry.flush();
      const run = runs.registry.get(id);
      for (const e of runs.store.eventsAfter(id, after, RUN_LIMITS.events)) send(e);
      if (closed) return;
      // A run no longer going (ended, or left by an earlier process) has nothing more to say.
      if (!run) return close();
      listening = run;
      run.listeners.add(send);
    },
    cancel() {
      cleanup();
    },
  });
  return new Response(body, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      "x-accel-buffering": "no",
      ...headers,
    },
  });
}

export function chainRunRoutes(deps: { runs: ChainRuns; requireAuth: MiddlewareHandler<AppEnv> }) {
  const { runs, requireAuth } = deps;
  const app = new Hono<AppEnv>();
  const can = [requireAuth, requirePermission("prompts.read")] as const;

  /** The run `id` of the requesting user (another user's is not found: runs carry what their users typed). */
  const ownRun = (c: AppContext) => {
    const run = runs.store.get(c.req.param("id") ?? "");
    if (!run || run.startedBy !== c.get("actor").id) throw notFound(RUN_MESSAGES.notFound);
    return run;
  };

  app.post("/chains/stream", ...can, async (c) => {
    const body = await jsonBody(c, StreamBody);
    const run = runs.startChain(c.get("actor"), body);
    return eventStream(runs, run.id, 0, { "x-run-id": run.id });
  });

  app.post("/chat", ...can, async (c) => {
    const body = await jsonBody(c, ChatBody);
    // Spec 3 §5: an empty chat message is ignored.
    if (!body.message.trim()) return c.body(null, 204);
    const run = runs.startChat(c.get("actor"), body);
    return eventStream(runs, run.id, 0, { "x-run-id": run.id });
  });

  app.get("/chains/runs/:id/events", ...can, (c) => {
    const run = ownRun(c);
    const raw = c.req.header("last-event-id") ?? c.req.query("after") ?? "0";
    return eventStream(runs, run.id, validate(After, raw));
  });

  app.get("/chains/runs/:id", ...can, (c) => {
    runs.registry.flush();
    const run = ownRun(c);
    return c.json({ ...run, events: runs.store.eventsAfter(run.id, 0, RUN_LIMITS.events), conversation: runs.conversation(run) } satisfies RunWithEvents);
  });

  app.post("/chains/runs/:id/stop", ...can, (c) => {
    const run = ownRun(c);
    const live = runs.registry.get(run.id);
    if (!live || isRunOver(run.status)) throw new HttpError(409, RUN_MESSAGES.finished);
    runs.registry.stop(live);
    return c.json(runs.store.get(run.id));
  });

  app.post("/chains/runs/:id/continue", ...can, async (c) => {
    const run = ownRun(c);
    const body = await jsonBody(c, ContinueBody);
    const live = runs.registry.get(run.id);
    if (!live) throw new HttpError(409, RUN_MESSAGES.finished);
    runs.registry.continue(live, body.values);
    return c.json(runs.store.get(run.id));
  });

  app.post("/chains/variables/resolve", ...can, async (c) => {
    const body = await jsonBody(c, ResolveBody);
    const variables = resolveVariables(body.variables, body.context, {});
    return c.json({ variables: variables.map(({ name, type, value }) => ({ name, type, value })) } satisfies ResolveAnswer);
  });

  return app;
}
