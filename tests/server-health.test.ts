import fs from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startProductionServer, waitUntilUp, type RunningServer } from "./helpers/server";

/** Issue 8, item 10, through the real process: `node $BUILD_DIR/server.js` (the build must exist). */
const running: { server: RunningServer; dir: string }[] = [];
afterEach(() => {
  for (const { server, dir } of running.splice(0)) {
    server.child.kill("SIGKILL");
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

async function start(): Promise<{ base: string; dataDir: string }> {
  const dataDir = fs.mkdtempSync(path.join(tmpdir(), "backoffice-health-"));
  // Ports of its own: the other real-server tests take 3900-4089 (server.test), 4100-4179 (fuzz), 4200-4599
  // (server-guard) and 4600-4899 (upload budget).
  const server = startProductionServer(4900 + Math.floor(Math.random() * 90), dataDir, {
    email: "admin@health.test",
    password: "health-password",
  });
  running.push({ server, dir: dataDir });
  await waitUntilUp(server.base, server);
  return { base: server.base, dataDir };
}

describe("/healthz tells the truth", { timeout: 60_000 }, () => {
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
