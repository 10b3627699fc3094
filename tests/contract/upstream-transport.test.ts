/**
 * One contract suite for both ways the back office reaches its upstream (docs/decisions/in-process-upstream.md):
 * the embedded upstream in-process (`direct`: a light request, the identity once per page request) and an
 * upstream over HTTP (UPSTREAM_URL). The same tests run over each, through the app's own clients (createApi,
 * resourceClient, the people and files clients); each test's "page request" is a fresh load context, as server.ts
 * makes one per request.
 */
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import type { AppLoadContext } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { organizations } from "~/organizations/organizations.server";
import { users } from "~/people/users.server";
import { files } from "~/lib/files.server";
import { createApi, isUpstreamError, type Api, type UpstreamError } from "~/lib/upstream.server";
import type { UpstreamFetch } from "~/lib/context";
import { embeddedTransport, httpTransport } from "../../server/upstream-transport";
import { TokenAnswer } from "@contract/auth";
import { FEEDBACK_PATH } from "@contract/feedback";
import { createUpstream, type Upstream } from "../../upstream/src/app";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ADMIN } from "../upstream/helpers";

/**
 * A data folder for a whole describe block (the upstream helpers' tempDir is removed after each test: the write gate
 * then rightly refuses every write, the database file being gone).
 */
const dirs: string[] = [];
function blockDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "contract-test-"));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const FEEDBACK_URL = "https://feedback.example.com/board";

type Transport = { name: string; direct: boolean; start(up: Upstream): Promise<{ fetch: UpstreamFetch; stop(): void }> };

const transports: Transport[] = [
  {
    name: "in-process (direct)",
    direct: true,
    start: async (up) => ({ fetch: embeddedTransport(up), stop: () => {} }),
  },
  {
    name: "over HTTP (UPSTREAM_URL)",
    direct: false,
    start: async (up) => {
      const server = await new Promise<ServerType>((resolve) => {
        const s = serve({ fetch: (request) => up.fetch(request, {}), port: 0, hostname: "127.0.0.1" }, () => resolve(s));
      });
      const { port } = server.address() as AddressInfo;
      return { fetch: httpTransport(`http://127.0.0.1:${port}/`), stop: () => server.close() };
    },
  },
];

/** Fails the test unless `promise` rejects with an UpstreamError; answers it. */
async function refusal(promise: Promise<unknown>): Promise<UpstreamError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!isUpstreamError(error)) throw new Error(`expected an upstream refusal, got ${String(error)}`);
  return error;
}

