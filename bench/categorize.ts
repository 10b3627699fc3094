/**
 * Categorization bench: `npm run bench:categorize -- [--count 1000000] [--target N] [--data-dir DIR]`.
 *
 * 1. A seeded portfolio of `--count` demo applications (the portfolio's deterministic generator), kept in `--data-dir`
 *    (default `.cache/bench-categorize` for 1M, `.cache/bench-categorize-<count>` otherwise) and reused across runs.
 * 2. A query_string over the demo's technical terms matching about `--target` applications (default 100,000, or a
 *    tenth of the set when smaller), picked by counting candidate terms with the engine.
 * 3. The production build (`BUILD_DIR`, default build/) started on that data; the query saved and applied through
 *    the API (POST /api/categorization/queries/{id}/apply), its progress polled until done, while a client times
 *    GET /api/auth/me back to back (the server's request latency during the job) — and before it, for a baseline.
 * 4. The tags removed again (POST …/remove, timed too), so the next run starts from the same state.
 */
import { parseArgs } from "node:util";
import { seedPortfolio } from "../upstream/src/applications/demo";
import { FIELDS } from "../upstream/src/applications/seed";
import { openDatabase } from "../upstream/src/db";
import { SqliteSearchEngine } from "../upstream/src/search/sqlite";
import type { CategorizationJob, JobTriggered } from "@contract/categorization";
import { freePort } from "./lib";
import { startProductionServer, waitUntilUp } from "../tests/helpers/server";

const { values } = parseArgs({
  options: {
    count: { type: "string", default: "1000000" },
    target: { type: "string" },
    "data-dir": { type: "string" },
    baseline: { type: "string", default: "3" },
  },
});
const count = Number(values.count);
if (!Number.isInteger(count) || count < 1) throw new Error("--count must be a positive integer");
const target = Number(values.target ?? Math.min(100_000, Math.round(count / 10)));
const dataDir = values["data-dir"] ?? (count === 1_000_000 ? ".cache/bench-categorize" : `.cache/bench-categorize-${count}`);
const ADMIN = { email: "admin@bench.test", password: "bench-admin-password" };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const fmt = (n: number) => n.toLocaleString("en-US");
function stats(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor((s.length * p) / 100))] ?? Number.NaN;
  return { n: s.length, p50: q(50), p95: q(95), p99: q(99), max: s[s.length - 1] ?? Number.NaN };
}
const ms = (n: number) => `${n.toFixed(1)} ms`;

