import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { STORAGE_MESSAGES } from "../upstream/src/lib/http";
import { BUILD_DIR, startProductionServer, waitUntilUp, type RunningServer } from "./helpers/server";

/** `/healthz`, writes and the start-up check through the real process: `node $BUILD_DIR/server.js` (the build must exist). */
const servers: RunningServer[] = [];
const mounts: string[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.child.kill("SIGKILL");
  for (const mount of mounts.splice(0)) spawnSync("umount", ["-l", mount]);
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const ADMIN = { email: "admin@health.test", password: "health-password" };
// Ports of its own: the other real-server tests take 3900-4089 (server.test), 4100-4179 (fuzz), 4200-4599
// (server-guard) and 4600-4899 (upload budget).
const port = () => 4900 + Math.floor(Math.random() * 90);

/** A temporary directory, removed after the test. */
function temp(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

function launch(dataDir: string, env: Record<string, string> = {}): RunningServer {
  const server = startProductionServer(port(), dataDir, ADMIN, env);
  servers.push(server);
  return server;
}

async function start(): Promise<{ base: string; dataDir: string }> {
  const dataDir = temp("backoffice-health-");
  const server = launch(dataDir);
  await waitUntilUp(server.base, server);
  return { base: server.base, dataDir };
}

async function token(base: string): Promise<string> {
  const r = await fetch(`${base}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(ADMIN),
  });
  return ((await r.json()) as { token: string }).token;
}

const createUser = (base: string, bearer: string, i: number) =>
  fetch(`${base}/api/auth/users`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${bearer}` },
    body: JSON.stringify({ email: `u${i}@health.test`, firstName: "A", lastName: "B", password: "secret1" }),
  });

/** What a start that must fail printed, once it exited (it must exit, not serve). */
async function failedStart(server: RunningServer): Promise<{ code: number | null; output: string }> {
  const code = await Promise.race([server.exited, new Promise<"running">((r) => setTimeout(() => r("running"), 30_000))]);
  expect(code).not.toBe("running");
  return { code: code as number | null, output: server.output() };
}

/** One line naming the folder and what the server needs; no stack. */
function expectOneLine(output: string, dataDir: string) {
  const lines = output.trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^DATA_DIR \S+ is not writable: the server needs to create and write files there \(.+\)\.$/);
  expect(lines[0]).toContain(`DATA_DIR ${dataDir} `);
}

/** Root can mount a small file system here (CI containers often cannot): the real read-only and full disks. */
const canMount = (() => {
  if (process.getuid?.() !== 0) return false;
  const probe = fs.mkdtempSync(path.join(tmpdir(), "backoffice-mount-probe-"));
  const ok = spawnSync("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", probe]).status === 0;
  if (ok) spawnSync("umount", [probe]);
  fs.rmSync(probe, { recursive: true, force: true });
  return ok;
})();

