import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

/** Issue 8, item 10, through the real process: `node $BUILD_DIR/server.js` (the build must exist). */
const BUILD_DIR = process.env.BUILD_DIR || "build";

const running: { child: ChildProcess; dir: string }[] = [];
afterEach(() => {
  for (const { child, dir } of running.splice(0)) {
    child.kill("SIGKILL");
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

async function start(): Promise<{ base: string; dataDir: string }> {
  const dataDir = fs.mkdtempSync(path.join(tmpdir(), "backoffice-health-"));
  const port = 4100 + Math.floor(Math.random() * 800);
  const child = spawn("node", [path.join(BUILD_DIR, "server.js")], {
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      DATA_DIR: dataDir,
      BUILD_DIR,
      LOG_REQUESTS: "false",
      SESSION_SECRET: "health-test-secret-0123456789",
      COOKIE_SECURE: "false",
      ADMIN_EMAIL: "admin@health.test",
      ADMIN_PASSWORD: "health-password",
    } as unknown as NodeJS.ProcessEnv,
    stdio: "ignore",
  });
  running.push({ child, dir: dataDir });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return { base, dataDir };
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("server did not start");
}

describe("/healthz tells the truth", () => {
  it("answers 503 once the database file is deleted", async () => {
    const { base, dataDir } = await start();
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    fs.rmSync(path.join(dataDir, "backoffice.sqlite"));
    const r = await fetch(`${base}/healthz`);
    expect(r.status).toBe(503);
    expect(await r.json()).toEqual({ status: "unavailable" });
  });

  it("answers 503 once the database file is replaced by a copy", async () => {
    const { base, dataDir } = await start();
    const file = path.join(dataDir, "backoffice.sqlite");
    fs.copyFileSync(file, `${file}.restored`);
    fs.renameSync(`${file}.restored`, file);
    expect((await fetch(`${base}/healthz`)).status).toBe(503);
  });
});
