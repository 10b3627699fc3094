import http from "node:http";
import type { AddressInfo } from "node:net";
import compression from "compression";
import express from "express";
import { expect, test } from "vitest";
import { compressionFilter } from "../../server/event-stream";

test("the server's compression leaves an event stream alone, so each event leaves at once; other text is still compressed", async () => {
  const app = express();
  app.use(compression({ filter: compressionFilter }));
  app.get("/events", (_req, res) => {
    res.setHeader("Content-Type", "text/event-stream; charset=utf-8");
    res.flushHeaders();
    res.write("id: 1\nevent: stream\ndata: {}\n\n");
    // The second event only after the first has arrived: a buffered first event would never be read in time.
    setTimeout(() => res.end("id: 2\nevent: chain-finish\ndata: {}\n\n"), 1_000);
  });
  app.get("/text", (_req, res) => res.type("text/plain").send("x".repeat(5_000)));
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const started = Date.now();
    const res = await fetch(`${base}/events`, { headers: { "accept-encoding": "gzip" } });
    expect(res.headers.get("content-encoding")).toBeNull();
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    const first = await reader.read();
    expect(first.value).toContain("id: 1");
    expect(Date.now() - started).toBeLessThan(900);
    await reader.cancel();
    const text = await fetch(`${base}/text`, { headers: { "accept-encoding": "gzip" } });
    expect(text.headers.get("content-encoding")).toBe("gzip");
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});
