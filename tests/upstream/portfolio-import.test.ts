import { spawn } from "node:child_process";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { CSV_IMPORT_LIMITS, CSV_IMPORT_MESSAGES, type ImportJob } from "@contract/portfolio";
import { readCsvUpload } from "../../upstream/src/applications/csv-upload";
import { databaseFile } from "../../upstream/src/db";
import type { HttpError } from "../../upstream/src/lib/http";
import { watchEventLoop } from "../helpers/event-loop";
import { harness, message, tempDir, type Harness } from "./helpers";

/** The CSV import as a job: all or nothing, kept in the database, read off the request (docs/decisions/portfolio-import.md). */

const post = (h: Harness, csv: string | Buffer, query = "") =>
  h.call("POST", `/api/applications/csv${query}`, {
    token: h.adminToken,
    body: { csvFileData: Buffer.from(csv).toString("base64") },
  });
const job = async (h: Harness, id: string) => (await (await h.call("GET", `/api/applications/csv/${id}`, { token: h.adminToken })).json()) as ImportJob;
const until = async (check: () => Promise<boolean> | boolean, ms = 60_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 50));
  }
};
/** What the portfolio holds, as rows, read from the database file. */
const applications = (dir: string) => {
  const db = new Database(databaseFile(dir), { readonly: true });
  try {
    return {
      count: (db.prepare("select count(*) as n from applications").get() as { n: number }).n,
      rows: db.prepare("select id, title, tags, updated_at from applications order by id").all(),
      tags: db.prepare("select * from tag_counts order by portfolio_id, name").all(),
    };
  } finally {
    db.close();
  }
};

describe("CSV import: all or nothing", () => {
  it("a file over the row limit is refused with nothing imported, the applications as they were", async () => {
    const h = await harness();
    expect((await post(h, "id,title,tags\nA1,Kept,old:1", "?wait=true")).status).toBe(200);
    const before = applications(h.dir);
    const rows = Array.from({ length: CSV_IMPORT_LIMITS.rows + 1 }, (_, i) => `R${i},New ${i},new:1`);
    const res = await post(h, ["id,title,tags", "A1,Changed,new:2", ...rows].join("\n"), "?wait=true");
    expect(res.status).toBe(200);
    const done = (await res.json()) as ImportJob;
    expect(done).toMatchObject({ status: "failed", error: CSV_IMPORT_MESSAGES.tooManyRows, updated: 0, updatedIds: [] });
    expect(applications(h.dir)).toEqual(before);
  }, 180_000);

  it("a failure while it writes undoes every step already committed: changed rows, tags, counts and index as they were", async () => {
    const h = await harness();
    expect((await post(h, "id,title,tags\nA1,Kept one,old:1;keep:2\nA2,Kept two,old:3", "?wait=true")).status).toBe(200);
    const before = applications(h.dir);
    const search = async (q: string) => (await (await h.call("GET", `/api/search?query=${q}`, { token: h.adminToken })).json()) as { total: number };
    expect((await search("Kept")).total).toBe(2);
    // A rule the import cannot know, refusing one row far into the file: the steps before it are committed by then.
    const db = new Database(databaseFile(h.dir));
    db.exec("create trigger refuse_boom before insert on applications when new.id = 'BOOM' begin select raise(abort, 'refused'); end");
    db.close();
    const rows = Array.from({ length: 5000 }, (_, i) => `N${i},Changed ${i},new:${i % 3}`);
    const csv = ["id,title,tags", "A1,Changed,old:5;more:1", ...rows, "A2,Changed too,", "BOOM,x,"].join("\n");
    const done = (await (await post(h, csv, "?wait=true")).json()) as ImportJob;
    expect(done).toMatchObject({ status: "failed", error: CSV_IMPORT_MESSAGES.failed("refused"), updated: 0, updatedIds: [] });
    expect(applications(h.dir)).toEqual(before);
    expect((await search("Kept")).total).toBe(2);
    expect((await search("Changed")).total).toBe(0);
  }, 120_000);

  it("an import killed with kill -9 while it writes: after the restart its job reads failed, interrupted, and nothing of it is there", async () => {
    const dir = tempDir();
    const child = spawn(process.execPath, ["--import", "tsx", path.resolve("tests/upstream/portfolio-import-child.ts"), dir, "30000"], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
    try {
      await until(() => /job (\S+)/.test(out));
      // Killed once the import has written applications (and well before it could be done).
      await until(() => applications(dir).count > 0);
    } finally {
      child.kill("SIGKILL");
      await exited;
    }
    const written = applications(dir).count;
    expect(written).toBeLessThan(30_000);

    const h = await harness({ dataDir: dir });
    h.adminToken = await h.login();
    const id = /job (\S+)/.exec(out)![1]!;
    await until(async () => (await job(h, id)).status !== "running");
    expect(await job(h, id)).toMatchObject({ status: "failed", error: CSV_IMPORT_MESSAGES.interrupted, updated: 0 });
    expect(applications(dir)).toEqual({ count: 0, rows: [], tags: [] });
  }, 120_000);
});

describe("CSV import: off the request", () => {
  it("a 50 MB file: the request answers with the job at once, the event loop never held for long", async () => {
    const h = await harness();
    const line = (i: number) => `L${i},Title ${i},"${"An abstract that goes on, ".repeat(9)}",tag:${i % 5}\n`;
    let csv = "id,title,abstract,tags\n";
    const parts = [csv];
    let size = csv.length;
    for (let i = 0; size < CSV_IMPORT_LIMITS.bytes - 1024; i++) {
      const l = line(i);
      parts.push(l);
      size += l.length;
    }
    csv = parts.join("");
    // The request built before the watch: only what the upstream does is watched. With its length, as over HTTP.
    const body = Buffer.from(JSON.stringify({ csvFileData: Buffer.from(csv).toString("base64") }));
    const request = new Request("http://upstream.test/api/applications/csv", {
      method: "POST",
      headers: { authorization: `Bearer ${h.adminToken}`, "content-type": "application/json", "content-length": String(body.length) },
      body,
    });
    const { result, longest } = await watchEventLoop(async () => {
      const res = await h.up.fetch(request);
      const answered = (await res.json()) as ImportJob;
      // And the job working in the background for a while.
      await new Promise((r) => setTimeout(r, 3000));
      return { status: res.status, answered };
    });
    expect(result.status).toBe(202);
    expect(result.answered.status).toBe("running");
    expect(longest).toBeLessThan(1000);
  }, 120_000);

  it("a file that is not base64, has no id column, or no file: 400 at once, nothing started", async () => {
    const h = await harness();
    const bad = await h.call("POST", "/api/applications/csv", { token: h.adminToken, body: { csvFileData: "@@@@" } });
    expect(bad.status).toBe(400);
    expect(await message(bad)).toBe(CSV_IMPORT_MESSAGES.notBase64);
    const noId = await post(h, "title\nx");
    expect(noId.status).toBe(400);
    expect(await message(noId)).toMatch(/"id" column/);
    expect((await h.call("POST", "/api/applications/csv", { token: h.adminToken, body: {} })).status).toBe(400);
    const res = await h.call("POST", "/api/applications/csv", { token: h.adminToken, body: { portfolioId: "nope", csvFileData: Buffer.from("id\nA").toString("base64") } });
    expect(res.status).toBe(400);
  });
});

describe("CSV import: waiting files are bounded", () => {
  it("one import runs at a time, three wait; a fifth is a 429 while they do", async () => {
    const h = await harness();
    const csv = ["id,title", ...Array.from({ length: 20_000 }, (_, i) => `W${i},Waiting ${i}`)].join("\n");
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await post(h, csv));
    expect(answers.map((r) => r.status)).toEqual([202, 202, 202, 202, 429]);
    expect(await message(answers[4]!)).toBe(CSV_IMPORT_MESSAGES.busy);
  }, 120_000);
});

