/**
 * What both benches share: start the production build on a free loopback port with a fresh data directory, seed it
 * through the API, sign in through the form, read a process's resident memory, build and start the bare Remix app.
 * Nothing here imports the app: the bench talks to the build over HTTP only, like a client.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(BENCH_DIR, "..");
export const BUILD_DIR = path.resolve(ROOT, process.env.BUILD_DIR || "build");

export const ADMIN = { email: "admin@bench.test", password: "bench-admin-password" };
/** Every seeded user's password (≥ 6 characters). */
export const USER_PASSWORD = "bench-user-password";

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A free loopback port (the kernel's pick, released before use: good enough on a quiet machine). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** VmRSS of a process in MB (from /proc/<pid>/status), or NaN when it cannot be read. */
export function rssMb(pid: number | undefined): number {
  if (!pid) return Number.NaN;
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

const CLOCK_TICKS = (() => {
  const result = spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" });
  const ticks = Number(result.stdout?.trim());
  return Number.isFinite(ticks) && ticks > 0 ? ticks : 100;
})();

/**
 * CPU seconds a process has used so far, user + system, all its threads (utime + stime of /proc/<pid>/stat), or NaN.
 * Its difference over a run, divided by the requests served, is the CPU a request costs: other processes' load on
 * the machine slows a server's requests down but barely changes the CPU each one takes.
 */
export function cpuSeconds(pid: number | undefined): number {
  if (!pid) return Number.NaN;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) is in parentheses and may hold spaces: count the fields after its closing one.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return Number.NaN;
  }
}

export type Server = { base: string; port: number; pid: number; process: ChildProcess; stop: () => Promise<void> };

/** How long a server may take to answer after it is started: a busy 2-core machine needs more than a quiet one. */
const START_SECONDS = Number(process.env.BENCH_START_SECONDS) > 0 ? Number(process.env.BENCH_START_SECONDS) : 120;

async function waitUntilUp(url: string, child: ChildProcess, what: string) {
  const deadline = Date.now() + START_SECONDS * 1000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited with code ${child.exitCode}`);
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  // Not left running behind the error: the caller never got it to stop.
  child.kill("SIGKILL");
  throw new Error(`${what} did not answer ${url} within ${START_SECONDS} s (BENCH_START_SECONDS)`);
}

function stopper(child: ChildProcess, cleanup?: () => void) {
  return async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await Promise.race([exited, sleep(12_000)]);
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
    cleanup?.();
  };
}

/**
 * Starts `node $BUILD_DIR/server.js` (or `buildDir`'s) through scripts/start.sh, as `npm start` and the Docker image
 * do (production, embedded upstream, fresh DATA_DIR unless `dataDir` is given — prepared by the caller, removed at
 * stop — no request log); extra `env` optional. A build resolves its packages from the node_modules above it, so a
 * build made in another checkout runs on that checkout's packages.
 */
export async function startBackoffice(
  options: { dataDir?: string; env?: Record<string, string>; buildDir?: string } = {},
): Promise<Server> {
  const buildDir = options.buildDir ? path.resolve(ROOT, options.buildDir) : BUILD_DIR;
  const serverJs = path.join(buildDir, "server.js");
  if (!existsSync(serverJs) || !existsSync(path.join(buildDir, "index.js"))) {
    throw new Error(`No build in ${buildDir}: run \`BUILD_DIR=${options.buildDir ?? (process.env.BUILD_DIR || "build")} npm run build\` first.`);
  }
  const port = await freePort();
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), "backoffice-bench-"));
  // Started as production starts it (npm start, the Docker image): scripts/start.sh sets the allocator, then execs node.
  const child = spawn("sh", [path.join(ROOT, "scripts", "start.sh")], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE: process.execPath,
      NODE_ENV: "production",
      BUILD_DIR: buildDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      SESSION_SECRET: "bench-session-secret-0123456789abcdef",
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      COOKIE_SECURE: "false",
      LOG_REQUESTS: "false",
      // Production requires the site's URL (or ALLOWED_HOSTS): the address the bench calls.
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      ...options.env,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const base = `http://127.0.0.1:${port}`;
  await waitUntilUp(`${base}/healthz`, child, "the Backoffice server");
  return {
    base,
    port,
    pid: child.pid!,
    process: child,
    stop: stopper(child, () => rmSync(dataDir, { recursive: true, force: true })),
  };
}

