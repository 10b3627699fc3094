/**
 * A rendered page's bytes, compressed once as one body: once per response rather than once per chunk.
 *
 * The `compression` middleware streams every response through a zlib stream: a native gzip context set up and torn
 * down, a Transform, a round trip to the thread pool and back, and the listeners between them. For a list page
 * that cost about three times the deflate itself (docs/decisions/page-render-cost.md). A page rendered by
 * app/entry.server.tsx is already one buffer, so it is deflated in one call instead; the middleware then sees the
 * `Content-Encoding` and leaves the answer alone. Everything else (data requests, assets, the API, errors) keeps the
 * middleware's path, with its brotli for browsers that ask.
 *
 * gzip, not brotli, for pages: brotli's quality 4 costs about three times gzip's level 3 for a body a little smaller,
 * and a back office's pages travel a LAN or a proxy that re-encodes anyway.
 *
 * Where the deflate runs: a page's throughput is bounded by the main thread (rendering, loaders, the upstream all run
 * on it), not by the process's total CPU. A body from POOL_FROM_BYTES up is deflated on libuv's thread pool, in one
 * call: handing it over and back costs the main thread ~0.05 ms, the deflate of a 46 KB `/people` ~0.08 ms alone and
 * ~0.2 ms under load, a share of the page's main-thread time worth moving (docs/decisions/page-render-cost.md).
 * Smaller bodies stay on this thread,
 * where their deflate costs less than the hand-over.
 */
import { promisify } from "node:util";
import { gzip, gzipSync } from "node:zlib";
import type { Request as ExpressRequest, Response as ExpressResponse } from "express";

/** Level 3, not zlib's 6: half the CPU for ~5% more bytes on a list page. nginx's own default is 1. */
export const GZIP_LEVEL = 3;
/** Below this, compression saves less than its headers cost (the middleware's own threshold). */
const MIN_COMPRESSED_BYTES = 1024;
/** From this size on, the deflate runs on the thread pool; below it, on the calling thread (see above). */
export const POOL_FROM_BYTES = 16 * 1024;

const gzipAsync = promisify(gzip);

/**
 * The body to send for a rendered page, with its `Content-Encoding`, `Vary` and `Content-Length` set on `res`: gzip
 * when the client accepts it, else the bytes as they are (and the middleware may still choose another encoding).
 */
export async function encodeDocument(req: ExpressRequest, res: ExpressResponse, body: Buffer): Promise<Buffer> {
  if (req.method === "HEAD" || body.byteLength < MIN_COMPRESSED_BYTES || res.getHeader("Content-Encoding")) return body;
  res.vary("Accept-Encoding");
  if (!req.acceptsEncodings("gzip")) return body;
  const encoded =
    body.byteLength < POOL_FROM_BYTES ? gzipSync(body, { level: GZIP_LEVEL }) : await gzipAsync(body, { level: GZIP_LEVEL });
  res.setHeader("Content-Encoding", "gzip");
  res.setHeader("Content-Length", encoded.byteLength);
  return encoded;
}
