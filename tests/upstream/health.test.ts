import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, test } from "vitest";
import { databaseFile } from "../../upstream/src/db";
import { databaseHealth } from "../../upstream/src/lib/health";
import { harness, tempDir } from "./helpers";

/** health() is false as soon as writes would no longer last. */
describe("upstream health", () => {
  test("healthy on a fresh database, and stays so after writes", async () => {
    const h = await harness();
    expect(h.up.health()).toBe(true);
    await h.createUser({ email: "w@example.com" });
    expect(h.up.health()).toBe(true);
    expect(h.up.health()).toBe(true);
  });

  test("the database file deleted: unhealthy (writes would go to an unlinked inode)", async () => {
    const h = await harness();
    fs.rmSync(databaseFile(h.dir));
    expect(h.up.health()).toBe(false);
  });

  test("the database file replaced by another file (a restored copy): unhealthy", async () => {
    const h = await harness();
    const file = databaseFile(h.dir);
    fs.copyFileSync(file, `${file}.copy`);
    fs.renameSync(`${file}.copy`, file);
    expect(h.up.health()).toBe(false);
  });

  test("the WAL file deleted: unhealthy", async () => {
    const h = await harness();
    fs.rmSync(`${databaseFile(h.dir)}-wal`);
    expect(h.up.health()).toBe(false);
  });

  test("the data directory renamed away: unhealthy", async () => {
    const h = await harness();
    const moved = `${h.dir}-moved`;
    fs.renameSync(h.dir, moved);
    try {
      expect(h.up.health()).toBe(false);
    } finally {
      fs.renameSync(moved, h.dir);
    }
    // Back in place: the same files again.
    expect(h.up.health()).toBe(true);
  });

  test("closed: unhealthy", async () => {
    const h = await harness();
    h.up.close();
    expect(h.up.health()).toBe(false);
  });

  test("a connection SQLite holds read-only (e.g. the file was not writable at open): the write probe fails", () => {
    const dir = tempDir();
    const file = path.join(dir, "read-only.sqlite");
    const rw = new Database(file);
    rw.pragma("journal_mode = WAL");
    rw.exec("create table t (x)");
    const ro = new Database(file, { readonly: true });
    try {
      expect(databaseHealth(rw, file).report()).toEqual({ ok: true });
      expect(databaseHealth(ro, file).report()).toMatchObject({ ok: false, reason: expect.stringMatching(/read-only/) });
    } finally {
      ro.close();
      rw.close();
    }
  });

  test("another process holding the write lock is not a failure, and the probe does not wait for it", () => {
    const dir = tempDir();
    const file = path.join(dir, "busy.sqlite");
    const a = new Database(file);
    a.pragma("journal_mode = WAL");
    a.pragma("busy_timeout = 5000");
    a.exec("create table t (x)");
    const b = new Database(file);
    const check = databaseHealth(a, file);
    const health = () => check.report().ok;
    b.exec("BEGIN IMMEDIATE");
    try {
      const started = Date.now();
      expect(health()).toBe(true);
      expect(Date.now() - started).toBeLessThan(1000);
      expect(a.pragma("busy_timeout", { simple: true })).toBe(5000);
    } finally {
      b.exec("ROLLBACK");
      b.close();
      a.close();
    }
  });

  test("cheap: 1,000 checks well under a second", async () => {
    const h = await harness();
    const started = process.hrtime.bigint();
    for (let i = 0; i < 1000; i++) h.up.health();
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(1000);
  });

  // Root passes permission bits, so a read-only file is checked as a user who is not root (when tests run as root).
  test.runIf(process.getuid?.() === 0)("as a non-root user, a database file made read-only: unhealthy", async () => {
    const { spawnSync } = await import("node:child_process");
    const dir = tempDir();
    fs.chmodSync(dir, 0o777);
    const script = `
      const fs = require("node:fs");
      const path = require("node:path");
      const Database = require("better-sqlite3");
      const { databaseHealth } = require(process.argv[1]);
      const file = path.join(process.argv[2], "db.sqlite");
      const db = new Database(file);
      db.pragma("journal_mode = WAL");
      db.exec("create table t (x)");
      const check = databaseHealth(db, file);
      const health = () => check.report().ok;
      const before = health();
      fs.chmodSync(file, 0o444);
      const after = health();
      fs.chmodSync(file, 0o644);
      fs.chmodSync(process.argv[2], 0o555);
      const dirReadOnly = health();
      console.log(JSON.stringify({ before, after, dirReadOnly }));
    `;
    // The health module compiled to CommonJS on the fly (esbuild ships with vite): a plain node child can load it.
    const { buildSync } = await import("esbuild");
    const compiled = path.join(dir, "health.cjs");
    buildSync({
      entryPoints: [path.resolve("upstream/src/lib/health.ts")],
      bundle: true,
      platform: "node",
      format: "cjs",
      outfile: compiled,
      external: ["better-sqlite3"],
    });
    const data = path.join(dir, "data");
    fs.mkdirSync(data);
    fs.chownSync(data, 65534, 65534);
    const result = spawnSync(process.execPath, ["-e", script, compiled, data], {
      uid: 65534,
      gid: 65534,
      cwd: process.cwd(),
      // Typed loosely: the NODE_ENV typing of ProcessEnv does not apply to a child's environment.
      env: { PATH: process.env.PATH ?? "", NODE_PATH: path.resolve("node_modules") } as unknown as NodeJS.ProcessEnv,
      encoding: "utf8",
    });
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout.trim())).toEqual({ before: true, after: false, dirReadOnly: false });
  });
});
