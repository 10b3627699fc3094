/**
 * `npm run bench:canvas` — the template editor's canvas (bench/README.md "Canvas"):
 *
 *   BUILD_DIR=.cache/build-bench npm run build
 *   BUILD_DIR=.cache/build-bench npm run bench:canvas [-- --steps 300 --runs 5]
 *
 * 1. The chunk: the canvas's JavaScript (the lazily imported Canvas.client chunk and the chunks only it imports),
 *    gzipped at level 6 as the compression middleware does, read from the build's esbuild metafile; and that no
 *    route's preloaded JavaScript (its static imports) holds @xyflow or elkjs.
 * 2. Time to interactive: a generated template of N steps (bench/graph.ts's, ~2N paths, laid out on a grid) opened in
 *    Debian's Chromium, from the navigation's start until a node can be dragged (its element is drawn and xyflow has
 *    made it draggable); each run in a fresh context, median of the runs; the last run drags the node to check.
 * 3. Dragging a node at N steps under a Chromium trace: the intervals between frames drawn (DrawFrame) and
 *    the longest main-thread task while the mouse moves; the trace is kept in .cache/bench-canvas-trace.json.
 */
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { chromium, type Browser, type Page } from "@playwright/test";
import { generatedTemplate } from "./graph";
import { ADMIN, BUILD_DIR, ROOT, api, apiLogin, cpuSeconds, fmt, median, percentile, signIn, startBackoffice, table, type Server } from "./lib";

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const STEPS = Number(arg("steps") ?? 300);
const RUNS = Number(arg("runs") ?? 5);
const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const log = (...parts: unknown[]) => console.error(`[bench:canvas ${new Date().toISOString().slice(11, 19)}]`, ...parts);

// ------------------------------------------------------------------------------------------------------- the chunk
type Output = { imports: { path: string; kind: string }[]; entryPoint?: string; inputs: Record<string, unknown> };
function chunkFigures() {
  const meta = JSON.parse(readFileSync(path.join(BUILD_DIR, "metafile.js.json"), "utf8")) as { outputs: Record<string, Output> };
  const outputs = meta.outputs;
  const file = (f: string) => path.resolve(ROOT, f);
  const closure = (entries: string[]) => {
    const seen = new Set<string>();
    const visit = (f: string) => {
      if (seen.has(f)) return;
      seen.add(f);
      for (const i of outputs[f]?.imports ?? []) if (i.kind === "import-statement") visit(i.path);
    };
    entries.forEach(visit);
    return seen;
  };
  const entryOf = (name: string) => Object.keys(outputs).find((f) => outputs[f]!.entryPoint?.includes(name))!;
  const canvas = Object.keys(outputs).find((f) => f.endsWith(".js") && Object.keys(outputs[f]!.inputs).some((i) => i.endsWith("Canvas.client.tsx")));
  if (!canvas) throw new Error("No Canvas.client chunk in the build");
  const page = closure(["entry.client", "root.tsx", "routes/_app.tsx", "routes/_app.workflows.$id.milestones_.$milestoneId.tsx"].map(entryOf));
  const own = [...closure([canvas])].filter((f) => !page.has(f));
  const gzip = own.reduce((n, f) => n + gzipSync(readFileSync(file(f)), { level: 6 }).length, 0);
  const routes = Object.keys(outputs).filter((f) => outputs[f]!.entryPoint?.startsWith("browser-route-module:routes/"));
  const heavy = routes.filter((r) =>
    [...closure([r])].some((f) => Object.keys(outputs[f]!.inputs).some((i) => i.includes("node_modules/@xyflow") || i.includes("node_modules/elkjs"))),
  );
  return { gzipKb: gzip / 1024, files: own.length, routes: routes.length, heavy };
}

// --------------------------------------------------------------------------------------------- the 300-step template
function template300() {
  const graph = generatedTemplate(STEPS);
  // A grid in path order (the generator leaves every step at 0,0): layers of four, left to right.
  const steps = graph.steps.map((s, i) => ({ ...s, display: { position: { x: Math.floor(i / 4) * 260, y: (i % 4) * 120 } } }));
  return { ...graph, steps };
}

