/**
 * How the server closes a connection whose answer goes out before its body has been read (a 413, a refusal judged
 * from the headers, an upload with no room): nginx's lingering close, so that the client gets the answer and the
 * rest of the body costs a bounded time and size.
 */
import type { Request as ExpressRequest, Response as ExpressResponse } from "express";

const MB = 1024 * 1024;

/**
 * After a 413, what the rest of the body may still cost before the connection is closed (nginx's lingering close:
 * `lingering_timeout` 5 s between reads, `lingering_time` 30 s in all): a slow or busy client gets its answer, and
 * no connection costs more than `bytes` read and dropped or `totalMs`.
 */
const LINGER = { idleMs: 5_000, totalMs: 30_000, bytes: 16 * MB } as const;

/** Before an answer to a body not read (or still coming): the lingering close above. */
export function closeAfterAnswer(req: ExpressRequest, res: ExpressResponse) {
  if (!req.readableEnded) lingerAfterAnswer(req);
  res.setHeader("Connection", "close");
}

/**
 * For a handler that may answer before it has read the whole body: the embedded upstream answers 413 as soon as a
 * chunked body passes its limit, and 401 or 403 before reading a body at all. When the answer's head goes out while
 * the body is still coming (`req.complete` false), the close is the lingering one above, as for the pages' 413. The
 * handler has given up on the body by then, so its reader's `data` listener goes (the upstream's web-stream adapter
 * would keep each chunk and pause the socket after it, stalling the drain). A body already received in full is left
 * to Node, which drops it and keeps the connection.
 */
export function lingerIfAnsweredEarly(req: ExpressRequest, res: ExpressResponse): void {
  if (req.method === "GET" || req.method === "HEAD") return;
  const writeHead = res.writeHead;
  res.writeHead = function (this: ExpressResponse, ...args: Parameters<typeof writeHead>) {
    res.writeHead = writeHead;
    if (!req.complete) {
      req.removeAllListeners("data");
      closeAfterAnswer(req, res);
    }
    return writeHead.apply(this, args);
  } as typeof writeHead;
}

/**
 * From now on what `req` still sends is dropped and counted (a listener now, so that Node's server does not discard
 * it uncounted once the answer is sent); `socket.destroySoon()` half-closes, reads within LINGER, then destroys.
 */
function lingerAfterAnswer(req: ExpressRequest) {
  const socket = req.socket;
  let dropped = 0;
  let idle: NodeJS.Timeout | undefined;
  let total: NodeJS.Timeout | undefined;
  const close = () => {
    clearTimeout(idle);
    clearTimeout(total);
    req.off("data", onData).off("end", close);
    // Destroying drops what is not yet written: the answer goes out first.
    if (socket.writableFinished) socket.destroy();
    else socket.once("finish", () => socket.destroy());
  };
  const onData = (chunk: Buffer) => {
    dropped += chunk.byteLength;
    if (dropped > LINGER.bytes) close();
    else idle?.refresh();
  };
  req.on("data", onData);
  socket.once("close", () => {
    clearTimeout(idle);
    clearTimeout(total);
  });
  socket.destroySoon = () => {
    socket.end();
    if (req.readableEnded) return close();
    idle = setTimeout(close, LINGER.idleMs).unref();
    total = setTimeout(close, LINGER.totalMs).unref();
    req.once("end", close);
    req.resume();
  };
}
