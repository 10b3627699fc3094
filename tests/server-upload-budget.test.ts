import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UPLOADS_BUSY } from "../server/guard";
import { startProductionServer, waitUntilUp, type RunningServer } from "./helpers/server";

/**
 * The uploads held at once (server/guard.ts, server/byte-budget.ts) against the real process, with a budget of
 * 25 MB and a wait of 2 s: a second 20 MB upload waits, not reading its body, and gets 503 when the first does not
 * finish in time, or goes through as soon as the first is gone; small forms never wait; the API's uploads share the
 * same room.
 */
const PORT = 4600 + Math.floor(Math.random() * 300);
const base = `http://127.0.0.1:${PORT}`;
const MB = 1024 * 1024;
const WAIT_MS = 2_000;
const UPLOAD = "/documents/word/create";

let server: RunningServer;
let dataDir: string;

/** An upload that declares `declared` bytes and sends `send` of them, then holds the connection open. */
async function upload(declared: number, send: number, url = UPLOAD) {
  const socket = net.connect({ port: PORT, host: "127.0.0.1" });
  let answer = "";
  socket.on("data", (d: Buffer) => (answer += d.toString()));
  socket.on("error", () => {});
  const started = performance.now();
  const answered = new Promise<{ status: number; head: string; body: string; ms: number }>((resolve) => {
    const check = () => {
      const [head = "", body = ""] = answer.split("\r\n\r\n");
      const length = /content-length: (\d+)/i.exec(head);
      if (length && Buffer.byteLength(body) >= Number(length[1])) {
        socket.off("data", check);
        resolve({ status: Number(head.split(" ")[1]), head, body, ms: performance.now() - started });
      }
    };
    socket.on("data", check);
  });
  await new Promise((resolve) => socket.once("connect", resolve));
  socket.write(
    `POST ${url} HTTP/1.1\r\nHost: 127.0.0.1:${PORT}\r\nOrigin: ${base}\r\nAccept: text/html\r\n` +
      `Content-Type: multipart/form-data; boundary=x\r\nContent-Length: ${declared}\r\n\r\n`,
  );
  const chunk = Buffer.alloc(64 * 1024, "a");
  const sending = (async () => {
    for (let sent = 0; sent < send && !socket.destroyed; sent += chunk.length) {
      if (!socket.write(chunk.subarray(0, Math.min(chunk.length, send - sent)))) {
        await new Promise((resolve) => (socket.once("drain", resolve), socket.once("close", resolve)));
      }
    }
  })();
  return { socket, answered, sending };
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "backoffice-budget-"));
  server = startProductionServer(PORT, dataDir, { email: "admin@budget.test", password: "budget-password" }, {
    UPLOAD_BUDGET_MB: "25",
    UPLOAD_WAIT_SECONDS: String(WAIT_MS / 1000),
    PORTFOLIO_DEMO: "0",
  });
  await waitUntilUp(base, server, 30_000);
});

afterAll(() => {
  server.child.kill("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

describe("uploads held at once", () => {
  it("a second large upload waits its turn and gets 503 when it does not come; small forms pass meanwhile", async () => {
    const first = await upload(20 * MB, 1 * MB);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const second = await upload(20 * MB, 0);
    // A small form is not held back by the uploads (it answers, here the sign-in page's redirect or refusal).
    const small = await fetch(`${base}/login`, { method: "POST", headers: { Origin: base }, body: new URLSearchParams({ email: "x@y.z", password: "nope" }), redirect: "manual" });
    expect(small.status).not.toBe(503);
    const busy = await second.answered;
    expect(busy.status).toBe(503);
    expect(busy.ms).toBeGreaterThan(WAIT_MS - 100);
    expect(busy.head).toMatch(/retry-after: 2/i);
    expect(busy.head).toMatch(/connection: close/i);
    expect(busy.body).toContain(UPLOADS_BUSY);
    second.socket.destroy();
    first.socket.destroy();
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
  });

  it("a waiting upload goes through as soon as the one before it is gone", async () => {
    const first = await upload(20 * MB, 1 * MB);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const second = await upload(20 * MB, 20 * MB);
    await new Promise((resolve) => setTimeout(resolve, 300));
    first.socket.destroy();
    // Its body is read once the room is free, then judged as any body: this one is not a well-formed form.
    const answer = await second.answered;
    expect(answer.status).toBe(400);
    expect(answer.ms).toBeGreaterThan(250);
    expect(answer.ms).toBeLessThan(WAIT_MS + 1_000);
    second.socket.destroy();
  });

  it("the API's uploads take their room from the same budget, refused as the API refuses (JSON)", async () => {
    const page = await upload(20 * MB, 1 * MB);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const api = await upload(20 * MB, 0, "/api/template-storage/import");
    const busy = await api.answered;
    expect(busy.status).toBe(503);
    expect(busy.head).toMatch(/content-type: application\/json/i);
    expect(JSON.parse(busy.body)).toEqual({ message: UPLOADS_BUSY });
    api.socket.destroy();
    page.socket.destroy();
  });
});
