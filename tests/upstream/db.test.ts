import fs from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { MIGRATIONS, dataDirProblem, migrate, openDatabase } from "../../upstream/src/db";
import { tempDir } from "./helpers";

test("migrations run once each, tracked by user_version, and new ones can be appended", () => {
  const dir = tempDir();
  const db = openDatabase(dir);
  expect(db.pragma("user_version", { simple: true })).toBe(MIGRATIONS.length);
  expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
  expect(db.pragma("foreign_keys", { simple: true })).toBe(1);
  db.close();

  const extended = [...MIGRATIONS, { id: "999_extra", sql: "create table extra (id text primary key);" }];
  const again = openDatabase(dir, extended);
  expect(again.pragma("user_version", { simple: true })).toBe(MIGRATIONS.length + 1);
  migrate(again, extended); // nothing left to apply: no "table already exists"
  expect(again.prepare("select count(*) from extra").pluck().get()).toBe(0);
  again.close();

  expect(() => openDatabase(dir)).toThrow(/refusing to start/);
  const fresh = openDatabase(tempDir());
  expect(() => migrate(fresh, [...MIGRATIONS, ...MIGRATIONS])).toThrow(/Duplicate migration id/);
  fresh.close();
});

test("a failing migration is rolled back entirely", () => {
  const dir = tempDir();
  const bad = [...MIGRATIONS, { id: "bad", sql: "create table half (id text); select * from missing_table;" }];
  expect(() => openDatabase(dir, bad)).toThrow();
  const db = openDatabase(dir);
  expect(db.pragma("user_version", { simple: true })).toBe(MIGRATIONS.length);
  expect(db.prepare("select count(*) from sqlite_master where name = 'half'").pluck().get()).toBe(0);
  db.close();
});

test("a DATA_DIR that cannot be written is one line naming it and what the server needs, not a SqliteError", () => {
  const file = path.join(tempDir(), "a-file");
  fs.writeFileSync(file, "x");
  const under = path.join(file, "data");
  const problem = dataDirProblem(under);
  expect(problem).toMatch(/^DATA_DIR \S+ is not writable: the server needs to create and write files there \(ENOTDIR: .*\)\.$/);
  expect(problem).toContain(`DATA_DIR ${under} `);
  expect(() => openDatabase(under)).toThrow(problem!);
  // A writable one: created, and no probe file left behind.
  const fresh = path.join(tempDir(), "new", "data");
  expect(dataDirProblem(fresh)).toBeNull();
  expect(fs.readdirSync(fresh)).toEqual([]);
});
