/**
 * `npm run bench` — server throughput of the production build against a bare Remix app (bench/README.md).
 *
 *   BUILD_DIR=.cache/build-bench npm run build
 *   BUILD_DIR=.cache/build-bench npm run bench                       # throughput table (≈ 6 min with defaults)
 *   BUILD_DIR=.cache/build-bench npm run bench -- --staff            # 200 staff sessions with think time
 *   BENCH_SECONDS=5 npm run bench -- --json /tmp/bench.json          # shorter runs, results also as JSON
 *
 * Environment: BUILD_DIR (default build), BENCH_SECONDS (per run, default 20), BENCH_RUNS (default 3),
 * BENCH_CONNECTIONS (default 10), BENCH_USERS (default 1000), BENCH_SETTLE_SECONDS (RSS "later", default 60),
 * BENCH_ENCODING (Accept-Encoding sent, default "gzip"), BENCH_STAFF (sessions, default 200),
 * BENCH_STAFF_SECONDS (default 60), BENCH_THINK_MS (default 2000), BENCH_PAGES (with --builds: which of
 * list,detail,form,login; default all).
 * Flags: --staff (the staff scenario instead of the table), --extra (also an organization form and a specification
 * page), --builds a=dir,b=dir (the same pages of several builds side by side, interleaved: an A/B of a change),
 * --json <file> (write the results as JSON too).
 */
import { writeFileSync } from "node:fs";
import http from "node:http";
import { cpus, loadavg } from "node:os";
import autocannon from "autocannon";
import {
  ADMIN,
  BUILD_DIR,
  USER_PASSWORD,
  buildBare,
  checkPage,
  cpuSeconds,
  fmt,
  grant,
  median,
  percentile,
  pool,
  rssMb,
  seed,
  signIn,
  sleep,
  startBackoffice,
  startBare,
  table,
  type Server,
} from "./lib";

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(name);
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const num = (name: string, fallback: number) => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};

const SECONDS = num("BENCH_SECONDS", 20);
const RUNS = num("BENCH_RUNS", 3);
const CONNECTIONS = num("BENCH_CONNECTIONS", 10);
const USERS = num("BENCH_USERS", 1000);
const SETTLE_SECONDS = num("BENCH_SETTLE_SECONDS", 60);
// gzip by default: what the issue measured (wrk), and the bare app's fairest baseline. Chromium also offers br, which the
// `compression` middleware then prefers: per-chunk brotli costs far more (bare app: ~220 vs ~500 req/s on gzip).
const ENCODING = process.env.BENCH_ENCODING ?? "gzip";
const STAFF = num("BENCH_STAFF", 200);
const STAFF_SECONDS = num("BENCH_STAFF_SECONDS", 60);
const THINK_MS = num("BENCH_THINK_MS", 2000);
const jsonFile = option("--json");

const browserHeaders = (cookie?: string): Record<string, string> => ({
  accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  "accept-encoding": ENCODING,
  "accept-language": "en-US,en;q=0.9",
  "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36 bench",
  ...(cookie ? { cookie } : {}),
});

/** The machine's load: the figures are only comparable when nothing else runs (2 cores: load ≤ ~0.5 before a run). */
const machine = () =>
  `${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(2)).join(" / ")} (1 / 5 / 15 min)`;
const loadAtStart = machine();