/** A workflow holding the generated template (PUT through the API), its editor's URL and a signed-in cookie. */
async function editorOf(server: Server) {
  const token = await apiLogin(server.base, ADMIN.email, ADMIN.password);
  const base = "/api/workflows/v2/workflows";
  const workflow = await api<{ id: string }>(server.base, token, "POST", base, { title: "Canvas bench", clientCodes: ["CANVAS-BENCH"] });
  const events = [{ type: "create", code: "portfolio.application.created", predicates: [], action: { title: "Bench" } }];
  const created = await api<{ id: string }>(server.base, token, "POST", `${base}/${workflow.id}/milestones/draft/template`, { data: { title: "Bench", events } });
  const graph = template300();
  await api(server.base, token, "PUT", `${base}/${workflow.id}/milestones/${created.id}`, { title: "Bench", events, ...graph });
  // `--draft`: the template has a draft too (as it has while a user without JavaScript edits it), one step retitled.
  if (process.argv.includes("--draft")) {
    const steps = graph.steps.map((s, i) => (i === 3 ? { ...s, title: `${s.title} (draft)` } : s));
    await api(server.base, token, "PUT", `${base}/${workflow.id}/milestones/${created.id}/draft`, { title: "Bench", events, ...graph, steps });
  }
  const url = `${server.base}/workflows/${workflow.id}/milestones/${created.id}`;
  return { graph, url, cookie: await signIn(server.base) };
}

/**
 * `--server`: the editor's document on the server alone, no browser: GET of the page REQUESTS times one after another
 * with the signed-in cookie (after 5 warm-up requests), and the same for its loader's data alone (`?_data=`, the
 * loader without the render), p50/p99 and bytes; the server's CPU per document from /proc.
 */
async function serverMode() {
  const requests = Number(arg("requests") ?? 50);
  const server = await startBackoffice();
  try {
    const { graph, url, cookie } = await editorOf(server);
    const get = async (u: string) => {
      const t0 = performance.now();
      const response = await fetch(u, { headers: { Cookie: cookie }, redirect: "manual" });
      const body = await response.arrayBuffer();
      const ms = performance.now() - t0;
      if (response.status !== 200) throw new Error(`GET ${u} answered ${response.status}`);
      return { ms, bytes: body.byteLength };
    };
    const series = async (u: string) => {
      for (let i = 0; i < 5; i++) await get(u);
      const cpu0 = cpuSeconds(server.pid);
      const runs: { ms: number; bytes: number }[] = [];
      for (let i = 0; i < requests; i++) runs.push(await get(u));
      const cpuMs = ((cpuSeconds(server.pid) - cpu0) * 1000) / requests;
      const ms = runs.map((r) => r.ms);
      return { p50: percentile(ms, 50), p99: percentile(ms, 99), cpuMs, kb: runs[0]!.bytes / 1024 };
    };
    const route = "routes/_app.workflows.$id.milestones_.$milestoneId";
    const document = await series(url);
    const data = await series(`${url}?_data=${encodeURIComponent(route)}`);
    console.log(
      table(
        ["steps / paths", "requests", "document p50 / p99", "document CPU / request", "document size", "loader alone p50 / p99", "loader data size"],
        [
          [
            `${graph.steps.length} / ${graph.paths.length}`,
            String(requests),
            `${fmt(document.p50)} / ${fmt(document.p99)} ms`,
            `${fmt(document.cpuMs)} ms`,
            `${fmt(document.kb, 0)} KB`,
            `${fmt(data.p50)} / ${fmt(data.p99)} ms`,
            `${fmt(data.kb, 0)} KB`,
          ],
        ],
      ),
    );
    console.log(JSON.stringify({ steps: graph.steps.length, paths: graph.paths.length, requests, document, loader: data }));
  } finally {
    await server.stop();
  }
}