describe("/healthz tells the truth", { timeout: 60_000 }, () => {
  it("answers 503 with the reason once the database file is deleted, and every write answers 503 too", async () => {
    const { base, dataDir } = await start();
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const bearer = await token(base);
    fs.rmSync(path.join(dataDir, "backoffice.sqlite"));
    const r = await fetch(`${base}/healthz`);
    expect(r.status).toBe(503);
    expect(await r.json()).toEqual({ status: "unavailable", reason: STORAGE_MESSAGES.lost });
    const writes = await Promise.all([1, 2, 3, 4, 5].map((i) => createUser(base, bearer, i)));
    expect(writes.map((w) => w.status)).toEqual([503, 503, 503, 503, 503]);
    expect(await writes[0]!.json()).toEqual({ message: STORAGE_MESSAGES.lost });
  });

  it("answers 503 once the database file is replaced by a copy", async () => {
    const { base, dataDir } = await start();
    const file = path.join(dataDir, "backoffice.sqlite");
    fs.copyFileSync(file, `${file}.restored`);
    fs.renameSync(`${file}.restored`, file);
    expect((await fetch(`${base}/healthz`)).status).toBe(503);
  });

  it.runIf(canMount)("a real full disk (a small tmpfs): writes answer 507 with a message, never 500; /healthz says why", async () => {
    const dataDir = path.join(temp("backoffice-full-"), "data");
    fs.mkdirSync(dataDir);
    expect(spawnSync("mount", ["-t", "tmpfs", "-o", "size=6m", "tmpfs", dataDir]).status).toBe(0);
    mounts.push(dataDir);
    // No demo portfolio: it would fill this disk before the test does.
    const server = launch(dataDir, { PORTFOLIO_DEMO: "0" });
    // Under the free-space threshold from the start: up, but not healthy.
    let health: Response | null = null;
    for (let i = 0; i < 400 && !health; i++) {
      health = await fetch(`${server.base}/healthz`).catch(() => null);
      if (!health) await new Promise((r) => setTimeout(r, 50));
    }
    expect(health!.status).toBe(503);
    expect(((await health!.json()) as { reason: string }).reason).toMatch(/^Insufficient storage: .* MiB free/);
    const bearer = await token(server.base);
    const statuses: number[] = [];
    let last = "";
    for (let i = 0; i < 40 && !statuses.includes(507); i++) {
      const r = await fetch(`${server.base}/api/specifications`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${bearer}` },
        body: JSON.stringify({ name: `Big ${i}`, type: "abstract", description: "d", tags: [], template: "x".repeat(400_000) }),
      });
      statuses.push(r.status);
      last = await r.text();
    }
    expect(statuses.filter((s) => s !== 201 && s !== 507)).toEqual([]);
    expect(statuses.at(-1)).toBe(507);
    expect(JSON.parse(last)).toEqual({ message: STORAGE_MESSAGES.full });
  });
});

describe("a DATA_DIR the server cannot write stops the start with one line", { timeout: 60_000 }, () => {
  it("a DATA_DIR under a file (ENOTDIR, whoever runs it)", async () => {
    const dir = temp("backoffice-notdir-");
    fs.writeFileSync(path.join(dir, "a-file"), "x");
    const dataDir = path.join(dir, "a-file", "data");
    const { code, output } = await failedStart(launch(dataDir));
    expect(code).not.toBe(0);
    expectOneLine(output, dataDir);
  });

  // Root passes permission bits: a read-only directory is checked as a user who is not root (when tests run as root).
  it.runIf(process.getuid?.() === 0)("a directory without write permission, as a user who is not root", () => {
    const dir = temp("backoffice-readonly-");
    fs.chmodSync(dir, 0o555);
    const result = spawnSync(process.execPath, [path.join(BUILD_DIR, "server.js")], {
      uid: 65534,
      gid: 65534,
      timeout: 30_000,
      encoding: "utf8",
      // Typed loosely: the NODE_ENV typing of ProcessEnv does not apply to a child's environment.
      env: {
        PATH: process.env.PATH ?? "",
        HOST: "127.0.0.1",
        PORT: String(port()),
        DATA_DIR: dir,
        NODE_ENV: "production",
        SESSION_SECRET: "test-session-secret-0123456789abcdef",
        COOKIE_SECURE: "false",
        PUBLIC_URL: "http://127.0.0.1",
        BUILD_DIR,
      } as unknown as NodeJS.ProcessEnv,
    });
    expect(result.status).toBe(1);
    expectOneLine(result.stdout + result.stderr, dir);
  });

  it.runIf(canMount)("a read-only mount, as root", async () => {
    const dataDir = path.join(temp("backoffice-romount-"), "data");
    fs.mkdirSync(dataDir);
    expect(spawnSync("mount", ["-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", dataDir]).status).toBe(0);
    mounts.push(dataDir);
    const { code, output } = await failedStart(launch(dataDir));
    expect(code).not.toBe(0);
    expectOneLine(output, dataDir);
  });
});
