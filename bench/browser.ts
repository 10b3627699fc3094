/**
 * `npm run bench:browser` — time to painted content of /people against a react-admin 5 list of the same 1,000 users
 * (bench/README.md).
 *
 *   BUILD_DIR=.cache/build-bench npm run build
 *   BUILD_DIR=.cache/build-bench npm run bench:browser [-- --json /tmp/browser.json]
 *
 * Installs bench/react-admin (npm install --prefix) when its node_modules is missing and builds it with the root's
 * Vite into bench/react-admin/dist when the sources are newer. Serves it with its data (ra-data-simple-rest's protocol:
 * GET /api/users?sort=&range=&filter=, Content-Range) from this process, starts the production build, seeds the same
 * users, then loads both in Debian's Chromium: BENCH_BROWSER_RUNS (default 15) fresh-context runs of each,
 * interleaved (ours, theirs, ours, …) after one discarded warm-up each.
 *
 * The first data row is the first `tbody tr` holding an "@" (an email). Its paint time is read with the Element
 * Timing API: the row's first cell's `elementtiming` attribute when the page sets one ("native"), else the bench sets
 * `elementtiming="bench-first-row"` on that cell from a MutationObserver before it can paint ("injected": Chromium
 * reports text paints for the block that holds the text, so the attribute must be on the <td>, not the <tr>).
 * Also reported: when the row entered the DOM, a double requestAnimationFrame after that, first contentful paint.
 *
 * Each run's fresh tab first shows a page of another site (http://localhost:<port>/, served here; both apps are on
 * 127.0.0.1), then navigates: the way a user arrives — from the new-tab page, a bookmark or a mail link — so that
 * both sides start in another site's renderer. BENCH_BROWSER_FROM=blank starts from the tab's initial about:blank
 * instead (the bench's way until 2026-11-26): Chromium then reuses that blank renderer for a page without a
 * Cross-Origin-Opener-Policy (react-admin's server sends none) but must start a new one, after the answer, for a page
 * with one (ours), ~30 ms that no user arriving from elsewhere pays.
 *
 * Both servers are measured warm, as staff meet a server that has been up: before the browser starts, each gets
 * BENCH_BROWSER_WARM (default 300) sequential requests of what its page asks first — ours the `/people` document,
 * react-admin's its index.html and its page of users. A server that has answered only a handful of requests runs
 * their code unoptimized by V8 (an isolated `/people` took 9–12 ms of CPU after 6 requests, 4–7 ms after 300, ~2 ms
 * under load). BENCH_BROWSER_WARM=0 measures them as just started.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import http from "node:http";
import { cpus, loadavg } from "node:os";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { chromium, type Browser, type BrowserContext } from "@playwright/test";
import { BENCH_DIR, BUILD_DIR, api, fmt, freePort, median, seed, signIn, startBackoffice, table, type Server } from "./lib";

const args = process.argv.slice(2);
const jsonFile = (() => {
  const i = args.indexOf("--json");
  return i >= 0 ? args[i + 1] : undefined;
})();
const RUNS = Number(process.env.BENCH_BROWSER_RUNS) > 0 ? Number(process.env.BENCH_BROWSER_RUNS) : 15;
const USERS = Number(process.env.BENCH_USERS) > 0 ? Number(process.env.BENCH_USERS) : 1000;
const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const RA_DIR = path.join(BENCH_DIR, "react-admin");
const FROM_BLANK = process.env.BENCH_BROWSER_FROM === "blank";
const WARM = process.env.BENCH_BROWSER_WARM === undefined ? 300 : Math.max(0, Number(process.env.BENCH_BROWSER_WARM) || 0);
const log = (...parts: unknown[]) => console.error(`[bench:browser ${new Date().toISOString().slice(11, 19)}]`, ...parts);
const machine = () => `${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(2)).join(" / ")}`;
const loadAtStart = machine();

// ------------------------------------------------------------------------------------------ react-admin: install, build

function newestMtime(p: string): number {
  const stat = statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(p).map((name) => newestMtime(path.join(p, name))));
}

async function prepareReactAdmin() {
  if (!existsSync(path.join(RA_DIR, "node_modules"))) {
    log("installing bench/react-admin (npm install --prefix bench/react-admin)…");
    const result = spawnSync("npm", ["install", "--prefix", RA_DIR, "--no-audit", "--no-fund"], { stdio: "inherit" });
    if (result.status !== 0) throw new Error("npm install in bench/react-admin failed");
  }
  const dist = path.join(RA_DIR, "dist", "index.html");
  const sources = Math.max(
    newestMtime(path.join(RA_DIR, "src")),
    newestMtime(path.join(RA_DIR, "index.html")),
    newestMtime(path.join(RA_DIR, "package.json")),
  );
  if (existsSync(dist) && statSync(dist).mtimeMs > sources) return;
  log("building bench/react-admin with Vite…");
  const { build } = await import("vite");
  await build({
    root: RA_DIR,
    configFile: false,
    logLevel: "warn",
    mode: "production",
    esbuild: { jsx: "automatic" },
    resolve: { dedupe: ["react", "react-dom"] },
    build: {
      outDir: path.join(RA_DIR, "dist"),
      emptyOutDir: true,
      reportCompressedSize: false,
      chunkSizeWarningLimit: 5000,
      rollupOptions: {
        // MUI's "use client" directives mean nothing in a client bundle.
        onwarn(warning, warn) {
          if (warning.code !== "MODULE_LEVEL_DIRECTIVE") warn(warning);
        },
      },
    },
  });
}

// ------------------------------------------------------------------------------- react-admin: static files and data

type ApiUser = Record<string, unknown> & { id: string };

/** Compresses like the app's `compression` middleware: brotli quality 4 when accepted, else gzip (level 6). */
function encodeFor(acceptEncoding: string, body: Buffer): { encoding?: string; body: Buffer } {
  if (body.length < 1024) return { body };
  if (/\bbr\b/.test(acceptEncoding)) {
    return { encoding: "br", body: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }) };
  }
  if (/\bgzip\b/.test(acceptEncoding)) return { encoding: "gzip", body: gzipSync(body) };
  return { body };
}

