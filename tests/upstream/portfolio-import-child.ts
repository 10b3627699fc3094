/**
 * A process running the upstream on a data directory (argv[2]) that starts a CSV import of argv[3] rows and keeps
 * running until it is killed: the parent kills it with kill -9 while the import writes (portfolio-import.test.ts).
 */
import { createUpstream } from "../../upstream/src/app";

const [dir, count] = process.argv.slice(2);
const up = createUpstream({ dataDir: dir!, adminEmail: "admin@example.com", adminPassword: "admin-secret", now: Date.now, log: () => {} });
const call = (method: string, url: string, token: string | null, body: unknown) =>
  up.fetch(
    new Request(`http://upstream.test${url}`, {
      method,
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    }),
  );
const rows = Array.from({ length: Number(count) }, (_, i) => `K${i},Title ${i},An abstract for row ${i}.,kill:${i % 7}`);
const csv = ["id,title,abstract,tags", ...rows].join("\n");
const { token } = (await (await call("POST", "/api/auth/login", null, { email: "admin@example.com", password: "admin-secret" })).json()) as { token: string };
const res = await call("POST", "/api/applications/csv", token, { csvFileData: Buffer.from(csv).toString("base64") });
const job = (await res.json()) as { id: string };
process.stdout.write(`job ${job.id}\n`);
setInterval(() => {}, 60_000);
