/**
 * Server-sent events must reach the browser as they are written (a chain run's tokens, docs/decisions/chain-runs.md):
 * the `compression` middleware would gzip them into its buffer (it counts `text/*` as compressible and flushes only
 * when asked), so an event stream is never compressed. Everything else keeps the middleware's own rule.
 */
import compression from "compression";
import type { Request, Response } from "express";

export const isEventStream = (contentType: unknown) => /^\s*text\/event-stream/i.test(String(contentType ?? ""));

export function compressionFilter(req: Request, res: Response): boolean {
  if (isEventStream(res.getHeader("Content-Type"))) return false;
  return compression.filter(req, res);
}