const log = (...parts: unknown[]) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}]`, ...parts);

type Target = { name: string; base: string; path: string; cookie?: string; pid: number };
type Run = {
  reqPerSec: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** The server process's CPU time (user + system, all threads) over the run ÷ the requests it answered, in ms. */
  cpuMsPerRequest: number;
};

async function load(target: Target, seconds: number): Promise<Run> {
  const cpuBefore = cpuSeconds(target.pid);
  const run = await loadOnly(target, seconds);
  const cpu = cpuSeconds(target.pid) - cpuBefore;
  return { ...run.result, cpuMsPerRequest: run.requests > 0 ? (cpu * 1000) / run.requests : Number.NaN };
}

function loadOnly(target: Target, seconds: number): Promise<{ result: Omit<Run, "cpuMsPerRequest">; requests: number }> {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: `${target.base}${target.path}`,
        connections: CONNECTIONS,
        duration: seconds,
        headers: browserHeaders(target.cookie),
        timeout: 10,
      },
      (error, result) => {
        if (error) return reject(error);
        resolve({
          result: {
            reqPerSec: result.requests.average,
            p50: result.latency.p50,
            p99: result.latency.p99,
            non2xx: result.non2xx,
            errors: result.errors,
            timeouts: result.timeouts,
          },
          requests: result.requests.total,
        });
      },
    );
  });
}

// ------------------------------------------------------------------------------------------------------ throughput

async function throughput(app: Server, bare: Server) {
  log(`seeding ${USERS} users, an organization and a specification through the API…`);
  const seeded = await seed(app.base, USERS);
  const cookie = await signIn(app.base);
  const detailId = seeded.userIds[Math.floor(seeded.userIds.length / 2)]!;
  const targets: Target[] = [
    { name: "bare Remix app (25-row table)", base: bare.base, path: "/", pid: bare.pid },
    { name: "GET /login", base: app.base, path: "/login", pid: app.pid },
    { name: "GET /people (document)", base: app.base, path: "/people", cookie, pid: app.pid },
    { name: "GET /people/<id> (detail)", base: app.base, path: `/people/${detailId}`, cookie, pid: app.pid },
    { name: "GET /people/new (form)", base: app.base, path: "/people/new", cookie, pid: app.pid },
  ];
  if (flag("--extra")) {
    targets.push(
      { name: "GET /organizations/new (form)", base: app.base, path: "/organizations/new", cookie, pid: app.pid },
      { name: "GET /specifications/<id> (detail)", base: app.base, path: `/specifications/${seeded.specificationId}`, cookie, pid: app.pid },
    );
  }
  for (const t of targets) await checkPage(t.base, t.path, t.cookie);

  await sleep(3000);
  const rss = { appIdle: rssMb(app.pid), bareIdle: rssMb(bare.pid), appAfter: 0, bareAfter: 0, appLater: 0, bareLater: 0 };
  log(`RSS idle (seeded): ours ${fmt(rss.appIdle)} MB, bare ${fmt(rss.bareIdle)} MB`);

  log("warm-up: 3 s per target");
  for (const t of targets) await load(t, 3);

  // Interleaved: run 1 of every target, then run 2, … so drift (thermal, other load) spreads over all of them.
  const runs = new Map<Target, Run[]>(targets.map((t) => [t, []]));
  for (let r = 1; r <= RUNS; r++) {
    for (const t of targets) {
      const result = await load(t, SECONDS);
      runs.get(t)!.push(result);
      log(`run ${r}/${RUNS} ${t.name}: ${fmt(result.reqPerSec)} req/s, ${fmt(result.cpuMsPerRequest, 2)} CPU ms/req, p50 ${result.p50} ms, p99 ${result.p99} ms` +
        (result.non2xx + result.errors + result.timeouts ? `, ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts` : ""));
    }
  }
  rss.appAfter = rssMb(app.pid);
  rss.bareAfter = rssMb(bare.pid);
  log(`RSS right after load: ours ${fmt(rss.appAfter)} MB; waiting ${SETTLE_SECONDS} s…`);
  await sleep(SETTLE_SECONDS * 1000);
  rss.appLater = rssMb(app.pid);
  rss.bareLater = rssMb(bare.pid);

  // The median run by req/s, and that run's latencies (one coherent run rather than a mix of three).
  const summary = targets.map((t) => {
    const list = runs.get(t)!;
    const sorted = [...list].sort((a, b) => a.reqPerSec - b.reqPerSec);
    const mid = sorted[Math.floor(sorted.length / 2)]!;
    return {
      name: t.name,
      path: t.path,
      reqPerSec: median(list.map((x) => x.reqPerSec)),
      cpuMsPerRequest: median(list.map((x) => x.cpuMsPerRequest)),
      p50: mid.p50,
      p99: mid.p99,
      p99Worst: Math.max(...list.map((x) => x.p99)),
      failures: list.reduce((n, x) => n + x.non2xx + x.errors + x.timeouts, 0),
      runs: list,
    };
  });
  const bareRps = summary[0]!.reqPerSec;
  const peopleRps = summary[2]!.reqPerSec;
  const ratio = peopleRps / bareRps;

  const out: string[] = [];
  out.push(
    `## npm run bench — ${new Date().toISOString()}`,
    "",
    `Build ${BUILD_DIR}; Node ${process.version}; ${USERS} users; autocannon ${CONNECTIONS} connections × ${SECONDS} s, ` +
      `${RUNS} interleaved runs per target (median req/s; p50/p99 of the median run; worst p99 of all runs); ` +
      `Accept-Encoding: ${ENCODING}.`,
    `Machine at start: ${loadAtStart}; at the end: ${machine()}.`,
    "",
    table(
      ["target", "req/s", "CPU ms/req", "p50 ms", "p99 ms", "worst p99 ms", "failed", "÷ bare"],
      summary.map((s) => [
        s.name,
        fmt(s.reqPerSec, 0),
        fmt(s.cpuMsPerRequest, 2),
        fmt(s.p50, 1),
        fmt(s.p99, 1),
        fmt(s.p99Worst, 1),
        String(s.failures),
        fmt(s.reqPerSec / bareRps, 2),
      ]),
    ),
    "",
    `/people ÷ bare: ${fmt(ratio, 2)} (goal ≥ 0.50); /people p99 ${fmt(summary[2]!.p99, 1)} ms (goal ≤ 50 ms).`,
    "",
    table(
      ["RSS (MB)", "idle (seeded)", "right after load", `${SETTLE_SECONDS} s after`],
      [
        ["ours", fmt(rss.appIdle, 0), fmt(rss.appAfter, 0), fmt(rss.appLater, 0)],
        ["bare", fmt(rss.bareIdle, 0), fmt(rss.bareAfter, 0), fmt(rss.bareLater, 0)],
      ],
    ),
  );
  console.log(out.join("\n"));
  return { scenario: "throughput", settings: { SECONDS, RUNS, CONNECTIONS, USERS, ENCODING, BUILD_DIR }, summary, ratio, rss };
}

