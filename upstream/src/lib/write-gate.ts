import type { MiddlewareHandler } from "hono";
import type { DatabaseHealth } from "./health";
import { HttpError, isStorageFull, type AppEnv } from "./http";

/** Requests that change nothing: the gate lets them read the database the server still has open. */
const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * A write is acknowledged only when it is durable in the database `/healthz` vouches for. Installed before every
 * route, so each domain (and the back office, whose writes come through here in-process) inherits it:
 * - before a write (any request but GET/HEAD/OPTIONS): the database file (and its WAL) must still be the one opened,
 *   else 503 telling the operator to restart; nothing is done. SQLite would go on writing to the unlinked inode, and
 *   every write acknowledged from then on would be gone after a restart;
 * - after it, before a success is acknowledged: the same check again (the file may have gone while the write ran);
 *   a success turns into that 503. The write went to the lost file only, so "not saved" is the truth;
 * - a request that failed for lack of space (SQLITE_FULL, ENOSPC) is reported by `/healthz` while it lasts
 *   (lib/health.ts), and a later successful write clears it. The answer itself (507) is lib/http.ts's errorResponse.
 * The check is two `stat` calls (a few microseconds), so it runs on every write rather than from a watcher.
 */
export function writeGate(health: DatabaseHealth): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const writes = !SAFE.has(c.req.method);
    if (writes) {
      const refusal = health.writeRefusal();
      if (refusal) throw new HttpError(503, refusal);
    }
    await next();
    if (c.error && isStorageFull(c.error)) health.storageFull();
    if (!writes || c.res.status >= 400) return;
    const refusal = health.writeRefusal();
    if (refusal) {
      void c.res.body?.cancel().catch(() => undefined);
      // None of the success's headers (a Location, a download's name) may go out with the 503: unset the response
      // first (assigning over it would copy them), and drop those the handler set on the context.
      c.res = undefined;
      const answer = c.json({ message: refusal }, 503);
      for (const name of [...answer.headers.keys()]) if (name !== "content-type") answer.headers.delete(name);
      c.res = answer;
      return;
    }
    health.wrote();
  };
}
