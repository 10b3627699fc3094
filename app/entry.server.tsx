import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToString } from "react-dom/server";
import { documentParts } from "./lib/scripts-after-paint.server";
import { NonceContext } from "./ui/nonce";

/**
 * The whole page, rendered at once into one string and sent as one body.
 *
 * No route streams (no `defer`, no `Suspense`, no `lazy`), so streaming would bring nothing forward: the first byte
 * leaves when the last element is rendered either way. `renderToString` joins React's chunks as strings; the streaming
 * renderer encodes every chunk into 2 KB byte views instead, a large share of a list page's server CPU, and then the
 * bytes had to be decoded again to move the scripts after the first paint. One body also lets compression run once
 * per response rather than per chunk. The render is synchronous, as the streaming renderer's one task was when
 * nothing suspends.
 *
 * React's own inline scripts are the only ones its `nonce` option covered; with nothing suspending there are none. The
 * page's scripts (Remix's `<Scripts>`, the bootstrap) carry the nonce themselves.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.nonce;
  const markup = renderToString(
    <NonceContext.Provider value={nonce}>
      <RemixServer context={remixContext} url={request.url} nonce={nonce} />
    </NonceContext.Provider>,
  );
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  const body = toBytes([DOCTYPE, ...documentParts(markup)]);
  // allocUnsafe is typed over any ArrayBuffer; its memory is a plain one.
  const response = new Response(body as Uint8Array<ArrayBuffer>, { headers: responseHeaders, status: responseStatusCode });
  // The server writes these bytes as they are instead of reading them back out of the Response (remix-adapter.ts).
  loadContext.renderedDocument = { response, body };
  return response;
}

const DOCTYPE = "<!DOCTYPE html>";

/**
 * The pieces' UTF-8 bytes in one buffer, each written where it goes: joining the strings first would copy the whole
 * page once more (a 50 KB page is a 100 KB UTF-16 string whenever one character is outside Latin-1, like "—").
 */
function toBytes(parts: readonly string[]): Buffer {
  let length = 0;
  for (const part of parts) length += Buffer.byteLength(part);
  const bytes = Buffer.allocUnsafe(length);
  let at = 0;
  for (const part of parts) at += bytes.write(part, at);
  return bytes;
}
