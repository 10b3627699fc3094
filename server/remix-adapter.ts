/**
 * Express → Remix, like @remix-run/express (same URL, headers, abort signal, Set-Cookie, streamed response), except
 * that a body the form guard (server/guard.ts) has already read and checked is handed over from memory, and a
 * rendered document's bytes are written as they are.
 */
import {
  createReadableStreamFromReadable,
  createRequestHandler as createRemixRequestHandler,
  writeReadableStreamToWritable,
  type AppLoadContext,
  type ServerBuild,
} from "@remix-run/node";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import { encodeDocument } from "./document-encoding";
import { guardedBody } from "./guard";

/**
 * This request's origin as Remix sees it: protocol and hostname honour "trust proxy"; the port comes from
 * X-Forwarded-Host, else Host. Throws on a Host that is not a host.
 */
export function requestOrigin(req: ExpressRequest): string {
  const port = portOf(req.get("X-Forwarded-Host")) ?? portOf(req.get("host"));
  return new URL(`${req.protocol}://${req.hostname}${port ? `:${port}` : ""}`).origin;
}

function portOf(host: string | undefined): number | undefined {
  const n = Number.parseInt(host?.split(":")[1] ?? "", 10);
  return Number.isSafeInteger(n) ? n : undefined;
}

function remixHeaders(req: ExpressRequest): Headers {
  const headers = new Headers();
  for (const [key, values] of Object.entries(req.headers)) {
    if (!values) continue;
    if (Array.isArray(values)) for (const value of values) headers.append(key, value);
    else headers.set(key, values);
  }
  return headers;
}

export function createRequestHandler({
  build,
  mode,
  getLoadContext,
}: {
  build: ServerBuild | (() => Promise<ServerBuild>);
  mode?: string;
  getLoadContext?: (req: ExpressRequest, res: ExpressResponse) => AppLoadContext | Promise<AppLoadContext>;
}) {
  const handleRequest = createRemixRequestHandler(build, mode);
  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    try {
      let url: URL;
      try {
        url = new URL(`${requestOrigin(req)}${req.originalUrl}`);
      } catch {
        res.status(400).type("text/plain").send("Bad request: the Host header or the URL cannot be read.");
        return;
      }
      let controller: AbortController | null = new AbortController();
      const init: RequestInit & { duplex?: "half" } = {
        method: req.method,
        headers: remixHeaders(req),
        signal: controller.signal,
      };
      if (req.method !== "GET" && req.method !== "HEAD") {
        const guarded = guardedBody(res);
        if (guarded) {
          const headers = init.headers as Headers;
          headers.set("content-type", guarded.contentType);
          headers.set("content-length", String(guarded.body.byteLength));
          headers.delete("transfer-encoding");
          // The guard has judged the origin (against PUBLIC_URL or this request's origin, with TRUST_PROXY). Remix's
          // own check compares Origin with X-Forwarded-Host/Host and throws (a 500) when a proxy or PUBLIC_URL makes
          // them differ: it gets nothing to compare. No route reads Origin.
          headers.delete("origin");
          init.body = guarded.body as Uint8Array<ArrayBuffer>;
        } else {
          init.body = createReadableStreamFromReadable(req);
          init.duplex = "half";
        }
      }
      // Abort loaders and actions once the response can no longer be written (`close` without `finish`).
      res.on("finish", () => (controller = null));
      res.on("close", () => controller?.abort());
      const request = new Request(url.href, init);
      const loadContext = await getLoadContext?.(req, res);
      const response = await handleRequest(request, loadContext);
      await sendRemixResponse(req, res, response, loadContext?.renderedDocument);
    } catch (error) {
      next(error);
    }
  };
}

/**
 * Sends Remix's answer. A document rendered by app/entry.server.tsx comes with its bytes: they are compressed once
 * (document-encoding.ts) and written at once rather than read back out of the Response's stream chunk by chunk
 * (reading it back showed in a page's server profile, and a compression stream costs more again).
 */
async function sendRemixResponse(
  req: ExpressRequest,
  res: ExpressResponse,
  response: Response,
  rendered: AppLoadContext["renderedDocument"],
): Promise<void> {
  // A rendered document has no status text of its own; asking would make a lightweight Response build its body.
  if (rendered?.response !== response) res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [key, value] of response.headers.entries()) {
    if (key !== "set-cookie") res.append(key, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length) res.append("Set-Cookie", cookies);
  if (/text\/event-stream/i.test(response.headers.get("Content-Type") ?? "")) res.flushHeaders();
  if (rendered?.response === response) res.end(await encodeDocument(req, res, rendered.body));
  else if (response.body) await writeReadableStreamToWritable(response.body, res);
  else res.end();
}