// ----------------------------------------------------------------------------------------------------------- compare

type Build = { name: string; dir: string };

/** `--builds a=dir,b=dir`: the same pages of several builds, served side by side, run after run interleaved. */
function parseBuilds(value: string): Build[] {
  return value.split(",").map((part) => {
    const at = part.indexOf("=");
    if (at <= 0) throw new Error(`--builds wants name=dir,name=dir; got "${part}"`);
    return { name: part.slice(0, at), dir: part.slice(at + 1) };
  });
}

const spread = (values: number[], digits: number) =>
  `${fmt(median(values), digits)} (${fmt(Math.min(...values), digits)}–${fmt(Math.max(...values), digits)})`;

async function compare(builds: Build[], bare: Server) {
  const pages = (process.env.BENCH_PAGES ?? "list,detail,form,login").split(",");
  const kinds = [
    { key: "list", name: "GET /people (document)", path: (_detail: string) => "/people", signedIn: true },
    { key: "detail", name: "GET /people/<id> (detail)", path: (detail: string) => `/people/${detail}`, signedIn: true },
    { key: "form", name: "GET /people/new (form)", path: (_detail: string) => "/people/new", signedIn: true },
    { key: "login", name: "GET /login", path: (_detail: string) => "/login", signedIn: false },
  ].filter((k) => pages.includes(k.key));
  const perBuild: { build: Build; targets: Target[] }[] = [];
  for (const build of builds) {
    log(`starting ${build.name} (${build.dir}), seeding ${USERS} users…`);
    const app = await startBackoffice({ buildDir: build.dir });
    servers.push(app);
    const seeded = await seed(app.base, USERS);
    const cookie = await signIn(app.base);
    const detail = seeded.userIds[Math.floor(seeded.userIds.length / 2)]!;
    const targets = kinds.map((k) => ({
      name: `${k.name} ${build.name}`,
      base: app.base,
      path: k.path(detail),
      cookie: k.signedIn ? cookie : undefined,
      pid: app.pid,
    }));
    for (const t of targets) await checkPage(t.base, t.path, t.cookie);
    perBuild.push({ build, targets });
  }
  const bareTarget: Target = { name: "bare Remix app (25-row table)", base: bare.base, path: "/", pid: bare.pid };

  log("warm-up: 3 s per target");
  await load(bareTarget, 3);
  for (const { targets } of perBuild) for (const t of targets) await load(t, 3);

  // Each kind of page in turn, each build in turn, the builds' order reversed every other run (A B, B A, …), so
  // that drift in the machine's load falls on every build alike.
  const bareRuns: Run[] = [];
  const runs = new Map<Target, Run[]>(perBuild.flatMap(({ targets }) => targets.map((t) => [t, [] as Run[]])));
  for (let r = 1; r <= RUNS; r++) {
    const bareRun = await load(bareTarget, SECONDS);
    bareRuns.push(bareRun);
    log(`run ${r}/${RUNS} bare: ${fmt(bareRun.reqPerSec)} req/s, ${fmt(bareRun.cpuMsPerRequest, 2)} CPU ms/req`);
    const order = r % 2 ? perBuild : [...perBuild].reverse();
    for (let k = 0; k < kinds.length; k++) {
      for (const { targets } of order) {
        const t = targets[k]!;
        const result = await load(t, SECONDS);
        runs.get(t)!.push(result);
        log(`run ${r}/${RUNS} ${t.name}: ${fmt(result.reqPerSec)} req/s, ${fmt(result.cpuMsPerRequest, 2)} CPU ms/req, p99 ${result.p99} ms` +
          (result.non2xx + result.errors + result.timeouts ? `, ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts` : ""));
      }
    }
  }

  const bareRps = median(bareRuns.map((x) => x.reqPerSec));
  const rows: string[][] = [];
  const summary = kinds.map((kind, k) => {
    const first = median(runs.get(perBuild[0]!.targets[k]!)!.map((x) => x.cpuMsPerRequest));
    return {
      page: kind.name,
      builds: perBuild.map(({ build, targets }) => {
        const list = runs.get(targets[k]!)!;
        const sorted = [...list].sort((a, b) => a.reqPerSec - b.reqPerSec);
        const mid = sorted[Math.floor(sorted.length / 2)]!;
        const cpu = median(list.map((x) => x.cpuMsPerRequest));
        const failures = list.reduce((n, x) => n + x.non2xx + x.errors + x.timeouts, 0);
        rows.push([
          `${kind.name} ${build.name}`,
          spread(list.map((x) => x.reqPerSec), 0),
          spread(list.map((x) => x.cpuMsPerRequest), 2),
          `${fmt(((cpu - first) / first) * 100, 0)}%`,
          fmt(mid.p99, 1),
          fmt(Math.max(...list.map((x) => x.p99)), 1),
          String(failures),
          fmt(median(list.map((x) => x.reqPerSec)) / bareRps, 2),
        ]);
        return { build: build.name, dir: build.dir, reqPerSec: median(list.map((x) => x.reqPerSec)), cpuMsPerRequest: cpu, p99: mid.p99, failures, runs: list };
      }),
    };
  });

  const out = [
    `## npm run bench -- --builds — ${new Date().toISOString()}`,
    "",
    `Builds: ${builds.map((b) => `${b.name} = ${b.dir}`).join("; ")}; Node ${process.version}; ${USERS} users each; ` +
      `autocannon ${CONNECTIONS} connections × ${SECONDS} s, ${RUNS} runs per page and build, the builds interleaved ` +
      `(order reversed every other run); Accept-Encoding: ${ENCODING}.`,
    `Machine at start: ${loadAtStart}; at the end: ${machine()}.`,
    `Bare app: ${spread(bareRuns.map((x) => x.reqPerSec), 0)} req/s, ${spread(bareRuns.map((x) => x.cpuMsPerRequest), 2)} CPU ms/req.`,
    "",
    "Median (min–max) of the runs; CPU ms/req is the server process's user + system time over a run ÷ the requests it",
    `answered; "vs ${builds[0]!.name}" compares the medians of CPU ms/req; p99 of the median run (by req/s).`,
    "",
    table(["page build", "req/s", "CPU ms/req", `vs ${builds[0]!.name}`, "p99 ms", "worst p99 ms", "failed", "÷ bare"], rows),
  ];
  console.log(out.join("\n"));
  return { scenario: "compare", settings: { SECONDS, RUNS, CONNECTIONS, USERS, ENCODING }, bare: bareRuns, summary };
}