async function startReactAdminServer(users: ApiUser[]): Promise<Server> {
  const dist = path.join(RA_DIR, "dist");
  const types: Record<string, string> = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
  };
  const files = new Map<string, { type: string; body: Buffer; br: Buffer; gzip: Buffer }>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else {
        const body = readFileSync(full);
        files.set(`/${path.relative(dist, full).split(path.sep).join("/")}`, {
          type: types[path.extname(name)] ?? "application/octet-stream",
          body,
          // As ours are (scripts/precompress.mjs): compressed once, at the best levels.
          br: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } }),
          gzip: gzipSync(body, { level: 9 }),
        });
      }
    }
  };
  walk(dist);

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const accept = String(req.headers["accept-encoding"] ?? "");
    const send = (status: number, type: string, body: Buffer, headers: Record<string, string> = {}) => {
      const encoded = encodeFor(accept, body);
      res.writeHead(status, {
        "Content-Type": type,
        "Cache-Control": "no-cache",
        Vary: "Accept-Encoding",
        ...(encoded.encoding ? { "Content-Encoding": encoded.encoding } : {}),
        ...headers,
      });
      res.end(encoded.body);
    };
    if (url.pathname === "/api/users") {
      // ra-data-simple-rest: ?sort=["field","ASC"]&range=[start,end]&filter={}; answers Content-Range.
      const [field, order] = JSON.parse(url.searchParams.get("sort") ?? '["id","ASC"]') as [string, string];
      const [start, end] = JSON.parse(url.searchParams.get("range") ?? "[0,24]") as [number, number];
      const sorted = [...users].sort(
        (a, b) => String(a[field] ?? "").localeCompare(String(b[field] ?? "")) * (order === "DESC" ? -1 : 1),
      );
      const page = sorted.slice(start, end + 1);
      const last = start + Math.max(page.length - 1, 0);
      return send(200, "application/json; charset=utf-8", Buffer.from(JSON.stringify(page)), {
        "Content-Range": `users ${start}-${last}/${users.length}`,
        "X-Total-Count": String(users.length),
      });
    }
    if (url.pathname.startsWith("/api/")) return send(404, "application/json", Buffer.from("{}"));
    const file = files.get(url.pathname) ?? files.get("/index.html")!;
    const body = /\bbr\b/.test(accept) ? file.br : /\bgzip\b/.test(accept) ? file.gzip : file.body;
    res.writeHead(200, {
      "Content-Type": file.type,
      "Cache-Control": "no-cache",
      Vary: "Accept-Encoding",
      ...(body !== file.body ? { "Content-Encoding": /\bbr\b/.test(accept) ? "br" : "gzip" } : {}),
    });
    res.end(body);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    pid: process.pid,
    process: process as never,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// ------------------------------------------------------------------------------------------------------ measuring