// 1. The data set.
{
  const db = openDatabase(dataDir);
  const have = (db.prepare("select count(*) as n from applications").get() as { n: number }).n;
  if (have < count) {
    console.log(`Seeding ${fmt(count - have)} applications into ${dataDir}…`);
    const started = Date.now();
    seedPortfolio(db, { count, batch: 5000 });
    console.log(`  seeded in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
  // 2. A query matching about `target` applications: the field terms, ORed greedily from the most frequent.
  const engine = new SqliteSearchEngine(db, { rankWorkers: 0 });
  const total = async (qs: string) =>
    (await engine.search({ query: { query_string: { query: qs, fields: ["title", "abstract", "claims"] } }, size: 0 }, {})).total;
  const terms = [...new Set(FIELDS.flatMap((f) => f.terms))].filter((t) => /^[a-z]+$/.test(t));
  const counted: { t: string; n: number }[] = [];
  for (const t of terms) counted.push({ t, n: await total(t) });
  counted.sort((a, b) => b.n - a.n);
  let chosen: string[] = [];
  let n = 0;
  const single = counted.find((c) => c.n <= target * 1.1 && c.n >= target * 0.9);
  if (single) {
    chosen = [single.t];
    n = single.n;
  } else {
    for (const c of counted.filter((c) => c.n <= target)) {
      const next = await total([...chosen, c.t].join(" OR "));
      if (next > target * 1.1) continue;
      chosen.push(c.t);
      n = next;
      if (n >= target * 0.9) break;
    }
  }
  db.close();
  process.env.BENCH_QUERY = chosen.join(" OR ");
  console.log(`Data: ${fmt(count)} applications (${dataDir}); query "${process.env.BENCH_QUERY}" matches ${fmt(n)}.`);
}

// 3. The server, the job, the latency.
const port = await freePort();
const server = startProductionServer(port, dataDir, ADMIN, { PORTFOLIO_DEMO: "0" });
try {
  await waitUntilUp(server.base, server, 120_000);
  const login = await fetch(`${server.base}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(ADMIN),
  });
  const { token } = (await login.json()) as { token: string };
  const headers = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
  const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const r = await fetch(`${server.base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
    return (await r.json()) as T;
  };

  /** GET /api/auth/me back to back until `until()`; the latencies in ms. */
  async function sampleLatency(until: () => boolean): Promise<number[]> {
    const out: number[] = [];
    while (!until()) {
      const t = performance.now();
      const r = await fetch(`${server.base}/api/auth/me`, { headers });
      await r.arrayBuffer();
      out.push(performance.now() - t);
      await sleep(20);
    }
    return out;
  }

  const baselineEnd = Date.now() + Number(values.baseline) * 1000;
  const baseline = stats(await sampleLatency(() => Date.now() > baselineEnd));

  const tag = `bench-${Date.now().toString(36)}`;
  const text = JSON.stringify({ query: { query_string: { query: process.env.BENCH_QUERY, fields: ["title", "abstract", "claims"] } } });
  const query = await api<{ id: string }>("POST", "/api/categorization/queries", { name: `Bench ${tag}`, tags: [tag], text });

  async function run(kind: "apply" | "remove") {
    const triggeredAt = performance.now();
    const { job } = await api<JobTriggered>("POST", `/api/categorization/queries/${query.id}/${kind}`);
    const answeredMs = performance.now() - triggeredAt;
    let state: CategorizationJob = job;
    let done = false;
    const latency = sampleLatency(() => done);
    const progress: string[] = [];
    while (state.status === "queued" || state.status === "running") {
      await sleep(1000);
      state = await api<CategorizationJob>("GET", `/api/categorization/jobs/${job.id}`);
      progress.push(`${fmt(state.done)}/${state.total === null ? "?" : fmt(state.total)}`);
    }
    done = true;
    const lat = stats(await latency);
    const seconds = (Date.parse(state.finishedAt!) - Date.parse(state.startedAt!)) / 1000;
    console.log(
      `\n${kind}: ${state.status}${state.error ? ` (${state.error})` : ""}, ${fmt(state.done)} matches, ${fmt(state.changed)} changed in ${seconds.toFixed(1)} s ` +
        `(${fmt(Math.round(state.done / Math.max(seconds, 0.001)))}/s); the trigger answered in ${ms(answeredMs)}`,
    );
    console.log(`  progress seen: ${progress.slice(0, 12).join(", ")}${progress.length > 12 ? ", …" : ""}`);
    console.log(`  GET /api/auth/me during it: n=${lat.n} p50 ${ms(lat.p50)} p95 ${ms(lat.p95)} p99 ${ms(lat.p99)} max ${ms(lat.max)}`);
  }

  console.log(`\nbaseline GET /api/auth/me: n=${baseline.n} p50 ${ms(baseline.p50)} p95 ${ms(baseline.p95)} p99 ${ms(baseline.p99)} max ${ms(baseline.max)}`);
  await run("apply");
  const counts = await api<{ name: string; count: number }[]>("GET", "/api/portfolio/tags?portfolioId=public");
  console.log(`  tag count (public portfolio) after apply: ${fmt(counts.find((c) => c.name === tag)?.count ?? 0)}`);
  await run("remove");
  await api("DELETE", `/api/categorization/queries/${query.id}`).catch(() => undefined);
} finally {
  server.child.kill("SIGTERM");
  await server.exited;
}
