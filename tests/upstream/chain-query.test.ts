import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { CHAIN_QUERY_MESSAGES, DEFAULT_QUERY_SQL, querySqlProblem } from "@contract/chain-query";
import { openDatabase } from "../../upstream/src/db";
import { CHANGED_SQL, ChainCorpus, paragraphsOf } from "../../upstream/src/chain-query/corpus";
import { QueryRefused, QuerySandbox } from "../../upstream/src/chain-query/sandbox";
import { tempDir } from "./helpers";

type Source = ReturnType<typeof openDatabase>;

function addApplication(db: Source, id: string, fields: { title?: string; abstract?: string; claims?: string; specification?: string; updatedAt?: string }) {
  const at = fields.updatedAt ?? new Date().toISOString();
  db.prepare(
    `insert into applications (id, portfolio_id, portfolio_token, title, abstract, claims, specification, created_at, updated_at)
     values (?, 'p1', 'p1', ?, ?, ?, ?, ?, ?)
     on conflict (id) do update set title = excluded.title, abstract = excluded.abstract, claims = excluded.claims,
       specification = excluded.specification, updated_at = excluded.updated_at`,
  ).run(id, fields.title ?? "", fields.abstract ?? "", fields.claims ?? "", fields.specification ?? "", at, at);
}

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function corpusWith(apps: Record<string, Parameters<typeof addApplication>[2]>) {
  const dir = tempDir();
  const source = openDatabase(dir);
  closers.push(() => void source.close());
  for (const [id, fields] of Object.entries(apps)) addApplication(source, id, fields);
  const corpus = new ChainCorpus(path.join(dir, "chain-corpus.db"), source);
  closers.push(() => corpus.close());
  await corpus.sync();
  return { source, corpus };
}

function sandboxOf(corpus: ChainCorpus, ...rest: Parameters<typeof newSandbox> extends [unknown, ...infer R] ? R : never) {
  const sandbox = newSandbox(corpus.file, ...rest);
  closers.push(() => sandbox.close());
  return sandbox;
}
const newSandbox = (file: string, limits?: ConstructorParameters<typeof QuerySandbox>[1], options?: ConstructorParameters<typeof QuerySandbox>[2]) =>
  new QuerySandbox(file, limits, options);

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => "answered",
    (error: unknown) => (error instanceof QueryRefused ? error.message : `not refused: ${String(error)}`),
  );

describe("a query link's SQL, checked before it runs", () => {
  test("one read-only SELECT (or WITH … SELECT) passes; strings and comments hide nothing", () => {
    expect(querySqlProblem(DEFAULT_QUERY_SQL)).toBeNull();
    expect(querySqlProblem("with x as (select 1) select * from x;")).toBeNull();
    expect(querySqlProblem("select 'a; drop table paragraphs' as text -- ; delete")).toBeNull();
    expect(querySqlProblem("select \"update\" from t")).toBeNull();
  });
  test("refuses more than one statement, writes, ATTACH, PRAGMA (statement or function), transactions, unclosed text", () => {
    expect(querySqlProblem("")).toBe(CHAIN_QUERY_MESSAGES.empty);
    expect(querySqlProblem("select 1; select 2")).toBe(CHAIN_QUERY_MESSAGES.oneStatement);
    expect(querySqlProblem("select 1 /* x */; delete from paragraphs")).toBe(CHAIN_QUERY_MESSAGES.oneStatement);
    expect(querySqlProblem("insert into paragraphs values (1)")).toBe(CHAIN_QUERY_MESSAGES.forbidden("INSERT"));
    expect(querySqlProblem("with x as (select 1) delete from paragraphs")).toBe(CHAIN_QUERY_MESSAGES.forbidden("DELETE"));
    expect(querySqlProblem("attach 'upstream.db' as u")).toBe(CHAIN_QUERY_MESSAGES.forbidden("ATTACH"));
    expect(querySqlProblem("pragma table_info(paragraphs)")).toBe(CHAIN_QUERY_MESSAGES.forbidden("PRAGMA"));
    expect(querySqlProblem("select * from pragma_database_list")).toBe(CHAIN_QUERY_MESSAGES.forbidden("PRAGMA"));
    expect(querySqlProblem("select load_extension('x')")).toBe(CHAIN_QUERY_MESSAGES.forbidden("LOAD_EXTENSION"));
    expect(querySqlProblem("begin")).toBe(CHAIN_QUERY_MESSAGES.forbidden("BEGIN"));
    expect(querySqlProblem("explain select 1")).toBe(CHAIN_QUERY_MESSAGES.selectOnly);
    expect(querySqlProblem("select 'open")).toBe(CHAIN_QUERY_MESSAGES.failed("a quote or a comment is not closed."));
    expect(querySqlProblem(`select '${"x".repeat(20_001)}'`)).toBe(CHAIN_QUERY_MESSAGES.tooLong);
  });
});

