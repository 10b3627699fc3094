/**
 * Queue figures: (1) the dashboards' server render time with 100,000 jobs per queue (the built server, signed in,
 * median of 20 GETs each), (2) the worker's throughput against the fake patent office on loopback (processing jobs:
 * HTTP fetch + portfolio write, by concurrency).
 *   BUILD_DIR=.cache/build-x npx tsx bench/queues.ts
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openDatabase } from "../upstream/src/db";
import { ApplicationsSink } from "../upstream/src/applications/office-sink";
import { ApplicationsStore } from "../upstream/src/applications/store";
import { ApplicationCreate } from "@contract/portfolio";
import { processingHandler } from "../upstream/src/dispatcher/services";
import { PatentOffice } from "../upstream/src/patent-office/adapter";
import { startFakeOffice } from "../upstream/src/patent-office/fake-server";
import { SqliteJobQueue } from "../upstream/src/queue/sqlite-queue";
import { QueueWorker } from "../upstream/src/queue/worker";
import { checkPage, median, signIn, sleep, startBackoffice } from "./lib";
import { fillJobs } from "./queues-fill";

const JOBS = Number(process.env.BENCH_QUEUE_JOBS ?? 100_000);

async function renderTimes() {
  const dataDir = mkdtempSync(path.join(tmpdir(), "backoffice-queues-bench-"));
  const db = openDatabase(dataDir);
  fillJobs(db, "processing", JOBS);
  fillJobs(db, "uspto", JOBS);
  db.exec("analyze");
  db.close();
  const server = await startBackoffice({ dataDir, env: { QUEUE_CONCURRENCY: "0" } });
  const base = server.base;
  try {
    const cookie = await signIn(base);
    const pages = [
      "/processing",
      "/processing?filtered=1&status=completed&status=failed&sort=newest",
      "/uspto",
      "/uspto?filtered=1&status=completed&sort=priority&page=2000",
      "/uspto?tab=customers",
      "/fip",
    ];
    const out: Record<string, number> = {};
    for (const p of pages) {
      await checkPage(base, p, cookie);
      const times: number[] = [];
      for (let i = 0; i < 20; i++) {
        const t = performance.now();
        await checkPage(base, p, cookie);
        times.push(performance.now() - t);
      }
      out[p] = Math.round(median(times) * 10) / 10;
    }
    return out;
  } finally {
    await server.stop();
  }
}

async function throughput(concurrency: number, jobs = 2000) {
  const applications = Array.from({ length: jobs }, (_, i) => ({ applicationNumber: String(16_000_000 + i), title: `T${i}`, abstract: "A.", claims: ["1. C."] }));
  const office = await startFakeOffice({ applications });
  const dataDir = mkdtempSync(path.join(tmpdir(), "backoffice-worker-bench-"));
  const db = openDatabase(dataDir);
  try {
    // The applications are in the portfolio, so each job is a fetch and a portfolio write (and its reindex).
    const store = new ApplicationsStore(db, Date.now);
    for (const a of applications) store.create(ApplicationCreate.parse({ id: a.applicationNumber, title: "Before" }), null);
    const q = new SqliteJobQueue(db);
    const po = new PatentOffice({ baseUrl: office.url, apiKey: office.apiKey }, () => ({ requestTimeoutMs: 10_000, tooManyRequestsDelayMs: 1000 }));
    const worker = new QueueWorker({ queue: "processing", jobs: q, concurrency, pollMs: 50, handler: processingHandler({ office: po, sink: new ApplicationsSink(db, store) }) });
    q.enqueue("processing", applications.map((a) => ({ id: a.applicationNumber })));
    const t = performance.now();
    worker.start();
    while (q.counts("processing").completed < jobs) await sleep(20);
    const seconds = (performance.now() - t) / 1000;
    await worker.stop();
    return Math.round(jobs / seconds);
  } finally {
    db.close();
    await office.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const render = await renderTimes();
console.log(`Dashboard render (server, median of 20, ${JOBS.toLocaleString("en")} jobs per queue), ms:`);
for (const [p, ms] of Object.entries(render)) console.log(`  ${p.padEnd(70)} ${ms}`);
console.log("Worker throughput against the fake patent office (processing jobs/s):");
for (const c of [1, 2, 4, 8]) console.log(`  concurrency ${c}: ${await throughput(c)}`);