// ------------------------------------------------------------------------------------------------------------- staff

type Sample = { at: number; ms: number; status: number; page: string; error?: string };

function get(agent: http.Agent, base: string, p: string, cookie: string): Promise<{ status: number }> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${base}${p}`, { agent, headers: browserHeaders(cookie), timeout: 10_000 }, (response) => {
      response.on("data", () => {});
      response.on("end", () => resolve({ status: response.statusCode ?? 0 }));
      response.on("error", reject);
    });
    request.on("timeout", () => request.destroy(new Error("timeout (10 s)")));
    request.on("error", reject);
  });
}

async function staff(app: Server) {
  log(`seeding ${USERS} users, an organization and a specification through the API…`);
  const seeded = await seed(app.base, USERS);
  const count = Math.min(STAFF, seeded.userIds.length);
  log(`granting "users" to ${count} staff users and signing each in through the form…`);
  await pool(seeded.userIds.slice(0, count), 4, (id) => grant(app.base, seeded.token, id, ["users"]));
  const cookies = await pool(seeded.userEmails.slice(0, count), 4, (email) => signIn(app.base, email, USER_PASSWORD));
  for (const p of ["/people", `/people/${seeded.userIds[0]}`, "/people/new"]) await checkPage(app.base, p, cookies[0]);

  await sleep(3000);
  const rssIdle = rssMb(app.pid);
  log(`RSS idle (seeded, ${count} sessions): ${fmt(rssIdle)} MB; ${count} sessions, a page every ${THINK_MS} ms for ${STAFF_SECONDS} s…`);

  const pages = (i: number, n: number) => {
    const id = seeded.userIds[(i * 37 + n * 11) % seeded.userIds.length]!;
    const pageNo = 1 + ((i + n) % Math.ceil(seeded.userIds.length / 25));
    switch (n % 4) {
      case 0:
        return { page: "list", path: pageNo === 1 ? "/people" : `/people?page=${pageNo}` };
      case 1:
        return { page: "detail", path: `/people/${id}` };
      case 2:
        return { page: "form", path: "/people/new" };
      default:
        return { page: "search", path: `/people?q=${encodeURIComponent(`user${(i % 9) + 1}`)}` };
    }
  };

  const samples: Sample[] = [];
  const start = performance.now();
  const end = start + STAFF_SECONDS * 1000;
  await Promise.all(
    cookies.map(async (cookie, i) => {
      // Each session has its own keep-alive connection, like one browser.
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      await sleep(Math.random() * THINK_MS); // spread the sessions over the first interval
      for (let n = 0; performance.now() < end; n++) {
        const { page, path: p } = pages(i, n);
        const t0 = performance.now();
        try {
          const { status } = await get(agent, app.base, p, cookie);
          samples.push({ at: t0 - start, ms: performance.now() - t0, status, page });
        } catch (error) {
          samples.push({ at: t0 - start, ms: performance.now() - t0, status: 0, page, error: (error as Error).message });
        }
        const wait = t0 + THINK_MS - performance.now();
        if (wait > 0 && performance.now() + wait < end) await sleep(wait);
        else if (performance.now() + Math.max(wait, 0) >= end) break;
      }
      agent.destroy();
    }),
  );
  const rssAfter = rssMb(app.pid);
  log(`RSS right after: ${fmt(rssAfter)} MB; waiting ${SETTLE_SECONDS} s…`);
  await sleep(SETTLE_SECONDS * 1000);
  const rssLater = rssMb(app.pid);

  const errors = samples.filter((s) => s.status !== 200);
  const byPage = ["list", "detail", "form", "search"].map((page) => {
    const ms = samples.filter((s) => s.page === page).map((s) => s.ms);
    return [page, String(ms.length), fmt(percentile(ms, 50)), fmt(percentile(ms, 99)), fmt(Math.max(...ms))];
  });
  const all = samples.map((s) => s.ms);
  const p99 = percentile(all, 99);
  const errorKinds = new Map<string, number>();
  for (const e of errors) errorKinds.set(e.error ?? `HTTP ${e.status}`, (errorKinds.get(e.error ?? `HTTP ${e.status}`) ?? 0) + 1);

  const out = [
    `## npm run bench -- --staff — ${new Date().toISOString()}`,
    "",
    `Build ${BUILD_DIR}; ${USERS} users; ${count} signed-in staff sessions (one keep-alive connection each), a page ` +
      `every ${THINK_MS} ms (list page n, detail, form, list searched for "user<n>", in turn) for ${STAFF_SECONDS} s; Accept-Encoding: ${ENCODING}.`,
    `Machine at start: ${loadAtStart}; at the end: ${machine()}.`,
    "",
    table(
      ["page", "requests", "p50 ms", "p99 ms", "max ms"],
      [...byPage, ["all", String(all.length), fmt(percentile(all, 50)), fmt(p99), fmt(Math.max(...all))]],
    ),
    "",
    `errors: ${errors.length}${errorKinds.size ? ` (${[...errorKinds].map(([k, v]) => `${k} × ${v}`).join(", ")})` : ""}` +
      ` (goal 0); p99 ${fmt(p99)} ms (goal ≤ 250 ms); throughput ${fmt(all.length / STAFF_SECONDS)} req/s.`,
    "",
    table(
      ["RSS (MB)", "idle (seeded, signed in)", "right after", `${SETTLE_SECONDS} s after`],
      [["ours", fmt(rssIdle, 0), fmt(rssAfter, 0), fmt(rssLater, 0)]],
    ),
    `(goal: under 200 MB within a minute after)`,
  ];
  console.log(out.join("\n"));
  return {
    scenario: "staff",
    settings: { STAFF: count, STAFF_SECONDS, THINK_MS, USERS, ENCODING, BUILD_DIR },
    requests: all.length,
    errors: errors.length,
    errorKinds: Object.fromEntries(errorKinds),
    p50: percentile(all, 50),
    p99,
    byPage,
    rss: { idle: rssIdle, after: rssAfter, later: rssLater },
  };
}