describe("the chains' corpus", () => {
  test("cuts sections into paragraphs: blank lines, each claim on its line, long ones in pieces", () => {
    expect(paragraphsOf("abstract", "First  part.\n\nSecond\npart.")).toEqual(["First part.", "Second part."]);
    expect(paragraphsOf("claims", "1. A widget.\n2. The widget of claim 1.")).toEqual(["1. A widget.", "2. The widget of claim 1."]);
    expect(paragraphsOf("specification", "x".repeat(9_000)).map((p) => p.length)).toEqual([4_000, 4_000, 1_000]);
  });

  test("copies applications as inventions, follows their changes and deletions", async () => {
    const { source, corpus } = await corpusWith({
      "US-1": { title: "Spring-loaded widget", claims: "1. A widget with a spring.\n2. The widget of claim 1, in steel." },
      "US-2": { title: "Gear train", abstract: "A train of gears.\n\nWith a clutch." },
    });
    const count = (sql: string, ...params: unknown[]) => (corpus.db.prepare(sql).pluck().get(...params) as number) ?? 0;
    expect(count("select count(*) from inventions")).toBe(2);
    expect(count("select count(*) from paragraphs where reference = 'US-1' and section = 'claims'")).toBe(2);

    addApplication(source, "US-1", { title: "Spring-loaded widget", claims: "1. A widget with a coil.", updatedAt: new Date(Date.now() + 1000).toISOString() });
    source.prepare("delete from applications where id = 'US-2'").run();
    expect(await corpus.sync()).toBe(1);
    expect(corpus.db.prepare("select text from paragraphs where reference = 'US-1' and section = 'claims'").pluck().all()).toEqual(["1. A widget with a coil."]);
    expect(count("select count(*) from inventions where reference = 'US-2'")).toBe(0);
    expect(count("select count(*) from paragraphs_fts where paragraphs_fts match 'clutch'")).toBe(0);
    // Nothing changed: nothing copied.
    expect(await corpus.sync()).toBe(0);
    // A batch reads the changed rows through their index, at any portfolio size.
    const plan = source
      .prepare(`explain query plan ${CHANGED_SQL}`)
      .all("", 0) as { detail: string }[];
    expect(plan.map((p) => p.detail).join("; ")).toMatch(/USING (COVERING )?INDEX applications_changed/);
  });
});

describe("the query sandbox", () => {
  test("the default query: the context's inventions' paragraphs closest to the question, at most 3, bound not spliced", async () => {
    const { corpus } = await corpusWith({
      "US-1": { title: "Spring-loaded widget", claims: "1. A widget with a spring.\n2. The spring of claim 1 is steel.\n3. A lever." },
      "US-2": { title: "Spring mattress", abstract: "Springs in a mattress." },
    });
    const sandbox = sandboxOf(corpus);
    const result = await sandbox.run(DEFAULT_QUERY_SQL, { question: "steel spring'); drop table x; --", references: JSON.stringify(["US-1"]) });
    expect(result.columns).toEqual(["reference", "section", "n", "text"]);
    expect(result.rows.length).toBe(3);
    expect(result.rows.every((row) => row[0] === "US-1")).toBe(true);
    expect(result.rows[0]?.[3]).toBe("2. The spring of claim 1 is steel.");
    // A variable the scope lacks is NULL, not an error: no words, no match.
    expect((await sandbox.run(DEFAULT_QUERY_SQL, {})).rows).toEqual([]);
  }, 30_000);

  test("SQLite's own checks hold without the pre-check: writes, ATTACH, a second statement are refused", async () => {
    const { corpus } = await corpusWith({ "US-1": { title: "Widget" } });
    const sandbox = sandboxOf(corpus, {}, { precheck: () => null });
    expect(await refusal(sandbox.run("delete from paragraphs"))).toBe(CHAIN_QUERY_MESSAGES.selectOnly);
    expect(await refusal(sandbox.run("insert into inventions values ('x', 'y', 'z') returning *"))).toMatch(/^The query failed: .*readonly|^A query link only reads/);
    expect(await refusal(sandbox.run(`attach '${path.join(path.dirname(corpus.file), "upstream.db")}' as u`))).toBe(CHAIN_QUERY_MESSAGES.selectOnly);
    expect(await refusal(sandbox.run("select 1; select 2"))).toBe(CHAIN_QUERY_MESSAGES.oneStatement);
    expect(corpus.db.prepare("select count(*) from inventions").pluck().get()).toBe(1);
    // The product's tables are not there to read.
    expect(await refusal(sandbox.run("select * from users"))).toBe(CHAIN_QUERY_MESSAGES.failed("no such table: users"));
  }, 30_000);

  test("a runaway query is stopped at its time limit with the event loop free meanwhile; the next query runs", async () => {
    const { corpus } = await corpusWith({ "US-1": { title: "Widget" } });
    const sandbox = sandboxOf(corpus, { statementMs: 800 });
    await sandbox.run("select 1"); // the process started
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    const started = Date.now();
    const stopped = await refusal(sandbox.run("with recursive c(x) as (select 1 union all select x + 1 from c) select count(*) from c"));
    clearInterval(timer);
    expect(stopped).toBe("The query ran longer than 0.8 s and was stopped.");
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(ticks).toBeGreaterThan(20);
    expect((await sandbox.run("select count(*) as n from inventions")).rows).toEqual([[1]]);
  }, 30_000);

  test("rows past the bound are not read; a busy sandbox refuses past its queue", async () => {
    const { corpus } = await corpusWith({ "US-1": { title: "Widget" } });
    const sandbox = sandboxOf(corpus, { rows: 5, queue: 1 });
    const many = await sandbox.run("with recursive c(x) as (select 1 union all select x + 1 from c limit 100) select x from c");
    expect([many.rows.length, many.truncated]).toEqual([5, true]);
    const slow = "with recursive c(x) as (select 1 union all select x + 1 from c limit 3000000) select count(*) from c";
    const results = await Promise.all([refusal(sandbox.run(slow)), refusal(sandbox.run(slow)), refusal(sandbox.run(slow))]);
    expect(results[2]).toBe(CHAIN_QUERY_MESSAGES.busy);
  }, 60_000);
});
