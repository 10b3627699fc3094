import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach } from "vitest";
import { createUpstream, type Upstream, type UpstreamEnv, type UpstreamOptions } from "../../upstream/src/app";

export const ADMIN = { email: "admin@example.com", password: "admin-secret" };
export const START = Date.parse("2025-01-01T00:00:00.000Z");

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()?.();
});

export function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "upstream-test-"));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export type Harness = {
  up: Upstream;
  dir: string;
  clock: { t: number; advance(ms: number): void };
  logs: string[];
  call(
    method: string,
    url: string,
    init?: { token?: string | null; body?: unknown; rawBody?: string; env?: UpstreamEnv; headers?: Record<string, string> },
  ): Promise<Response>;
  login(email?: string, password?: string): Promise<string>;
  /** Creates a user through the API as the admin and returns it. */
  createUser(fields: Record<string, unknown>, token?: string): Promise<Record<string, unknown> & { id: string }>;
  adminToken: string;
};

/** An upstream on a fresh temp dir with the admin seeded and signed in; closed after the test. */
export async function harness(options: Partial<UpstreamOptions> = {}): Promise<Harness> {
  const dir = options.dataDir ?? tempDir();
  const clock = {
    t: START,
    advance(ms: number) {
      this.t += ms;
    },
  };
  const logs: string[] = [];
  const up = createUpstream({
    dataDir: dir,
    adminEmail: ADMIN.email,
    adminPassword: ADMIN.password,
    now: () => clock.t,
    log: (m) => logs.push(m),
    ...options,
  });
  cleanups.push(() => up.close());
  const h: Harness = {
    up,
    dir,
    clock,
    logs,
    adminToken: "",
    async call(method, url, init = {}) {
      const headers: Record<string, string> = { ...init.headers };
      if (init.token) headers.authorization = `Bearer ${init.token}`;
      let body: string | undefined = init.rawBody;
      if (init.body !== undefined) {
        body = JSON.stringify(init.body);
        headers["content-type"] = "application/json";
      }
      return up.fetch(new Request(`http://upstream.test${url}`, { method, headers, body }), init.env);
    },
    async login(email = ADMIN.email, password = ADMIN.password) {
      const res = await h.call("POST", "/api/auth/login", { body: { email, password } });
      if (res.status !== 200) throw new Error(`login ${email} answered ${res.status}: ${await res.text()}`);
      return ((await res.json()) as { token: string }).token;
    },
    async createUser(fields, token = h.adminToken) {
      const res = await h.call("POST", "/api/auth/users", {
        token,
        body: { firstName: "Ann", lastName: "Lee", password: "secret1", ...fields },
      });
      if (res.status !== 201) throw new Error(`create answered ${res.status}: ${await res.text()}`);
      return (await res.json()) as Record<string, unknown> & { id: string };
    },
  };
  if (up.seeded) h.adminToken = await h.login();
  return h;
}

/** Decodes a JWT payload without verifying it. */
export function decodePayload(token: string): Record<string, unknown> {
  const part = token.split(".")[1] ?? "";
  return JSON.parse(Buffer.from(part, "base64url").toString("utf8")) as Record<string, unknown>;
}

export async function message(res: Response): Promise<string> {
  return ((await res.json()) as { message: string }).message;
}