/**
 * Runs in the page before any of its scripts (addInitScript). Plain JavaScript in a string: a function here would be
 * transformed by tsx (helpers such as __name that do not exist in the page).
 */
const MEASURE = `(() => {
  const state = { method: null };
  window.__bench = state;
  let stopMarking = null;
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        if (e.identifier === "first-row" || e.identifier === "bench-first-row") {
          const t = e.renderTime || e.loadTime;
          if (state.elementTiming === undefined || t < state.elementTiming) {
            state.elementTiming = t;
            const el = e.element;
            state.elementTimingElement = el ? el.tagName.toLowerCase() + (el.className && typeof el.className === "string" ? "." + el.className.trim().split(/\\s+/).join(".") : "") : null;
          }
          state.elementTimingIdentifier = e.identifier;
        }
      }
    }).observe({ type: "element", buffered: true });
    state.elementTimingSupported = true;
  } catch {
    state.elementTimingSupported = false;
  }
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.name === "first-contentful-paint") state.fcp = e.startTime;
    }).observe({ type: "paint", buffered: true });
  } catch {}
  // Our page only: when Remix's entry creates its router (hydration begins): what deferring the scripts costs.
  try {
    Object.defineProperty(window, "__remixRouter", {
      configurable: true,
      set(value) {
        state.hydrationStart = performance.now();
        Object.defineProperty(window, "__remixRouter", { value, writable: true, configurable: true });
      },
    });
  } catch {}
  const findRow = () => {
    for (const tr of document.querySelectorAll("tbody tr")) if (tr.textContent && tr.textContent.includes("@")) return tr;
    return null;
  };
  const observer = new MutationObserver(() => {
    const row = findRow();
    if (!row) return;
    observer.disconnect();
    state.inDom = performance.now();
    const marked = row.querySelector("[elementtiming]") || (row.hasAttribute("elementtiming") ? row : null);
    if (marked) {
      state.method = "native (" + marked.tagName.toLowerCase() + ' elementtiming="' + marked.getAttribute("elementtiming") + '")';
    } else {
      // On every element of the row: Chromium reports a text paint for the block that holds the text (a <td>, or a
      // flex item such as a link in a flex cell), never for the <tr>; the earliest entry is the row's paint.
      // The parser may still be adding the row's cells: mark those too until the row has painted.
      const mark = () => { for (const el of [row, ...row.querySelectorAll("*")]) if (!el.hasAttribute("elementtiming")) el.setAttribute("elementtiming", "bench-first-row"); };
      mark();
      const more = new MutationObserver(mark);
      more.observe(row, { childList: true, subtree: true });
      stopMarking = () => more.disconnect();
      state.method = "injected (elementtiming set on the row's elements by the bench before paint)";
    }
    requestAnimationFrame(() => requestAnimationFrame(() => {
      state.doubleRaf = performance.now();
      const nav = performance.getEntriesByType("navigation")[0];
      if (nav) { state.responseStart = nav.responseStart; state.responseEnd = nav.responseEnd; }
      if (stopMarking) stopMarking();
    }));
  });
  observer.observe(document, { childList: true, subtree: true, characterData: true });
})();`;

