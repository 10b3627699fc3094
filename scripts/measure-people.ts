/**
 * Measures the people list: seeds USERS users (default 1000) in a fresh data directory, starts the built server,
 * signs in, renders /people RUNS times (server render, document request) and reports the median and p90, and the
 * gzip size of the JavaScript the page loads.
 *
 *   npm run build && npx tsx scripts/measure-people.ts
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { hashPasswordSync } from "../upstream/src/auth/passwords";
import { UsersStore } from "../upstream/src/people/store";
import { openDatabase } from "../upstream/src/db";

const USERS = Number(process.env.USERS ?? 1000);
const RUNS = Number(process.env.RUNS ?? 50);
const PORT = Number(process.env.PORT ?? 3590);
const BUILD_DIR = process.env.BUILD_DIR || "build";
const base = `http://127.0.0.1:${PORT}`;
const admin = { email: "admin@measure.test", password: "measure-password" };

const dataDir = mkdtempSync(path.join(tmpdir(), "backoffice-measure-"));
{
  const db = openDatabase(dataDir);
  const users = new UsersStore(db, Date.now);
  const hash = hashPasswordSync("not-used-0");
  db.transaction(() => {
    users.create(
      { email: admin.email, firstName: "Meg", lastName: "Sure", passwordHash: hashPasswordSync(admin.password), isBot: false, scriptKey: null, organizations: [], permissions: ["users"] },
      null,
    );
    for (let i = 1; i < USERS; i++) {
      users.create(
        { email: `user${i}@measure.test`, firstName: `First${i}`, lastName: `Last${i}`, passwordHash: hash, isBot: i % 10 === 0, scriptKey: null, organizations: [], permissions: [] },
        null,
      );
    }
  })();
  db.close();
}

const server = spawn("node", [`${BUILD_DIR}/server.js`], {
  env: { ...process.env, NODE_ENV: "production", PORT: String(PORT), HOST: "127.0.0.1", DATA_DIR: dataDir, SESSION_SECRET: "measure-secret-0123456789", COOKIE_SECURE: "false", LOG_REQUESTS: "false", PUBLIC_URL: `http://127.0.0.1:${PORT}` },
  stdio: ["ignore", "ignore", "inherit"],
});

try {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      if (i > 100) throw new Error("server did not start");
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const login = await fetch(`${base}/login`, {
    method: "POST",
    body: new URLSearchParams({ ...admin, redirectTo: "/" }),
    redirect: "manual",
  });
  const cookie = login.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  if (login.status !== 302) throw new Error(`sign-in failed: ${login.status}`);

  const times: number[] = [];
  let html = "";
  for (let i = 0; i < RUNS + 5; i++) {
    const start = performance.now();
    const response = await fetch(`${base}/people`, { headers: { Cookie: cookie } });
    html = await response.text();
    if (i >= 5) times.push(performance.now() - start); // the first five warm up
    if (response.status !== 200) throw new Error(`/people answered ${response.status}`);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)]!;
  const p90 = times[Math.floor(times.length * 0.9)]!;

  const scripts = new Set<string>();
  for (const m of html.matchAll(/(?:href|src)="(\/build\/[^"]+\.js)"/g)) scripts.add(m[1]!);
  for (const m of html.matchAll(/import (?:\* as \w+ from )?"(\/build\/[^"]+\.js)"/g)) scripts.add(m[1]!);
  let raw = 0;
  let gz = 0;
  for (const s of scripts) {
    const body = Buffer.from(await (await fetch(`${base}${s}`)).arrayBuffer());
    raw += body.length;
    gz += gzipSync(body, { level: 6 }).length;
  }
  console.log(`/people with ${USERS} users: median ${median.toFixed(1)} ms, p90 ${p90.toFixed(1)} ms over ${RUNS} renders`);
  console.log(`JavaScript /people loads: ${scripts.size} files, ${(raw / 1024).toFixed(1)} KiB, ${(gz / 1024).toFixed(1)} KiB gzip`);
} finally {
  server.kill("SIGTERM");
  rmSync(dataDir, { recursive: true, force: true });
}
