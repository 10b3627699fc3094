import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { Hono } from "hono";
import { describe, expect, test, vi } from "vitest";
import { databaseFile, type Db } from "../../upstream/src/db";
import type * as DbModule from "../../upstream/src/db";
import { STORAGE_FULL_REPORT_MS, databaseHealth } from "../../upstream/src/lib/health";
import { STORAGE_MESSAGES, errorResponse, type AppEnv } from "../../upstream/src/lib/http";
import { writeGate } from "../../upstream/src/lib/write-gate";
import { harness, message, tempDir, type Harness } from "./helpers";

/**
 * A write is acknowledged only when it is durable in the database `/healthz` vouches for (lib/write-gate.ts), and a
 * full disk is a 507 with a message and an unhealthy `/healthz`, not a 500 (lib/http.ts errorResponse).
 */

// The upstream's own connection, to bound it with `PRAGMA max_page_count`: real SQLITE_FULL errors on any machine,
// without a small file system to fill.
const opened: Db[] = [];
vi.mock("../../upstream/src/db", async (importOriginal) => {
  const real = await importOriginal<typeof DbModule>();
  return {
    ...real,
    openDatabase: (...args: Parameters<typeof real.openDatabase>) => {
      const db = real.openDatabase(...args);
      opened.push(db);
      return db;
    },
  };
});

const user = (i: number) => ({ email: `durable${i}@example.com`, firstName: "Dee", lastName: "Rable", password: "secret1" });

async function createUsers(h: Harness, n: number): Promise<{ statuses: number[]; acknowledged: string[]; messages: string[] }> {
  const statuses: number[] = [];
  const acknowledged: string[] = [];
  const messages: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = await h.call("POST", "/api/auth/users", { token: h.adminToken, body: user(i) });
    statuses.push(r.status);
    if (r.status === 201) acknowledged.push(user(i).email);
    else messages.push(await message(r));
  }
  return { statuses, acknowledged, messages };
}

/** The acknowledged emails a restarted upstream on `dir` does not have. */
async function lostAfterRestart(h: Harness, acknowledged: string[]): Promise<string[]> {
  h.up.close();
  const again = await harness({ dataDir: h.dir });
  const lost: string[] = [];
  for (const email of acknowledged) {
    const r = await again.call("GET", `/api/auth/users?q=${encodeURIComponent(email)}`, { token: again.adminToken });
    if (((await r.json()) as { total: number }).total !== 1) lost.push(email);
  }
  return lost;
}

describe("the database file lost while the server runs", () => {
  test("deleted: every write answers 503 telling the operator to restart, and nothing acknowledged is lost", async () => {
    const h = await harness();
    fs.rmSync(databaseFile(h.dir));
    const { statuses, acknowledged, messages } = await createUsers(h, 5);
    expect(statuses).toEqual([503, 503, 503, 503, 503]);
    expect(new Set(messages)).toEqual(new Set([STORAGE_MESSAGES.lost]));
    expect(STORAGE_MESSAGES.lost).toMatch(/restart the server/);
    // Reads still answer from the database the server has open.
    expect((await h.call("GET", "/api/auth/users", { token: h.adminToken })).status).toBe(200);
    expect(h.up.healthReport()).toEqual({ ok: false, reason: STORAGE_MESSAGES.lost });
    expect(await lostAfterRestart(h, acknowledged)).toEqual([]);
  });

  test("every kind of write is refused (PATCH, DELETE, an upload), the WAL deleted or the file replaced", async () => {
    const h = await harness();
    const created = await h.createUser({ email: "kept@example.com" });
    fs.rmSync(`${databaseFile(h.dir)}-wal`);
    const patch = await h.call("PATCH", `/api/auth/users/${created.id}`, { token: h.adminToken, body: { id: created.id, firstName: "X" } });
    expect([patch.status, await message(patch)]).toEqual([503, STORAGE_MESSAGES.lost]);
    expect((await h.call("DELETE", `/api/auth/users/${created.id}`, { token: h.adminToken })).status).toBe(503);
    const form = new FormData();
    form.append("file", new File(["hello"], "a.txt", { type: "text/plain" }));
    const upload = await h.up.fetch(
      new Request("http://upstream.test/api/files", { method: "POST", headers: { authorization: `Bearer ${h.adminToken}` }, body: form }),
    );
    expect(upload.status).toBe(503);

    const other = await harness();
    const file = databaseFile(other.dir);
    fs.copyFileSync(file, `${file}.restored`);
    fs.renameSync(`${file}.restored`, file);
    expect((await other.call("POST", "/api/auth/users", { token: other.adminToken, body: user(1) })).status).toBe(503);
  });

  test("the back office's in-process path (up.direct) is refused the same way", async () => {
    const h = await harness();
    fs.rmSync(databaseFile(h.dir));
    const answer = await h.up.direct({
      method: "POST",
      path: "/api/auth/users",
      headers: { authorization: `Bearer ${h.adminToken}`, "content-type": "application/json" },
      body: JSON.stringify(user(1)),
    });
    expect(answer.status).toBe(503);
    expect(await answer.json()).toEqual({ message: STORAGE_MESSAGES.lost });
  });

  test("lost while the write runs: checked again before the success is acknowledged", async () => {
    const dir = tempDir();
    const file = path.join(dir, "db.sqlite");
    const db = new Database(file);
    db.pragma("journal_mode = WAL");
    db.exec("create table t (x)");
    const app = new Hono<AppEnv>();
    app.use("*", writeGate(databaseHealth(db, file)));
    app.post("/write", (c) => {
      db.prepare("insert into t values (1)").run();
      fs.rmSync(file); // the operator's clean-up, between the check before and the answer
      c.header("location", "/write/1");
      return c.json({ id: "1" }, 201);
    });
    app.onError((error, c) => errorResponse(c, error, () => {}));
    try {
      const r = await app.fetch(new Request("http://x/write", { method: "POST" }));
      expect(r.status).toBe(503);
      expect(r.headers.get("location")).toBeNull();
      expect(await r.json()).toEqual({ message: STORAGE_MESSAGES.lost });
    } finally {
      db.close();
    }
  });

  test("the check costs little: 10,000 gated writes' checks well under a second", () => {
    const dir = tempDir();
    const file = path.join(dir, "db.sqlite");
    const db = new Database(file);
    db.pragma("journal_mode = WAL");
    const health = databaseHealth(db, file);
    const started = performance.now();
    for (let i = 0; i < 10_000; i++) health.writeRefusal();
    expect(performance.now() - started).toBeLessThan(1000);
    db.close();
  });
});