/** Builds the bare Remix fixture (bench/bare) into bench/bare/build with the root node_modules' Remix compiler. */
export function buildBare() {
  const cwd = path.join(BENCH_DIR, "bare");
  const remix = path.join(ROOT, "node_modules", "@remix-run", "dev", "dist", "cli.js");
  const result = spawnSync(process.execPath, [remix, "build"], {
    cwd,
    env: { ...process.env, NODE_ENV: "production" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (result.status !== 0) throw new Error(`building bench/bare failed (exit ${result.status})`);
}

/** Starts the bare Remix fixture (bench/bare/server.mjs) on a free loopback port. */
export async function startBare(): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(BENCH_DIR, "bare", "server.mjs")], {
    cwd: path.join(BENCH_DIR, "bare"),
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const base = `http://127.0.0.1:${port}`;
  await waitUntilUp(`${base}/`, child, "the bare Remix app");
  return { base, port, pid: child.pid!, process: child, stop: stopper(child) };
}

// ---------------------------------------------------------------------------------------------------------- the API

export async function apiLogin(base: string, email = ADMIN.email, password = ADMIN.password): Promise<string> {
  const response = await fetch(`${base}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  if (!response.ok) throw new Error(`POST /api/auth/login answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}

export async function api<T>(base: string, token: string, method: string, p: string, body?: unknown): Promise<T> {
  const response = await fetch(`${base}${p}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${p} answered ${response.status}: ${text.slice(0, 300)}`);
  return (text ? JSON.parse(text) : null) as T;
}

/** Runs `task` over `items` with at most `limit` at a time. */
export async function pool<T, R>(items: T[], limit: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await task(items[index]!, index);
      }
    }),
  );
  return results;
}

export type Seeded = {
  token: string;
  /** Ids of the seeded users, in creation order (user1 … userN). */
  userIds: string[];
  userEmails: string[];
  organizationId: string;
  specificationId: string;
};

/**
 * Seeds `count` users through `POST /api/auth/users` (user1@bench.test …, password USER_PASSWORD), one organization
 * and one specification.
 */
export async function seed(base: string, count = 1000): Promise<Seeded> {
  const token = await apiLogin(base);
  const organization = await api<{ id: string }>(base, token, "POST", "/api/organizations/", { name: "Bench Organization" });
  const indexes = Array.from({ length: count }, (_, i) => i + 1);
  const users = await pool(indexes, 4, (i) =>
    api<{ id: string; email: string }>(base, token, "POST", "/api/auth/users", {
      firstName: `First${i}`,
      lastName: `Last${String(i).padStart(4, "0")}`,
      email: `user${i}@bench.test`,
      password: USER_PASSWORD,
      organizations: i % 10 === 0 ? [organization.id] : [],
    }),
  );
  const specification = await api<{ id: string }>(base, token, "POST", "/api/specifications/", {
    name: "Bench specification",
    type: "abstract",
    description: "A specification for the bench's detail page.",
    tags: ["bench"],
    template: "Dear {{firstName}} {{lastName}},\n\n{{#each items}}- {{this}}\n{{/each}}",
  });
  return {
    token,
    userIds: users.map((u) => u.id),
    userEmails: users.map((u) => u.email),
    organizationId: organization.id,
    specificationId: specification.id,
  };
}

/** Gives a seeded user a permission set (PATCH /api/auth/users/{id}). */
export async function grant(base: string, token: string, id: string, permissions: string[]) {
  await api(base, token, "PATCH", `/api/auth/users/${encodeURIComponent(id)}`, { id, permissions });
}

/**
 * Signs in through the form (POST /login, same Origin) and answers the cookies to send (`name=value; …`).
 * Throws unless the answer is a redirect that sets a cookie.
 */
export async function signIn(base: string, email = ADMIN.email, password = ADMIN.password): Promise<string> {
  const response = await fetch(`${base}/login`, {
    method: "POST",
    headers: { Origin: base, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email, password, redirectTo: "/" }),
    redirect: "manual",
  });
  await response.arrayBuffer();
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .filter((c) => !/=$/.test(c))
    .join("; ");
  if (response.status < 300 || response.status >= 400 || !cookie) {
    throw new Error(`sign-in as ${email} failed: ${response.status}`);
  }
  return cookie;
}

/** GETs a page with a cookie and throws unless it answers 200 HTML (not the sign-in page). */
export async function checkPage(base: string, p: string, cookie?: string) {
  const response = await fetch(`${base}${p}`, { headers: cookie ? { Cookie: cookie } : {}, redirect: "manual" });
  const html = await response.text();
  if (response.status !== 200) throw new Error(`GET ${p} answered ${response.status} ${response.headers.get("location") ?? ""}`);
  if (!/text\/html/.test(response.headers.get("content-type") ?? "")) throw new Error(`GET ${p} is not HTML`);
  return html;
}

// ------------------------------------------------------------------------------------------------------- statistics

export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Nearest-rank percentile (0–100). */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** A plain-text table (GitHub markdown compatible). */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  return [line(header), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...rows.map(line)].join("\n");
}

export const fmt = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : "–");
