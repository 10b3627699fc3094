import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

/** The real process, `node $BUILD_DIR/server.js` (the build must exist: npm run build / test:unit build first). */
export const BUILD_DIR = process.env.BUILD_DIR || "build";

export type RunningServer = {
  child: ChildProcess;
  base: string;
  port: number;
  exited: Promise<number | null>;
  output: () => string;
};

/** Starts the built server with a clean environment: only PATH, HOST, DATA_DIR, LOG_REQUESTS and what `env` sets. */
export function startServer(port: number, dataDir: string, env: Record<string, string>): RunningServer {
  const child = spawn("node", [path.join(BUILD_DIR, "server.js")], {
    // Typed loosely: the NODE_ENV typing of ProcessEnv does not apply to a child's environment.
    env: {
      PATH: process.env.PATH ?? "",
      HOST: "127.0.0.1",
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_REQUESTS: "false",
      BUILD_DIR,
      ...env,
    } as unknown as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, base: `http://127.0.0.1:${port}`, port, exited, output: () => output };
}

/**
 * `startServer` as production runs it (cookies over plain HTTP, PUBLIC_URL the address it listens on: production
 * requires it or ALLOWED_HOSTS), `admin` the administrator of the new database.
 */
export function startProductionServer(
  port: number,
  dataDir: string,
  admin: { email: string; password: string },
  env: Record<string, string> = {},
): RunningServer {
  return startServer(port, dataDir, {
    NODE_ENV: "production",
    SESSION_SECRET: "test-session-secret-0123456789abcdef",
    COOKIE_SECURE: "false",
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
    ...env,
  });
}

/**
 * Waits until /healthz answers 200 (`timeoutMs` at most: a production start takes about 1 s on a quiet machine, but
 * several servers start at once in a full run on a loaded CI machine). With `server`, stops as soon as it exits; the
 * error says what it printed and what /healthz last answered.
 */
export async function waitUntilUp(base: string, server?: RunningServer, timeoutMs = 40_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  let last = "no answer";
  // A child that exited has an exit code; one killed by a signal has a signal code instead (and no exit code).
  const ended = () => server !== undefined && (server.child.exitCode !== null || server.child.signalCode !== null);
  while (Date.now() < until && !ended()) {
    try {
      const r = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(5_000) });
      if (r.ok) return;
      last = `${r.status} ${await r.text()}`;
    } catch (error) {
      last = String(error);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const end = server && ended() ? ` (it ended: ${server.child.signalCode ?? `exit code ${server.child.exitCode}`})` : "";
  throw new Error(`server did not start${end} (/healthz: ${last})${server ? `:\n${server.output()}` : ""}`);
}

/** Peak resident memory of a process so far, in MB (Linux /proc). */
export async function peakRssMb(pid: number): Promise<number> {
  const { readFile } = await import("node:fs/promises");
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

/** Signs in through the sign-in form (same origin) and returns the cookie header to send. */
export async function signInCookie(base: string, email: string, password: string): Promise<string> {
  const login = await fetch(`${base}/login`, {
    method: "POST",
    headers: { Origin: base, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email, password, redirectTo: "/" }),
    redirect: "manual",
  });
  if (login.status !== 302) throw new Error(`sign-in answered ${login.status}`);
  return login.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}