describe.each(transports)("the upstream contract $name", (transport) => {
  let up: Upstream;
  let stop = () => {};
  let upstream: UpstreamFetch;
  /** A new page request: a new load context, as server.ts gives every request. */
  const page = (): AppLoadContext =>
    ({ upstream, clientAddress: "127.0.0.1", nonce: "n", sessionSecrets: ["s"], cookieSecure: false }) as AppLoadContext;
  const apiOf = (token: string, context = page(), onError?: (e: UpstreamError) => Promise<void>): Api =>
    createApi(context, { token, timeZone: "Europe/Paris", onError });
  const login = (email: string, password: string) =>
    createApi(page(), {})
      .post(TokenAnswer, "/api/auth/login", { email, password })
      .then((a) => a.token);
  let admin: string;
  let n = 0;
  /** A user with `permissions` (created by the administrator) and their token. */
  async function member(permissions: string[]): Promise<{ id: string; token: string }> {
    const email = `member${++n}@example.com`;
    const api = apiOf(admin);
    const created = await users.create(api, { email, firstName: "Mem", lastName: `Ber${n}`, password: "member-secret" });
    await users.update(api, { id: created.id, permissions });
    return { id: created.id, token: await login(email, "member-secret") };
  }

  beforeAll(async () => {
    up = createUpstream({
      dataDir: blockDir(),
      adminEmail: ADMIN.email,
      adminPassword: ADMIN.password,
      feedbackUrl: FEEDBACK_URL,
      log: () => {},
    });
    const started = await transport.start(up);
    upstream = started.fetch;
    stop = started.stop;
    admin = await login(ADMIN.email, ADMIN.password);
  });
  afterAll(() => {
    stop();
    up.close();
  });

  it("takes the in-process path exactly when the upstream is embedded", () => {
    expect(typeof upstream.direct === "function").toBe(transport.direct);
  });

  it("signs in, and refuses a wrong password with the upstream's status and message", async () => {
    expect(admin.split(".")).toHaveLength(3);
    const error = await refusal(login(ADMIN.email, "wrong-password"));
    expect(error.status).toBe(401);
    expect(error.message).toMatch(/password/i);
  });

  it("a collection through resourceClient: create, get, search, update, remove, then not found", async () => {
    const api = apiOf(admin);
    const created = await organizations.create(api, { name: "Contract Org" });
    expect(created).toMatchObject({ name: "Contract Org", models: [], enableSpeechToText: false });
    expect(await organizations.get(api, created.id)).toEqual(created);
    const found = await organizations.list(api, { q: "Contract", pageSize: 10, page: 1, sort: "name" });
    expect(found.items.map((o) => o.id)).toContain(created.id);
    expect(found.total).toBeGreaterThanOrEqual(1);
    const updated = await organizations.update(api, created.id, { name: "Contract Org 2" });
    expect(updated.name).toBe("Contract Org 2");
    await organizations.remove(api, created.id);
    const gone = await organizations.getOr404(api, created.id).then(
      () => null,
      (e: unknown) => e,
    );
    expect(gone).toBeInstanceOf(Response);
    expect((gone as Response).status).toBe(404);
  });

  it("a page of users with its query (search, sort, page size)", async () => {
    await member(["users.read"]);
    const page1 = await users.list(apiOf(admin), { q: "member", sort: "name", pageSize: 1, page: 1 });
    expect(page1.pageSize).toBe(1);
    expect(page1.items).toHaveLength(1);
    expect(page1.items[0]!.email).toMatch(/^member\d+@example\.com$/);
    expect(page1.total).toBeGreaterThanOrEqual(1);
  });

  it("a bad body is a 400 naming the field; an unreadable id is a 4xx, never a 500", async () => {
    const error = await refusal(organizations.create(apiOf(admin), { name: "   " }));
    expect(error.status).toBe(400);
    expect(error.message).toBe("name: Name is required");
    const missing = await refusal(organizations.get(apiOf(admin), "no-such-id"));
    expect([400, 404]).toContain(missing.status);
  });

  it("the upstream checks the permission itself (403), and onError sees every refusal first", async () => {
    const { token } = await member(["users.read"]);
    const seen: number[] = [];
    const error = await refusal(
      organizations.list(apiOf(token, page(), async (e) => void seen.push(e.status)), { pageSize: 5 }),
    );
    expect(error.status).toBe(403);
    expect(error.message).toMatch(/permission/);
    expect(seen).toEqual([403]);
  });

  it("a token the upstream did not sign, or none, is a 401", async () => {
    const [header, body] = admin.split(".");
    expect((await refusal(users.list(apiOf(`${header}.${body}.forged`), {}))).status).toBe(401);
    expect((await refusal(createApi(page(), {}).get(TokenAnswer, "/api/auth/users"))).status).toBe(401);
  });

  it("texts, raw JSON answers, uploads and streamed downloads", async () => {
    const api = apiOf(admin);
    expect(await api.text(FEEDBACK_PATH)).toBe(FEEDBACK_URL);
    const org = await organizations.create(api, { name: "Raw Org" });
    const raw = await api.raw("GET", `/api/organizations/${org.id}`);
    expect(raw.status).toBe(200);
    expect(raw.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await raw.json()).toEqual(org);
    const bytes = new Uint8Array(70_000).map((_, i) => i % 251);
    const stored = await files.upload(api, new File([bytes], "data.bin", { type: "application/octet-stream" }));
    const download = await files.download(apiOf(admin), stored.id);
    expect(download.headers.get("content-disposition")).toContain("data.bin");
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(bytes);
  });

  it("a write in a page request (log out) makes its next call establish the identity again: refused", async () => {
    const { token } = await member(["users.read"]);
    const context = page();
    expect((await users.list(apiOf(token, context), { pageSize: 1 })).items).toHaveLength(1);
    await apiOf(token, context).send("POST", "/api/auth/logout");
    expect((await refusal(users.list(apiOf(token, context), { pageSize: 1 }))).status).toBe(401);
  });

  it("a permission an administrator removes is refused from the caller's next page request on", async () => {
    const { id, token } = await member(["users.read"]);
    expect((await users.list(apiOf(token), { pageSize: 1 })).total).toBeGreaterThan(0);
    await users.update(apiOf(admin), { id, permissions: [] });
    const error = await refusal(users.list(apiOf(token), { pageSize: 1 }));
    expect(error.status).toBe(401);
  });
});

describe("the in-process path alone", () => {
  let up: Upstream;
  beforeAll(() => {
    up = createUpstream({ dataDir: blockDir(), adminEmail: ADMIN.email, adminPassword: ADMIN.password, log: () => {} });
  });
  afterAll(() => up.close());

  it("establishes the identity once per page request, checks permissions on every call, forgets it after", async () => {
    const upstream = embeddedTransport(up);
    const page = () => ({ upstream, clientAddress: "127.0.0.1" });
    const admin = (await createApi(page(), {}).post(TokenAnswer, "/api/auth/login", ADMIN)).token;
    const user = await users.create(createApi(page(), { token: admin }), {
      email: "reader@example.com",
      firstName: "Re",
      lastName: "Ader",
      password: "reader-secret",
    });
    await users.update(createApi(page(), { token: admin }), { id: user.id, permissions: ["users.read"] });
    const login = { email: "reader@example.com", password: "reader-secret" };
    const token = (await createApi(page(), {}).post(TokenAnswer, "/api/auth/login", login)).token;
    const mine = page();
    const api = createApi(mine, { token });
    await users.list(api, { pageSize: 1 });
    // The permission checks run on the established identity, call by call.
    expect((await refusal(organizations.list(api, { pageSize: 1 }))).status).toBe(403);
    // Revoked by another party (its own page request): this page request keeps the identity it established…
    await users.update(createApi(page(), { token: admin }), { id: user.id, permissions: [] });
    expect((await users.list(api, { pageSize: 1 })).items).toHaveLength(1);
    // …and the next page request is refused (removing a permission revoked the session).
    expect((await refusal(users.list(createApi(page(), { token }), { pageSize: 1 }))).status).toBe(401);
  });
});