type Sample = {
  side: "ours" | "react-admin";
  elementTiming: number | null;
  method: string;
  /** The element whose Element Timing entry came first (tag.class). */
  paintedElement: string | null;
  inDom: number;
  doubleRaf: number;
  fcp: number | null;
  hydrationStart: number | null;
  /** The document's first and last byte (Navigation Timing). */
  responseStart: number;
  responseEnd: number;
  jsFiles: number;
  jsTransferred: number;
  jsGzip: number;
  jsEncodings: string[];
};

/** "Another site" for each run's tab to show first: one small page, on a host name neither app uses. */
async function startOtherSite(): Promise<{ url: string; stop: () => Promise<void> }> {
  const page = Buffer.from("<!doctype html><html lang=en><title>Another site</title><p>Another site.</p></html>");
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" });
    res.end(page);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { url: `http://localhost:${port}/`, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function measure(
  browser: Browser,
  side: Sample["side"],
  url: string,
  cookies: Parameters<BrowserContext["addCookies"]>[0],
  from: string | null,
): Promise<Sample> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    if (cookies.length) await context.addCookies(cookies);
    await context.addInitScript({ content: MEASURE });
    const page = await context.newPage();
    const scripts: Promise<{ transferred: number; gzip: number; encoding: string }>[] = [];
    page.on("response", (response) => {
      const type = response.headers()["content-type"] ?? "";
      if (response.request().resourceType() !== "script" && !/javascript/.test(type)) return;
      scripts.push(
        (async () => {
          const [sizes, body] = await Promise.all([response.request().sizes(), response.body()]);
          return {
            transferred: sizes.responseBodySize,
            gzip: gzipSync(body, { level: 6 }).length,
            encoding: response.headers()["content-encoding"] ?? "identity",
          };
        })(),
      );
    });
    if (from) await page.goto(from, { waitUntil: "load", timeout: 60_000 });
    await page.goto(url, { waitUntil: "load", timeout: 60_000 });
    await page.waitForFunction(() => {
      const s = (window as Window & { __bench?: Record<string, unknown> }).__bench;
      // The element entry normally arrives with the paint; give up on it 3 s after the double rAF.
      const late = typeof s?.doubleRaf === "number" && performance.now() - s.doubleRaf > 3000;
      return Boolean(s && s.doubleRaf !== undefined && (s.elementTiming !== undefined || !s.elementTimingSupported || late));
    }, undefined, { timeout: 30_000 }).catch(() => undefined);
    // Late element entries and lazily loaded chunks: a short quiet period.
    await page.waitForLoadState("networkidle", { timeout: 5_000 }).catch(() => undefined);
    const state = (await page.evaluate(() => (window as Window & { __bench?: Record<string, unknown> }).__bench)) ?? {};
    if (state.inDom === undefined) throw new Error(`${side}: no data row appeared at ${page.url()}`);
    const js = await Promise.all(scripts);
    return {
      side,
      elementTiming: typeof state.elementTiming === "number" ? state.elementTiming : null,
      method: String(state.method),
      paintedElement: typeof state.elementTimingElement === "string" ? state.elementTimingElement : null,
      inDom: state.inDom as number,
      doubleRaf: state.doubleRaf as number,
      fcp: typeof state.fcp === "number" ? state.fcp : null,
      hydrationStart: typeof state.hydrationStart === "number" ? state.hydrationStart : null,
      responseStart: state.responseStart as number,
      responseEnd: state.responseEnd as number,
      jsFiles: js.length,
      jsTransferred: js.reduce((n, s) => n + s.transferred, 0),
      jsGzip: js.reduce((n, s) => n + s.gzip, 0),
      jsEncodings: [...new Set(js.map((s) => s.encoding))],
    };
  } finally {
    await context.close();
  }
}

