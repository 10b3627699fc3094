/** A fake docket system (FIP) on loopback for tests and the opt-in demo; answers 429, slow responses and 404s. */
import http from "node:http";
import { listenOnLoopback } from "../lib/loopback";

export type FakeMatter = { fipId: string; matterNumber: string; auditDate?: string; changedAt?: string; fails?: number };

export type FakeDocket = {
  url: string;
  apiKey: string;
  /** By external id (the part after the colon). */
  matters: Map<string, FakeMatter>;
  tooMany(n: number): void;
  slow(ms: number): void;
  requests: string[];
  close(): Promise<void>;
};

export async function startFakeDocket(options: { port?: number; apiKey?: string; matters?: FakeMatter[] } = {}): Promise<FakeDocket> {
  const apiKey = options.apiKey ?? "fake-fip-key";
  const matters = new Map((options.matters ?? []).map((m) => [m.fipId.slice(m.fipId.indexOf(":") + 1), m]));
  let tooMany = 0;
  let delay = 0;
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    requests.push(`${req.method} ${url.pathname}`);
    const send = (status: number, body: unknown) => {
      const answer = () => {
        if (res.destroyed) return;
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(body));
      };
      if (delay) setTimeout(answer, delay);
      else answer();
    };
    if (req.headers.authorization !== `Bearer ${apiKey}`) return send(401, { message: "Unauthorized" });
    if (tooMany > 0) {
      tooMany--;
      return send(429, { message: "Too Many Requests" });
    }
    if (url.pathname === "/api/matters") {
      const since = url.searchParams.get("changedSince");
      const data = [...matters.values()].filter((m) => !since || (m.changedAt ?? "") >= since);
      return send(200, { data: data.map((m) => ({ fipId: m.fipId })) });
    }
    const one = /^\/api\/matters\/([^/]+)$/.exec(url.pathname);
    const m = one ? matters.get(decodeURIComponent(one[1]!)) : undefined;
    if (!m) return send(404, { message: "Matter not found" });
    if (m.fails && m.fails > 0) {
      m.fails--;
      return send(500, { message: "Docket system error" });
    }
    send(200, { fipId: m.fipId, matterNumber: m.matterNumber, auditDate: m.auditDate ?? null });
  });
  const { url, close } = await listenOnLoopback(server, options.port ?? 0);
  return {
    url,
    apiKey,
    matters,
    requests,
    tooMany: (n) => void (tooMany = n),
    slow: (ms) => void (delay = ms),
    close,
  };
}
