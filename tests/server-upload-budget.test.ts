import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UPLOADS_BUSY } from "../server/guard";
import { signInCookie, startProductionServer, waitUntilUp, type RunningServer } from "./helpers/server";

/**
 * The uploads held at once (server/guard.ts, server/byte-budget.ts) against the real process, with a budget of
 * 25 MB and a wait of 2 s: a second 20 MB upload waits, not reading its body, and gets 503 when the first does not
 * finish in time, or goes through as soon as the first is gone; small forms never wait; the API's uploads share the
 * same room. An upload its route would refuse (signed out, no permission, no bearer token) is answered from its
 * headers, before its body is sent, without waiting for room.
 */
const PORT = 4600 + Math.floor(Math.random() * 300);
const base = `http://127.0.0.1:${PORT}`;
const MB = 1024 * 1024;
const WAIT_MS = 2_000;
const UPLOAD = "/documents/word/create";

const ADMIN = { email: "admin@budget.test", password: "budget-password" };

let server: RunningServer;
let dataDir: string;
/** The administrator's: the session cookie (pages) and a bearer token (API). */
let admin: Record<string, string> = {};
let adminToken = "";

/**
 * An upload that declares `declared` bytes and sends `send` of them, then holds the connection open; the
 * administrator's unless `headers` say otherwise. `head` resolves as soon as an answer's head has come.
 */
async function upload(declared: number, send: number, url = UPLOAD, headers: Record<string, string> = url.startsWith("/api/") ? { Authorization: `Bearer ${adminToken}` } : admin) {
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
  const head = new Promise<{ status: number; head: string; ms: number }>((resolve) => {
    const check = () => {
      const end = answer.indexOf("\r\n\r\n");
      if (end === -1) return;
      socket.off("data", check);
      resolve({ status: Number(answer.split(" ")[1]), head: answer.slice(0, end), ms: performance.now() - started });
    };
    socket.on("data", check);
  });
  await new Promise((resolve) => socket.once("connect", resolve));
  const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join("");
  socket.write(
    `POST ${url} HTTP/1.1\r\nHost: 127.0.0.1:${PORT}\r\nOrigin: ${base}\r\nAccept: text/html\r\n${extra}` +
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
  return { socket, answered, head, sending };
}

/** A user holding `permissions` only, signed in: their cookie header and bearer token. */
async function member(email: string, permissions: string[]) {
  const call = (method: string, url: string, body: unknown, token = adminToken) =>
    fetch(`${base}${url}`, { method, headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
  const password = "member-password";
  const created = await call("POST", "/api/auth/users", { firstName: "M", lastName: "M", email, password });
  const { id } = (await created.json()) as { id: string };
  expect((await call("PATCH", `/api/auth/users/${id}`, { id, permissions })).status).toBe(200);
  const login = await fetch(`${base}/api/auth/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ email, password }) });
  const { token } = (await login.json()) as { token: string };
  return { cookie: { Cookie: await signInCookie(base, email, password) }, bearer: { Authorization: `Bearer ${token}` } };
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "backoffice-budget-"));
  server = startProductionServer(PORT, dataDir, ADMIN, {
    UPLOAD_BUDGET_MB: "25",
    UPLOAD_WAIT_SECONDS: String(WAIT_MS / 1000),
    PORTFOLIO_DEMO: "0",
  });
  await waitUntilUp(base, server, 30_000);
  admin = { Cookie: await signInCookie(base, ADMIN.email, ADMIN.password) };
  const login = await fetch(`${base}/api/auth/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(ADMIN) });
  adminToken = ((await login.json()) as { token: string }).token;
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

describe("uploads judged from their headers before their body", () => {
  // Each case holds the whole budget with an administrator's upload first: an upload that waited for room would get
  // its answer only after WAIT_MS (503); one judged from its headers answers at once, its body still unsent.
  const prompt = WAIT_MS / 2;

  it("a page upload from someone signed out gets the sign-in redirect before its body is sent", async () => {
    const first = await upload(20 * MB, 1 * MB);
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const url of ["/administration/template-storage", "/portfolio/import", UPLOAD]) {
      const stranger = await upload(20 * MB, 1 * MB, url, {});
      const answer = await stranger.head;
      expect(answer.status, url).toBe(302);
      expect(answer.head.toLowerCase()).toContain(`location: /login?redirectto=${encodeURIComponent(url).toLowerCase()}`);
      expect(answer.head).toMatch(/connection: close/i);
      expect(answer.ms, url).toBeLessThan(prompt);
      stranger.socket.destroy();
    }
    first.socket.destroy();
  });

  it("a page upload from someone without the route's permission gets the not-found answer before its body is sent", async () => {
    const reader = await member("reader@budget.test", ["administration.read", "templates.read"]);
    const first = await upload(20 * MB, 1 * MB);
    await new Promise((resolve) => setTimeout(resolve, 200));
    // administration.read shows the backup page, but importing needs `administration` (requireWrite).
    for (const url of ["/administration/template-storage", UPLOAD, "/portfolio/import"]) {
      const refused = await upload(20 * MB, 1 * MB, url, reader.cookie);
      const answer = await refused.head;
      expect(answer.status, url).toBe(404);
      expect(answer.ms, url).toBeLessThan(prompt);
      refused.socket.destroy();
    }
    first.socket.destroy();
  });

  it("an API upload without a valid token, or without the permission, is refused (401, 403) before it waits for room", async () => {
    const reader = await member("api-reader@budget.test", ["administration.read"]);
    const first = await upload(20 * MB, 1 * MB);
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const [headers, status] of [
      [{}, 401],
      [{ Authorization: "Bearer not-a-token" }, 401],
      [reader.bearer, 403],
    ] as const) {
      const refused = await upload(20 * MB, 1 * MB, "/api/template-storage/import", headers);
      const answer = await refused.answered;
      expect(answer.status).toBe(status);
      expect(answer.head).toMatch(/content-type: application\/json/i);
      expect(answer.ms).toBeLessThan(prompt);
      refused.socket.destroy();
    }
    first.socket.destroy();
  });
});