// ---------------------------------------------------------------------------------------------------------------- main

const stops: (() => Promise<void>)[] = [];
let browser: Browser | undefined;
try {
  await prepareReactAdmin();
  const app = await startBackoffice();
  stops.push(app.stop);
  log(`seeding ${USERS} users through the API…`);
  const seeded = await seed(app.base, USERS);
  const users: ApiUser[] = [];
  for (let page = 1; ; page++) {
    const answer = await api<{ items: ApiUser[]; total: number }>(app.base, seeded.token, "GET", `/api/auth/users?page=${page}&pageSize=200`);
    users.push(...answer.items);
    if (users.length >= answer.total || answer.items.length === 0) break;
  }
  const ra = await startReactAdminServer(users);
  stops.push(ra.stop);
  const cookie = await signIn(app.base);
  const cookies = cookie.split("; ").map((pair) => {
    const i = pair.indexOf("=");
    return { name: pair.slice(0, i), value: pair.slice(i + 1), domain: "127.0.0.1", path: "/" };
  });

  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
      // Chromium 156 builds its omnibox popup (a WebUI page of ~400 chrome:// modules in its own renderer) for every new
      // context: a browser's own UI, loaded once per window in real use, here once per run, taking ~370 ms of CPU in
      // the first 400 ms on this 2-core machine, from both sides alike. BENCH_BROWSER_OMNIBOX=1 keeps it (the old way).
      ...(process.env.BENCH_BROWSER_OMNIBOX === "1" ? [] : ["--disable-features=WebUIOmniboxPopup,WebUIOmniboxFullPopup,WebUIOmniboxAimPopup"]),
    ],
  });
  const other = FROM_BLANK ? null : await startOtherSite();
  if (other) stops.push(other.stop);
  const from = other?.url ?? null;
  const ours = () => measure(browser!, "ours", `${app.base}/people`, cookies, from);
  const theirs = () => measure(browser!, "react-admin", `${ra.base}/#/users`, [], from);
  if (WARM > 0) {
    log(`warming both servers: ${WARM} requests of each page's first answers…`);
    const cookieHeader = cookies.map((c) => `${c.name}=${c.value}`).join("; ");
    const page = { accept: "text/html", "accept-encoding": "gzip, deflate, br" };
    const raPage = `${ra.base}/api/users?${new URLSearchParams({ sort: '["id","ASC"]', range: "[0,24]", filter: "{}" })}`;
    for (let i = 0; i < WARM; i++) {
      for (const [url, headers] of [
        [`${app.base}/people`, { ...page, cookie: cookieHeader }],
        [`${ra.base}/`, page],
        [raPage, { accept: "application/json", "accept-encoding": "gzip, deflate, br" }],
      ] as const) {
        const res = await fetch(url, { headers, redirect: "manual" });
        if (res.status !== 200) throw new Error(`warming ${url}: ${res.status}`);
        await res.arrayBuffer();
      }
    }
  }
  log("warm-up (one run each, discarded)…");
  await ours();
  await theirs();
  const samples: Sample[] = [];
  for (let i = 1; i <= RUNS; i++) {
    for (const run of [ours, theirs]) {
      const sample = await run();
      samples.push(sample);
      log(`run ${i}/${RUNS} ${sample.side}: element timing ${fmt(sample.elementTiming ?? Number.NaN, 0)} ms, in DOM ${fmt(sample.inDom, 0)} ms, double rAF ${fmt(sample.doubleRaf, 0)} ms (first entry: ${sample.paintedElement})`);
    }
  }

  const sides = (["ours", "react-admin"] as const).map((side) => {
    const list = samples.filter((s) => s.side === side);
    const stat = (values: number[]) => ({ median: median(values), min: Math.min(...values), max: Math.max(...values) });
    return {
      side,
      runs: list.length,
      method: [...new Set(list.map((s) => s.method))].join("; "),
      elementTiming: stat(list.flatMap((s) => (s.elementTiming === null ? [] : [s.elementTiming]))),
      elementTimingMissing: list.filter((s) => s.elementTiming === null).length,
      inDom: stat(list.map((s) => s.inDom)),
      doubleRaf: stat(list.map((s) => s.doubleRaf)),
      fcp: stat(list.flatMap((s) => (s.fcp === null ? [] : [s.fcp]))),
      hydrationStart: stat(list.flatMap((s) => (s.hydrationStart === null ? [] : [s.hydrationStart]))),
      responseStart: stat(list.map((s) => s.responseStart)),
      jsFiles: median(list.map((s) => s.jsFiles)),
      jsTransferred: median(list.map((s) => s.jsTransferred)),
      jsGzip: median(list.map((s) => s.jsGzip)),
      jsEncodings: [...new Set(list.flatMap((s) => s.jsEncodings))].join(", "),
    };
  });
  const [o, t] = sides as [(typeof sides)[0], (typeof sides)[0]];
  const ms = (s: { median: number; min: number; max: number }) => `${fmt(s.median, 0)} (${fmt(s.min, 0)}–${fmt(s.max, 0)})`;
  const kb = (bytes: number) => `${fmt(bytes / 1024, 1)} KB`;
  const out = [
    `## npm run bench:browser — ${new Date().toISOString()}`,
    "",
    `Build ${BUILD_DIR}; ${USERS} users, 25 rows; Chromium ${browser.version()} (headless, ${CHROMIUM}); ${RUNS} fresh-context ` +
      `runs each, interleaved, after a discarded warm-up` +
      (WARM > 0 ? ` and ${WARM} requests to each server of what its page asks first` : ", the servers just started (BENCH_BROWSER_WARM=0)") +
      `, each tab ` +
      (from ? `showing another site first (${from})` : "starting at about:blank (BENCH_BROWSER_FROM=blank)") +
      `. Times in ms from navigation start: median (min–max).`,
    `Machine at start: ${loadAtStart}; at the end: ${machine()}.`,
    "",
    table(
      ["", "first row painted (Element Timing)", "document's first byte", "row in DOM", "double rAF after row", "FCP", "hydration starts", "JS files", "JS transferred", "JS gzip -6"],
      sides.map((s) => [
        s.side === "ours" ? "ours: /people" : "react-admin 5 List + DataTable",
        ms(s.elementTiming) + (s.elementTimingMissing ? ` [${s.elementTimingMissing} runs without an entry]` : ""),
        ms(s.responseStart),
        ms(s.inDom),
        ms(s.doubleRaf),
        ms(s.fcp),
        Number.isFinite(s.hydrationStart.median) ? ms(s.hydrationStart) : "–",
        fmt(s.jsFiles, 0),
        `${kb(s.jsTransferred)} (${s.jsEncodings})`,
        kb(s.jsGzip),
      ]),
    ),
    "",
    `ours ÷ react-admin, first row painted (medians): ${fmt(o.elementTiming.median / t.elementTiming.median, 2)} (goal ≤ 0.25); ` +
      `double rAF: ${fmt(o.doubleRaf.median / t.doubleRaf.median, 2)}.`,
    `JavaScript on /people: ${kb(o.jsGzip)} gzip (goal ≤ 100 KB).`,
    `Paint method — ours: ${o.method}; react-admin: ${t.method}.`,
  ];
  console.log(out.join("\n"));
  if (jsonFile) {
    writeFileSync(jsonFile, `${JSON.stringify({ scenario: "browser", settings: { RUNS, USERS, BUILD_DIR, from, WARM }, sides, samples }, null, 2)}\n`);
    log(`results written to ${jsonFile}`);
  }
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await browser?.close().catch(() => undefined);
  for (const stop of stops.reverse()) await stop().catch(() => undefined);
}