// -------------------------------------------------------------------------------------------------------------- main

const servers: Server[] = [];
let stopping = false;
async function stopAll() {
  if (stopping) return;
  stopping = true;
  await Promise.all(servers.map((s) => s.stop()));
}
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    void stopAll().then(() => process.exit(130));
  });
}

try {
  log(`admin ${ADMIN.email}; build ${BUILD_DIR}; ${loadAtStart}`);
  if (loadavg()[0]! > cpus().length / 2) log("warning: the machine is busy; absolute figures will be low (compare ratios)");
  const builds = option("--builds");
  let result: unknown;
  if (builds) {
    log("building bench/bare…");
    buildBare();
    const bare = await startBare();
    servers.push(bare);
    result = await compare(parseBuilds(builds), bare);
  } else if (flag("--staff")) {
    const app = await startBackoffice();
    servers.push(app);
    result = await staff(app);
  } else {
    const app = await startBackoffice();
    servers.push(app);
    log("building bench/bare…");
    buildBare();
    const bare = await startBare();
    servers.push(bare);
    result = await throughput(app, bare);
  }
  if (jsonFile) {
    writeFileSync(jsonFile, `${JSON.stringify(result, null, 2)}\n`);
    log(`results written to ${jsonFile}`);
  }
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await stopAll();
}
