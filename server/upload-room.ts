/**
 * The upload bytes the whole server holds at once (server/byte-budget.ts): a large page or API body reserves its
 * size before it is read, waits its turn, and is refused with 503 when its turn does not come in time. Also the
 * API's guard of its uploads, in front of the embedded upstream's own limits.
 */
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import { API_BODY_LIMIT, API_UPLOAD_LIMITS } from "../upstream/src/lib/body-limit";
import { ByteBudget } from "./byte-budget";
import { closeAfterAnswer } from "./linger";

export const UPLOADS_BUSY = "The server is receiving other large uploads. Try again in a minute.";

/**
 * One budget for the whole server: the pages' uploads and the API's (`createFormGuard`, `createApiUploadGuard`), of
 * UPLOAD_BUDGET_MB, each upload waiting at most UPLOAD_WAIT_SECONDS (app/lib/config.server.ts, their defaults).
 */
export type UploadRoom = { budget: ByteBudget; waitMs: number };

export function uploadRoom(settings: { bytes: number; waitMs: number }): UploadRoom {
  return { budget: new ByteBudget(settings.bytes), waitMs: settings.waitMs };
}

/**
 * Reserves `bytes` of the room before a body is read, given back when the answer has gone. False when the request
 * is over: the client left while waiting, or its turn did not come (then `busy` answered, with `Retry-After`).
 */
export async function holdRoom(req: ExpressRequest, res: ExpressResponse, room: UploadRoom, bytes: number, busy: () => void): Promise<boolean> {
  const gone = new AbortController();
  res.once("close", () => gone.abort());
  const release = await room.budget.acquire(bytes, room.waitMs, gone.signal);
  if (gone.signal.aborted) {
    release?.();
    return false;
  }
  if (!release) {
    closeAfterAnswer(req, res);
    res.setHeader("Retry-After", String(Math.ceil(room.waitMs / 1000)));
    busy();
    return false;
  }
  res.once("close", release);
  return true;
}

/** Whether a body may pass `small` bytes: declared so, or not declared at all (chunked). */
export const mayBeLarge = (req: ExpressRequest, small: number) =>
  req.headers["content-length"] === undefined ? req.headers["transfer-encoding"] !== undefined : Number(req.headers["content-length"]) > small;

/**
 * The API's uploads (`/api`, bearer tokens: the embedded upstream's own limits apply after) take their room from the
 * same budget as the pages': a body past API_BODY_LIMIT reserves its declared size, or its route's limit when
 * undeclared (one declared past that limit is the upstream's to refuse, unread, without room). Before that, `uploadRefusal` (the upstream's: Upstream.uploadRefusal) judges the token and the
 * permission from the headers; its refusal (401, 403) is sent as it is, the body never read nor given room. The
 * budget's refusal is the API's too: JSON `{ message }`.
 */
export function createApiUploadGuard(room: UploadRoom, uploadRefusal?: (request: Request) => Promise<Response | null>) {
  return (req: ExpressRequest, res: ExpressResponse, next: NextFunction): void => {
    if (req.method === "GET" || req.method === "HEAD" || !mayBeLarge(req, API_BODY_LIMIT)) return next();
    const declared = Number(req.headers["content-length"] ?? 0);
    const limit = API_UPLOAD_LIMITS.find((u) => u.path.test(req.path))?.bytes ?? API_BODY_LIMIT;
    // Declared past its limit: the upstream answers 413 before reading anything, and needs no room for that.
    if (declared > limit) return next();
    const bytes = declared || limit;
    const guarded = async () => {
      const refusal = await uploadRefusal?.(headersOnly(req));
      if (refusal) {
        closeAfterAnswer(req, res);
        res.status(refusal.status);
        refusal.headers.forEach((value, name) => res.setHeader(name, value));
        res.send(Buffer.from(await refusal.arrayBuffer()));
        return;
      }
      if (await holdRoom(req, res, room, bytes, () => res.status(503).json({ message: UPLOADS_BUSY }))) next();
    };
    guarded().catch(next);
  };
}

/** What the upstream judges an upload by before its body: the method, the path and query, the bearer token. */
function headersOnly(req: ExpressRequest): Request {
  const authorization = req.headers.authorization;
  return new Request(new URL(req.originalUrl, "http://upstream.invalid"), {
    method: req.method,
    headers: authorization ? { authorization } : {},
  });
}
