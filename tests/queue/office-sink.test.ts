import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ApplicationCreate } from "@contract/portfolio";
import { ApplicationsSink } from "../../upstream/src/applications/office-sink";
import { ApplicationsStore } from "../../upstream/src/applications/store";
import { openDatabase, type Db } from "../../upstream/src/db";
import { SqliteSearchEngine } from "../../upstream/src/search/sqlite";

const opened: { db: Db; dir: string }[] = [];
afterEach(() => {
  for (const { db, dir } of opened.splice(0)) {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

function setup() {
  const dir = mkdtempSync(path.join(tmpdir(), "backoffice-sink-"));
  const db = openDatabase(dir);
  opened.push({ db, dir });
  const store = new ApplicationsStore(db, Date.now);
  return { store, sink: new ApplicationsSink(db, store), engine: new SqliteSearchEngine(db) };
}

describe("the queues write into the portfolio (ApplicationsSink)", () => {
  it("updates title, abstract and claims of a portfolio application, keeps its tags, and the search finds the new text", async () => {
    const { store, sink, engine } = setup();
    store.create(ApplicationCreate.parse({ id: "PCTUS24012345", title: "Old title", tags: [{ name: "solar", score: 0.5 }] }), null);
    const fields = { title: "Solar shingle", abstract: "A roof shingle producing power.", claims: "1. A shingle with a cell." };
    // The office's form of the id (slashes) finds the stored one.
    expect(await sink.updateFromOffice("PCT/US24/012345", fields)).toBe("updated");
    expect(store.get("PCTUS24012345")).toMatchObject({ ...fields, tags: [{ name: "solar", score: 0.5 }] });
    const found = await engine.search({ query: { match: { abstract: "shingle" } } }, {});
    expect(found.data.map((a) => a.id)).toEqual(["PCTUS24012345"]);
    expect((await engine.search({ query: { match: { title: "old" } } }, {})).total).toBe(0);
  });

  it("answers not-found for an application outside the portfolio, and says which ids are in it", async () => {
    const { store, sink } = setup();
    store.create(ApplicationCreate.parse({ id: "16123456" }), null);
    expect(await sink.updateFromOffice("16000404", { title: "x", abstract: "", claims: "" })).toBe("not-found");
    expect(store.get("16000404")).toBeNull();
    expect([...(await sink.existing(["16123456", "16000404", "PCT/US24/012345"]))]).toEqual(["16123456"]);
  });
});
