/**
 * A fake patent office on loopback speaking the adapter's slice of the USPTO Open Data Portal API, with failures on
 * demand: 429 (with Retry-After), slow answers and 404s. For tests and the opt-in demo (scripts/fake-offices.ts).
 */
import http from "node:http";
import { listenOnLoopback } from "../lib/loopback";

export type FakeApplication = {
  applicationNumber: string;
  title: string;
  abstract?: string;
  claims?: string[];
  customerNumber?: string;
  changedAt?: string;
};

export type FakeOffice = {
  url: string;
  apiKey: string;
  applications: Map<string, FakeApplication>;
  /** Next `n` requests answer 429. */
  tooMany(n: number, retryAfterSeconds?: number): void;
  /** Every answer waits `ms` first. */
  slow(ms: number): void;
  /** Requests received: "GET /api/v1/patent/applications/123" … */
  requests: string[];
  close(): Promise<void>;
};

const bag = (a: FakeApplication) => ({
  applicationNumberText: a.applicationNumber,
  lastIngestionDateTime: a.changedAt ?? "2026-01-01T00:00:00Z",
  applicationMetaData: { inventionTitle: a.title, customerNumber: a.customerNumber, abstractText: a.abstract ?? "" },
  claimBag: (a.claims ?? []).map((claimText) => ({ claimText })),
});

export async function startFakeOffice(options: { port?: number; apiKey?: string; applications?: FakeApplication[] } = {}): Promise<FakeOffice> {
  const apiKey = options.apiKey ?? "fake-uspto-key";
  const applications = new Map((options.applications ?? []).map((a) => [a.applicationNumber.replace(/[^A-Za-z0-9]/g, ""), a]));
  let tooMany = 0;
  let retryAfter = 0;
  let delay = 0;
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      requests.push(`${req.method} ${path}`);
      const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        const answer = () => {
          if (res.destroyed) return;
          res.writeHead(status, { "content-type": "application/json", ...headers });
          res.end(JSON.stringify(body));
        };
        if (delay) setTimeout(answer, delay);
        else answer();
      };
      if (req.headers["x-api-key"] !== apiKey) return send(403, { message: "Forbidden" });
      if (tooMany > 0) {
        tooMany--;
        return send(429, { error: "Too Many Requests" }, retryAfter ? { "retry-after": String(retryAfter) } : {});
      }
      const one = /^\/api\/v1\/patent\/applications\/([A-Za-z0-9]+)$/.exec(path);
      if (req.method === "GET" && one && one[1] !== "search") {
        const a = applications.get(one[1]!);
        return a ? send(200, { count: 1, patentFileWrapperDataBag: [bag(a)] }) : send(404, { error: "Not Found", errorDetails: "No matching records found" });
      }
      if (req.method === "POST" && path === "/api/v1/patent/applications/search") {
        let body: { q?: string; rangeFilters?: { valueFrom?: string }[]; pagination?: { offset?: number; limit?: number } } = {};
        try {
          body = JSON.parse(Buffer.concat(chunks).toString() || "{}") as typeof body;
        } catch {
          return send(400, { error: "Bad Request" });
        }
        const customer = /customerNumber:(\S+)/.exec(body.q ?? "")?.[1];
        const since = body.rangeFilters?.[0]?.valueFrom;
        const all = [...applications.values()].filter(
          (a) => (!customer || a.customerNumber === customer) && (!since || (a.changedAt ?? "") >= since),
        );
        if (!all.length) return send(404, { error: "Not Found", errorDetails: "No matching records found" });
        const offset = body.pagination?.offset ?? 0;
        const limit = body.pagination?.limit ?? 25;
        return send(200, { count: all.length, patentFileWrapperDataBag: all.slice(offset, offset + limit).map(bag) });
      }
      send(404, { error: "Not Found" });
    });
  });
  const { url, close } = await listenOnLoopback(server, options.port ?? 0);
  return {
    url,
    apiKey,
    applications,
    requests,
    tooMany(n, seconds = 0) {
      tooMany = n;
      retryAfter = seconds;
    },
    slow(ms) {
      delay = ms;
    },
    close,
  };
}