describe("the upload reader", () => {
  /** The body as a stream of `size`-byte chunks (a boundary falls anywhere: in a key, an escape, the padding). */
  const stream = (text: string, size: number) => {
    const bytes = Buffer.from(text);
    return new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += size) controller.enqueue(new Uint8Array(bytes.subarray(at, at + size)));
        controller.close();
      },
    });
  };
  const csv = "id,title\nA1,Gear ü\n";
  const b64 = Buffer.from(csv).toString("base64");

  it("decodes csvFileData as it arrives, whatever the chunks, with escapes, white space and a data: prefix", async () => {
    const texts = [
      JSON.stringify({ csvFileData: b64, portfolioId: "public" }),
      `{ "portfolioId" : "p\\u0031", "x": {"a": [1, "}"]}, "csvFileData": "data:text/csv;base64,${b64.slice(0, 8)}\\n${b64.slice(8).replace(/\//g, "\\/")}" }`,
    ];
    for (const text of texts) {
      for (const size of [1, 3, 7, 1024]) {
        const upload = await readCsvUpload(stream(text, size));
        expect(Buffer.concat(upload.csv!).toString(), `${size}`).toBe(csv);
        expect(upload.fields.portfolioId).toMatch(/^(public|p1)$/);
      }
    }
  });

  it("refuses a body that is not JSON, base64 that is not, and a file over the limit", async () => {
    const refused = async (text: string) => {
      try {
        await readCsvUpload(stream(text, 5));
        return "read";
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(await refused("nope")).toBe("Request body must be JSON");
    expect(await refused(`{"csvFileData": "${b64}"`)).toBe("Request body must be JSON");
    expect(await refused(`{"csvFileData": "ab=c"}`)).toBe(CSV_IMPORT_MESSAGES.notBase64);
    expect(await refused(`{"csvFileData": "a*bc"}`)).toBe(CSV_IMPORT_MESSAGES.notBase64);
    expect(await refused(`{"csvFileData": "abcde"}`)).toBe(CSV_IMPORT_MESSAGES.notBase64);
    const big = Buffer.alloc(CSV_IMPORT_LIMITS.bytes + 3).toString("base64");
    try {
      await readCsvUpload(stream(`{"csvFileData": "${big}"}`, 1024 * 1024));
      expect.unreachable();
    } catch (error) {
      expect((error as HttpError).status).toBe(413);
    }
  }, 60_000);
});