describe("a full disk", () => {
  const big = (name: string) => ({ name, type: "abstract", description: "d", tags: [], template: "x".repeat(400_000) });

  test("SQLITE_FULL answers 507 Insufficient storage, /healthz says so until a write succeeds", async () => {
    const h = await harness();
    const db = opened.at(-1)!;
    expect(h.up.healthReport()).toEqual({ ok: true });
    db.pragma(`max_page_count = ${db.pragma("page_count", { simple: true }) as number}`);

    const r = await h.call("POST", "/api/specifications", { token: h.adminToken, body: big("Too big") });
    expect(r.status).toBe(507);
    expect(await message(r)).toBe(STORAGE_MESSAGES.full);
    expect(STORAGE_MESSAGES.full).toMatch(/^Insufficient storage: /);
    expect(h.logs.join("\n")).toMatch(/POST \/api\/specifications failed: SQLITE_FULL/);
    const report = h.up.healthReport();
    expect(report).toMatchObject({ ok: false, reason: expect.stringMatching(/^Insufficient storage: a write failed/) });
    // Nothing half-written: the list is as before.
    const list = await h.call("GET", "/api/specifications", { token: h.adminToken });
    expect(((await list.json()) as { total: number }).total).toBe(0);

    // Space again: the next write succeeds and the report clears.
    db.pragma("max_page_count = 1073741823");
    expect((await h.call("POST", "/api/specifications", { token: h.adminToken, body: big("Fits now") })).status).toBe(201);
    expect(h.up.healthReport()).toEqual({ ok: true });
  });

  test("the report of a failed write lasts a while without writes, then clears", async () => {
    const h = await harness();
    const db = opened.at(-1)!;
    db.pragma(`max_page_count = ${db.pragma("page_count", { simple: true }) as number}`);
    expect((await h.call("POST", "/api/specifications", { token: h.adminToken, body: big("Too big") })).status).toBe(507);
    h.clock.advance(STORAGE_FULL_REPORT_MS - 1);
    expect(h.up.health()).toBe(false);
    h.clock.advance(1);
    expect(h.up.health()).toBe(true);
  });

  test("ENOSPC from a file write answers 507 too, and is reported", async () => {
    const dir = tempDir();
    const file = path.join(dir, "db.sqlite");
    const db = new Database(file);
    db.pragma("journal_mode = WAL");
    const health = databaseHealth(db, file);
    const app = new Hono<AppEnv>();
    app.use("*", writeGate(health));
    app.post("/upload", () => {
      throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC", errno: -28 });
    });
    app.onError((error, c) => errorResponse(c, error, () => {}));
    try {
      const r = await app.fetch(new Request("http://x/upload", { method: "POST" }));
      expect([r.status, await r.json()]).toEqual([507, { message: STORAGE_MESSAGES.full }]);
      expect(health.report().ok).toBe(false);
    } finally {
      db.close();
    }
  });

  test("little free space on DATA_DIR's file system is reported (statfs)", () => {
    const dir = tempDir();
    const file = path.join(dir, "db.sqlite");
    const db = new Database(file);
    db.pragma("journal_mode = WAL");
    try {
      expect(databaseHealth(db, file).report()).toEqual({ ok: true });
      // Any real disk has less than this free.
      const report = databaseHealth(db, file, { minFreeBytes: Number.MAX_SAFE_INTEGER }).report();
      expect(report).toMatchObject({ ok: false, reason: expect.stringMatching(/^Insufficient storage: .* MiB free on the disk holding DATA_DIR/) });
    } finally {
      db.close();
    }
  });
});