async function main() {
  if (process.argv.includes("--server")) return serverMode();
  const chunk = chunkFigures();
  log(`canvas chunk ${fmt(chunk.gzipKb)} KB gzip in ${chunk.files} files; routes preloading @xyflow/elkjs: ${chunk.heavy.length}/${chunk.routes}`);

  const server = await startBackoffice();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu", "--no-first-run"] });
  try {
    const { graph, url, cookie } = await editorOf(server);
    const cookies = cookie.split("; ").map((c) => {
      const [name, ...value] = c.split("=");
      return { name: name!, value: value.join("="), url: server.base };
    });
    const target = graph.steps.find((s) => s.type === "task")!.id;

    const tti: number[] = [];
    const own: number[] = [];
    const documents: number[] = [];
    let traced: { frames: number[]; longest: number; moved: boolean } | null = null;
    for (let run = 0; run <= RUNS; run++) {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      await context.addCookies(cookies);
      const page = await context.newPage();
      page.on("pageerror", (e) => log("page error:", e.message));
      page.on("console", (m) => m.type() === "error" && log("console:", m.text()));
      // Polls each frame from the first script on: the moment the target node is drawn and draggable.
      // A string, not a function: tsx's transform would add helpers the page does not have.
      await page.addInitScript(`(() => {
        const check = () => {
          const el = document.querySelector('.react-flow__node[data-id="${target}"]');
          if (el && el.classList.contains("draggable")) {
            window.__interactive = performance.now();
            window.__requested = performance.getEntriesByName("canvas-requested")[0]?.startTime ?? NaN;
          }
          else requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      })();`);
      await page.goto(url, { waitUntil: "commit", timeout: 60_000 });
      await page
        .waitForFunction(() => (window as unknown as { __interactive?: number }).__interactive !== undefined, undefined, { timeout: 240_000 })
        .catch(async (error: unknown) => {
          log("not interactive; the page shows:", (await page.locator("main").innerText().catch(() => "")).slice(0, 500));
          await page.screenshot({ path: path.join(ROOT, ".cache", "bench-canvas-failed.png") });
          throw error;
        });
      const [at, requested] = await page.evaluate(() => {
        const w = window as unknown as { __interactive: number; __requested: number };
        return [w.__interactive, w.__requested];
      });
      const nav = await page.evaluate(() => {
        const n = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
        return { response: n.responseEnd, bytes: n.transferSize };
      });
      if (run > 0) {
        // The first run warms the server and the disk cache.
        tti.push(at);
        own.push(at - requested);
        documents.push(nav.response);
      }
      log(
        `run ${run}: document in ${fmt(nav.response)} ms (${fmt(nav.bytes / 1024, 0)} KB), canvas requested at ${fmt(requested)} ms, ` +
          `interactive at ${fmt(at)} ms${run === 0 ? " (warm-up, not counted)" : ""}`,
      );
      if (run === RUNS) traced = await dragUnderTrace(page, browser);
      await context.close();
    }
    const t = traced!;
    const figures = {
      steps: graph.steps.length,
      paths: graph.paths.length,
      chunkGzipKb: Number(chunk.gzipKb.toFixed(1)),
      routesPreloadingCanvas: chunk.heavy.length,
      routes: chunk.routes,
      ttiMs: { median: Number(median(tti).toFixed(0)), max: Number(Math.max(...tti).toFixed(0)), runs: tti.length },
      documentMs: Number(median(documents).toFixed(0)),
      canvasStartMs: Number(median(own).toFixed(0)),
      drag: {
        frames: t.frames.length,
        p50: Number(percentile(t.frames, 50).toFixed(1)),
        p95: Number(percentile(t.frames, 95).toFixed(1)),
        max: Number(Math.max(...t.frames).toFixed(1)),
        longestTask: Number(t.longest.toFixed(1)),
        moved: t.moved,
      },
    };
    console.log(
      table(
        ["steps / paths", "chunk (gzip)", "routes preloading it", "interactive (median, max)", "of which: document / canvas chunk → draggable", "drag frames p50 / p95 / max", "longest task in drag"],
        [
          [
            `${figures.steps} / ${figures.paths}`,
            `${fmt(figures.chunkGzipKb)} KB`,
            `${figures.routesPreloadingCanvas} of ${figures.routes}`,
            `${figures.ttiMs.median} ms, ${figures.ttiMs.max} ms (${figures.ttiMs.runs} runs)`,
            `${figures.documentMs} ms / ${figures.canvasStartMs} ms`,
            `${fmt(figures.drag.p50)} / ${fmt(figures.drag.p95)} / ${fmt(figures.drag.max)} ms (${figures.drag.frames} frames)`,
            `${fmt(figures.drag.longestTask)} ms`,
          ],
        ],
      ),
    );
    console.log(JSON.stringify(figures));
  } finally {
    await browser.close();
    await server.stop();
  }
}

/**
 * Drags the node nearest the canvas's middle, zoomed in to a usable size, 300 px right and 100 px down in 60 mouse
 * moves under a Chromium trace: the intervals between frames drawn, the longest task of the busiest thread (the
 * renderer's main thread), both from press to release, and whether the node moved.
 */
