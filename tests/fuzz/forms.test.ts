/**
 * ≥ 2,000 malformed posts across every form action of the real production server; 0 answers
 * ≥ 500 and 0 rows changed (every table's content hashed before and after, the sessions bookkeeping aside).
 *
 * The posts are built from a seeded generator (same posts every run) in eight families: foreign origin (CSRF), wrong
 * content types, broken multipart, array-index bombs, too many fields, oversized bodies, hostile values in the real
 * field names (control characters, over-long text, broken percent-encoding, lone surrogates), and bare junk.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { peakRssMb, signInCookie, startProductionServer, waitUntilUp, type RunningServer } from "../helpers/server";

const PORT = 4100 + Math.floor(Math.random() * 80);
const admin = { email: "admin@fuzz.test", password: "fuzz-admin-password" };

/** Tables whose rows change by design on any request (session bookkeeping) are left out of the comparison. */
const VOLATILE = /session|login|attempt|throttl/i;

function snapshot(dataDir: string): { hash: string; rows: Record<string, number> } {
  const db = new Database(path.join(dataDir, "backoffice.sqlite"), { readonly: true, fileMustExist: true });
  try {
    const tables = db
      .prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name")
      .pluck()
      .all() as string[];
    const hash = createHash("sha256");
    const rows: Record<string, number> = {};
    for (const t of tables) {
      if (VOLATILE.test(t)) continue;
      // Rows as JSON, sorted: some tables are WITHOUT ROWID (the job queue), so no rowid to order by.
      const all = (db.prepare(`select * from "${t}"`).raw().all() as unknown[]).map((r) => JSON.stringify(r)).sort();
      rows[t] = all.length;
      hash.update(t).update(all.join("\n"));
    }
    return { hash: hash.digest("hex"), rows };
  } finally {
    db.close();
  }
}

/** mulberry32: a small seeded generator, so every run sends the same posts. */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!,
  };
}

type Post = { family: string; url: string; headers: Record<string, string>; body?: string | Buffer; withCookie: boolean };

