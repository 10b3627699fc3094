import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { RUN_RETENTION, type RunStatus } from "@contract/chain-runs";
import { createAiAdmin } from "../../upstream/src/ai-admin/service";
import { ChainRuns } from "../../upstream/src/chain-runs/service";
import type { RunsStore } from "../../upstream/src/chain-runs/store";
import { openDatabase, type Db } from "../../upstream/src/db";

const DAY = 24 * 60 * 60_000;
let db: Db | null = null;
let dir = "";
afterEach(() => {
  db?.close();
  db = null;
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Chain runs over a fresh database whose clock the test moves. */
function setup(retention = RUN_RETENTION) {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "chain-runs-retention-"));
  db = openDatabase(dir);
  const clock = { at: Date.parse("2026-01-01T00:00:00Z") };
  const now = () => clock.at;
  const query = () => {
    throw new Error("no query here");
  };
  const runs = new ChainRuns({ db, now, ai: createAiAdmin(db, now), query, log: () => {}, retention });
  return { runs, store: runs.store, clock, db };
}

/** A run with `events` events in its log, left in `status` (its end stamped by the store's clock). */
function run(store: RunsStore, status: RunStatus, events: number): string {
  const { id } = store.create("chain", null, "user-1");
  store.write(Array.from({ length: events }, (_, i) => ({ runId: id, event: store.event(i + 1, "stream", { link: 0, content: "x" }) })));
  store.setStatus(id, status);
  return id;
}

const eventCount = (d: Db, id: string) => (d.prepare("select count(*) as n from chain_run_events where run_id = ?").get(id) as { n: number }).n;

describe("run retention", () => {
  test("ended runs older than the bound go with their events; younger ones and runs going stay", async () => {
    const { runs, store, clock, db: d } = setup();
    const old = (["finished", "failed", "cancelled"] as const).map((status) => run(store, status, 3));
    const going = run(store, "running", 2);
    const waiting = run(store, "waiting", 2);
    clock.at += 2 * DAY;
    const young = run(store, "finished", 2);
    clock.at += RUN_RETENTION.keepMs - 2 * DAY + 1;
    expect(await runs.sweep()).toBeGreaterThan(0);
    for (const id of old) {
      expect(store.get(id)).toBeNull();
      expect(eventCount(d, id)).toBe(0);
    }
    for (const id of [going, waiting, young]) expect(store.get(id)).not.toBeNull();
    expect(eventCount(d, young)).toBe(2);
    expect(await runs.sweep()).toBe(0);
    clock.at += 2 * DAY;
    await runs.sweep();
    expect(store.get(young)).toBeNull();
    expect(store.get(going)?.status).toBe("running");
  });

  test("a sweep deletes at most eventsPerStep events a step and takes at most stepsPerSweep steps", async () => {
    const { runs, store, clock, db: d } = setup({ ...RUN_RETENTION, eventsPerStep: 5, stepsPerSweep: 2 });
    const first = run(store, "finished", 12);
    clock.at += 1;
    const second = run(store, "failed", 1);
    clock.at += RUN_RETENTION.keepMs + 1;
    expect(store.expireStep(RUN_RETENTION.keepMs, 5)).toBe(true);
    expect(eventCount(d, first)).toBe(7);
    expect(await runs.sweep()).toBe(2);
    expect(eventCount(d, first)).toBe(0);
    expect(store.get(first)).not.toBeNull();
    expect(await runs.sweep()).toBe(2);
    expect(store.get(first)).toBeNull();
    expect(eventCount(d, second)).toBe(0);
    expect(store.get(second)).not.toBeNull();
    expect(await runs.sweep()).toBe(1);
    expect(store.get(second)).toBeNull();
  });

  test("the sweep reads the ended runs through their index", () => {
    const { db: d } = setup();
    const plan = d.prepare("explain query plan select id from chain_runs where ended_at is not null and ended_at < ? order by ended_at limit 1").all("x") as { detail: string }[];
    expect(plan.map((p) => p.detail).join(" ")).toMatch(/USING (COVERING )?INDEX chain_runs_ended/);
  });
});