async function dragUnderTrace(page: Page, browser: Browser) {
  await page.locator(".react-flow").scrollIntoViewIfNeeded();
  // The node drawn nearest the middle of the canvas: at 300 steps the graph is wider than the view can fit at its
  // least zoom, so the first task may lie outside it.
  const id = await page.evaluate(() => {
    const pane = document.querySelector(".react-flow")!.getBoundingClientRect();
    const [cx, cy] = [pane.x + pane.width / 2, pane.y + pane.height / 2];
    let best: [number, string] = [Infinity, ""];
    for (const el of document.querySelectorAll<HTMLElement>(".react-flow__node.draggable")) {
      const r = el.getBoundingClientRect();
      const d = Math.hypot(r.x + r.width / 2 - cx, r.y + r.height / 2 - cy);
      if (d < best[0]) best = [d, el.dataset.id ?? ""];
    }
    return best[1];
  });
  const node = page.locator(`.react-flow__node[data-id="${id}"]`);
  // At 300 steps the fitted view draws a node ~20×8 px, too small to press reliably: zoom in around its middle with
  // the wheel (xyflow zooms about the pointer) until it is drawn at a usable size, then press its middle.
  for (let i = 0; i < 20; i++) {
    const b = (await node.boundingBox())!;
    if (b.width >= 120) break;
    await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
    await page.mouse.wheel(0, -200);
    await page.waitForTimeout(150);
  }
  const box = (await node.boundingBox())!;
  const before = await node.evaluate((el) => (el as HTMLElement).style.transform);
  await browser.startTracing(page, { categories: ["devtools.timeline", "disabled-by-default-devtools.timeline.frame", "toplevel"] });
  const [x0, y0] = [box.x + box.width / 2, box.y + box.height / 2];
  log(`dragging node ${id}, drawn ${fmt(box.width, 0)}×${fmt(box.height, 0)} px at ${fmt(x0, 0)},${fmt(y0, 0)}`);
  await page.mouse.move(x0, y0);
  await page.mouse.down();
  for (let i = 1; i <= 60; i++) {
    await page.mouse.move(x0 + i * 5, y0 + i * (100 / 60));
    await page.waitForTimeout(16);
  }
  await page.mouse.up();
  await page.waitForTimeout(200);
  const trace = JSON.parse((await browser.stopTracing()).toString("utf8")) as { traceEvents: { name: string; ts: number; dur?: number; ph: string; pid: number; tid: number; args?: Record<string, unknown> }[] };
  const after = await node.evaluate((el) => (el as HTMLElement).style.transform);
  mkdirSync(path.join(ROOT, ".cache"), { recursive: true });
  writeFileSync(path.join(ROOT, ".cache", "bench-canvas-trace.json"), JSON.stringify(trace));
  const events = trace.traceEvents;
  // The drag's window: from the press to the release the page dispatched.
  const dispatched = (type: string) => events.filter((e) => e.name === "EventDispatch" && (e.args?.data as { type?: string } | undefined)?.type === type).map((e) => e.ts);
  const [start, end] = [Math.min(...dispatched("mousedown")), Math.max(...dispatched("mouseup"))];
  const within = (e: { ts: number }) => e.ts >= start && e.ts <= end;
  // Frames drawn (the compositor's DrawFrame), not BeginFrame: the compositor begins a frame every 16.7 ms whatever
  // the main thread does, so its intervals hide a drag that redraws a few times a second.
  const drawn = events.filter((e) => e.name === "DrawFrame" && e.ph !== "E" && within(e)).map((e) => e.ts).sort((a, b) => a - b);
  const frames = drawn.slice(1).map((ts, i) => (ts - drawn[i]!) / 1000);
  // The renderer's main thread: the thread whose RunTasks take longest in total.
  const threads = new Map<string, number>();
  const isTask = (e: { name: string }) => e.name === "RunTask" || e.name === "ThreadControllerImpl::RunTask";
  for (const e of events) if (isTask(e) && e.dur) threads.set(`${e.pid}:${e.tid}`, (threads.get(`${e.pid}:${e.tid}`) ?? 0) + e.dur);
  const busiest = [...threads.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  const longest = Math.max(0, ...events.filter((e) => isTask(e) && within(e) && `${e.pid}:${e.tid}` === busiest).map((e) => (e.dur ?? 0) / 1000));
  log(`drag: ${drawn.length} frames drawn in ${fmt((end - start) / 1000, 0)} ms of dragging`);
  return { frames, longest, moved: before !== after };
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