describe("fuzz: malformed posts to every form action", () => {
  let dataDir: string;
  let server: RunningServer;
  let cookie: string;
  const ids = { user: "", team: "", organization: "", specification: "" };

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "backoffice-fuzz-"));
    server = startProductionServer(PORT, dataDir, admin);
    await waitUntilUp(server.base);
    // Something to aim at: a user, a team, an organization and a specification, made through the API.
    const { token } = (await (
      await fetch(`${server.base}/api/auth/login`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(admin),
      })
    ).json()) as { token: string };
    const api = async (p: string, body: unknown) => {
      const r = await fetch(`${server.base}${p}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
      if (!r.ok) throw new Error(`${p} answered ${r.status}: ${await r.text()}`);
      return (await r.json()) as { id: string };
    };
    ids.organization = (await api("/api/organizations", { name: "Fuzz Org" })).id;
    ids.user = (
      await api("/api/auth/users", {
        firstName: "Fuzz",
        lastName: "Target",
        email: "target@fuzz.test",
        password: "target-password",
        organizations: [ids.organization],
      })
    ).id;
    ids.team = (await api("/api/auth/teams", { name: "Fuzz Team", members: ["target@fuzz.test"] })).id;
    ids.specification = (
      await api("/api/specifications", { name: "Fuzz Spec", type: "claims", template: "{{title}}" })
    ).id;
    cookie = await signInCookie(server.base, admin.email, admin.password);
  });

  afterAll(() => {
    server?.child.kill("SIGKILL");
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("answers ≥ 2,000 malformed posts with 4xx (or a re-rendered form), never ≥ 500, and changes no row", async () => {
    const routes: { url: string; fields: string[] }[] = [
      { url: "/login", fields: ["email", "password", "redirectTo"] },
      { url: "/logout", fields: ["redirectTo"] },
      { url: "/prefs", fields: ["sidebar", "redirectTo"] },
      { url: "/auth/microsoft", fields: ["redirectTo"] },
      { url: "/auth/saml/login", fields: ["redirectTo"] },
      { url: "/people/new", fields: ["email", "firstName", "lastName", "password", "organizations", "assistants", "isBot", "scriptKey", "intent"] },
      { url: `/people/${ids.user}`, fields: ["firstName", "lastName", "organizations", "assistants", "isBot", "scriptKey", "intent", "confirmed"] },
      { url: `/people/${ids.user}/change-password`, fields: ["password"] },
      { url: `/people/${ids.user}/permissions`, fields: ["write", "read", "was.users", "was.specifications"] },
      { url: `/people/${ids.user}/authorization`, fields: ["registrationNumbers", "customerNumbers"] },
      { url: `/people/${ids.user}/user-settings`, fields: ["rows", "key.0", "value.0", "secured.0", "intent"] },
      { url: "/teams/new", fields: ["name"] },
      { url: `/teams/${ids.team}`, fields: ["email", "intent", "confirmed"] },
      { url: "/organizations/new", fields: ["name"] },
      { url: `/organizations/${ids.organization}/edit`, fields: ["name", "intent", "confirmed"] },
      { url: "/specifications/create", fields: ["name", "type", "description", "tags", "template", "isPublic"] },
      { url: `/specifications/${ids.specification}`, fields: ["template", "intent", "documentName", "documentContent"] },
      { url: `/specifications/${ids.specification}/edit`, fields: ["name", "type", "description", "tags", "intent", "confirmed"] },
    ];
    const r = rng(20261122);
    const origin = server.base;
    const form = { "Content-Type": "application/x-www-form-urlencoded" };
    // Every value is one the server must refuse: a control character other than tab/newline, or far over any
    // field's limit; some also carry broken percent-encoding or an encoded lone surrogate around it.
    const hostileValues = [
      () => "a\u0000b",
      () => `x${"\u0001".repeat(r.int(1, 50))}`,
      () => "A".repeat(r.int(10_000, 200_000)),
      () => "\u001b[31mred",
      () => `${"é".repeat(r.int(300, 5_000))}\u0007`,
      () => "%zz%%\u0000",
      () => "%ED%A0%80\u0008",
    ];
    const raw = (v: string) => v.startsWith("%");
    const encode = (pairs: [string, string][]) =>
      pairs.map(([k, v]) => `${encodeURIComponent(k)}=${raw(v) ? v.replace("\u0000", "%00").replace("\u0008", "%08") : encodeURIComponent(v)}`).join("&");

    const posts: Post[] = [];
    for (const route of routes) {
      const valid = encode(route.fields.map((f) => [f, f === "email" ? "x@fuzz.test" : "value"]));
      // 1. Foreign origin, with the admin's cookie: refused before anything runs (with and without ?_data).
      for (let i = 0; i < 12; i++) {
        const evil = r.pick(["https://evil.example", "null", "http://127.0.0.1.evil.example", `http://localhost:${PORT + 1}`]);
        const url = i % 2 ? `${route.url}?_data=routes%2Fx` : route.url;
        posts.push({ family: "csrf", url, headers: { ...form, Origin: evil }, body: valid, withCookie: true });
      }
      // 2. Wrong content types.
      for (let i = 0; i < 12; i++) {
        const type = r.pick(["application/json", "text/plain", "application/xml", "application/octet-stream", ""]);
        const body = type === "application/json" ? JSON.stringify({ [route.fields[0]!]: "x" }) : r.pick(["{", "", "<a/>", "\u0000\u0001"]);
        posts.push({ family: "content-type", url: route.url, headers: type ? { "Content-Type": type, Origin: origin } : { Origin: origin }, body, withCookie: true });
      }
      // 3. Broken multipart.
      for (let i = 0; i < 12; i++) {
        const variant = i % 4;
        const type = variant === 0 ? "multipart/form-data" : "multipart/form-data; boundary=XyZ";
        const body =
          variant === 1
            ? `--XyZ\r\nContent-Disposition: form-data; name="${route.fields[0]}"\r\n\r\nunterminated`
            : variant === 2
              ? `--Other\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--Other--\r\n`
              : `--XyZ\r\nContent-Disposition: form-data\r\n\r\n${"z".repeat(r.int(0, 100))}\r\n--XyZ`;
        posts.push({ family: "multipart", url: route.url, headers: { "Content-Type": type, Origin: origin }, body, withCookie: true });
      }
      // 4. Array-index bombs.
      for (let i = 0; i < 12; i++) {
        const name = `${r.pick(route.fields)}[${r.int(10_000, 2_000_000_000)}]`;
        posts.push({ family: "index", url: route.url, headers: { ...form, Origin: origin }, body: encode([[name, "x"]]), withCookie: true });
      }
      // 5. Too many fields.
      for (let i = 0; i < 6; i++) {
        const n = r.int(1_100, 20_000);
        const body = Array.from({ length: n }, (_, k) => `f${k}=1`).join("&");
        posts.push({ family: "fields", url: route.url, headers: { ...form, Origin: origin }, body, withCookie: true });
      }
      // 6. Oversized bodies (the page limit is 1 MB; the specification upload takes more, so aim past its limit too).
      for (let i = 0; i < 4; i++) {
        const size = route.url.startsWith("/specifications/") && !route.url.endsWith("/edit") ? r.int(30, 40) * 1024 * 1024 : r.int(2, 4) * 1024 * 1024;
        posts.push({ family: "oversized", url: route.url, headers: { ...form, Origin: origin }, body: Buffer.alloc(size, 0x61), withCookie: true });
      }
      // 7. Hostile values in the real field names.
      for (let i = 0; i < 50; i++) {
        const pairs: [string, string][] = route.fields.map((f) => [f, r.pick(hostileValues)()]);
        posts.push({ family: "values", url: route.url, headers: { ...form, Origin: origin }, body: encode(pairs), withCookie: true });
      }
      // 8. Junk: random bytes as a form body.
      for (let i = 0; i < 8; i++) {
        const bytes = Buffer.from(Array.from({ length: r.int(1, 400) }, () => r.int(0, 255)));
        posts.push({ family: "junk", url: route.url, headers: { ...form, Origin: origin }, body: bytes, withCookie: true });
      }
    }
    expect(posts.length).toBeGreaterThanOrEqual(2_000);

    const before = snapshot(dataDir);
    const byStatus = new Map<number, number>();
    const failures: string[] = [];
    const started = Date.now();
    let next = 0;
    const worker = async () => {
      while (next < posts.length) {
        const p = posts[next++]!;
        const headers: Record<string, string> = { ...p.headers };
        // A same-origin post to /logout may legitimately end the session: only the refused (CSRF) ones carry it.
        if (p.withCookie && (p.url !== "/logout" || p.family === "csrf")) headers.Cookie = cookie;
        let status: number;
        try {
          const res = await fetch(`${server.base}${p.url}`, {
            method: "POST",
            headers,
            body: typeof p.body === "string" || p.body === undefined ? p.body : new Uint8Array(p.body),
            redirect: "manual",
            signal: AbortSignal.timeout(15_000),
          });
          status = res.status;
          await res.arrayBuffer().catch(() => undefined);
        } catch (error) {
          // The server may answer 413 and close before the whole body is sent: that is a refusal, not a failure.
          if (p.family === "oversized") status = 413;
          else throw error;
        }
        byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
        if (process.env.FUZZ_DEBUG) console.log(`${status} ${p.family} ${p.url}`);
        if (status >= 500) failures.push(`${status} ${p.family} ${p.url}`);
        if (p.family === "csrf" && status !== 403) failures.push(`csrf answered ${status} on ${p.url}`);
      }
    };
    await Promise.all(Array.from({ length: 6 }, worker));
    const seconds = (Date.now() - started) / 1000;
    const after = snapshot(dataDir);

    console.log(
      `fuzz: ${posts.length} posts in ${seconds.toFixed(1)} s; by status ${JSON.stringify(Object.fromEntries([...byStatus].sort((a, b) => a[0] - b[0])))}; ` +
        `peak RSS ${await peakRssMb(server.child.pid!)} MB; rows ${JSON.stringify(after.rows)}`,
    );
    expect(failures).toEqual([]);
    expect(after.rows).toEqual(before.rows);
    expect(after.hash).toBe(before.hash);
    // Still up, and the administrator's session still works (no foreign-origin logout got through).
    expect((await fetch(`${server.base}/healthz`)).status).toBe(200);
    const home = await fetch(`${server.base}/people`, { headers: { Cookie: cookie }, redirect: "manual" });
    expect(home.status).toBe(200);
  }, 240_000);
});
