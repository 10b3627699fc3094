import Database from "better-sqlite3";
import { describe, expect, test } from "vitest";
import { VERSION_MESSAGES as M } from "@contract/versions";
import { HttpError } from "../../upstream/src/lib/http";
import { VERSIONS_SCHEMA } from "../../upstream/src/versions/schema";
import { VersionedStore } from "../../upstream/src/versions/store";

/**
 * The kit over a kind of its own (a note: text and tags), as a second document type adopts it: its current document
 * in its own table, drafts and revisions in the kit's.
 */
type Note = { text: string; tags: string[] };

function setup(options: { failReplace?: () => boolean } = {}) {
  const db = new Database(":memory:");
  db.exec(VERSIONS_SCHEMA);
  db.exec("create table notes (id text primary key, data text not null, revision integer not null, updated_by text, updated_at text)");
  let t = Date.parse("2026-11-27T10:00:00Z");
  const now = () => (t += 1000);
  const store = new VersionedStore<Note>(db, now, {
    kind: "note",
    current: (id) => {
      const row = db.prepare("select * from notes where id = ?").get(id) as { data: string; revision: number; updated_by: string | null; updated_at: string } | undefined;
      return row ? { document: JSON.parse(row.data) as Note, revision: row.revision, updatedBy: row.updated_by, updatedAt: row.updated_at } : null;
    },
    replace: (id, document, revision, _message, actor) => {
      db.prepare("update notes set data = ?, revision = ?, updated_by = ?, updated_at = ? where id = ?").run(JSON.stringify(document), revision, actor, new Date(t).toISOString(), id);
      if (options.failReplace?.()) throw new Error("disk on fire");
    },
  });
  const create = (id: string, note: Note, actor = "ann@example.com") => {
    db.prepare("insert into notes (id, data, revision, updated_by, updated_at) values (?, ?, 1, ?, ?)").run(id, JSON.stringify(note), actor, new Date(t).toISOString());
    store.start(id, note, "Created", actor);
  };
  return { db, store, create };
}

/** The 409 a call throws, as the route answers it. */
function conflictOf(fn: () => unknown): { message: string; extra: Record<string, unknown> } {
  try {
    fn();
  } catch (error) {
    if (error instanceof HttpError && error.status === 409) return { message: error.message, extra: error.extra };
    throw error;
  }
  throw new Error("no conflict");
}

describe("the versioned-document store (upstream/src/versions)", () => {
  test("a draft: created from the current document, overwritten from its version, discarded", () => {
    const { store, create } = setup();
    create("n1", { text: "one", tags: [] });
    expect(store.draft("n1")).toBeNull();
    const d1 = store.saveDraft("n1", { text: "one and a half", tags: [] }, { baseVersion: 0 }, "bob@example.com");
    expect(d1).toMatchObject({ version: 1, baseRevision: 1, document: { text: "one and a half" }, createdBy: "bob@example.com" });
    const d2 = store.saveDraft("n1", { text: "two", tags: [] }, { baseVersion: 1 }, "bob@example.com");
    expect(d2).toMatchObject({ id: d1.id, version: 2, baseRevision: 1, document: { text: "two" } });
    expect(store.draftById(d1.id)?.documentId).toBe("n1");
    // The current document is untouched by its draft.
    expect(store.resolve("n1", "current")).toEqual({ text: "one", tags: [] });
    expect(conflictOf(() => store.discardDraft("n1", { baseVersion: 1 })).message).toBe(M.overwriteDraft);
    expect(store.discardDraft("n1", { baseVersion: 2 })).toBe(true);
    expect(store.discardDraft("n1")).toBe(false);
  });

  test("two saves from the same base: the first is saved, the second is a 409 naming the version now — nothing lost", () => {
    const { store, create } = setup();
    create("n1", { text: "one", tags: [] });
    // Two people start a draft from the same page (no draft yet).
    store.saveDraft("n1", { text: "Ann's", tags: [] }, { baseVersion: 0 }, "ann@example.com");
    const second = conflictOf(() => store.saveDraft("n1", { text: "Bob's", tags: [] }, { baseVersion: 0 }, "bob@example.com"));
    expect(second.message).toBe(M.overwriteDraft);
    expect(second.extra).toMatchObject({ version: 1, updatedBy: "ann@example.com" });
    expect(store.draft("n1")?.document.text).toBe("Ann's");
    // Bob confirms 'Overwrite draft?': he sends the version the 409 named.
    expect(store.saveDraft("n1", { text: "Bob's", tags: [] }, { baseVersion: 1 }, "bob@example.com").version).toBe(2);

    // Two commits from revision 1: one revision 2, one 409.
    store.commit("n1", { text: "Ann's commit", tags: [] }, { baseRevision: 1, commitMessage: "Ann" }, "ann@example.com");
    const stale = conflictOf(() => store.commit("n1", { text: "Bob's commit", tags: [] }, { baseRevision: 1, commitMessage: "Bob" }, "bob@example.com"));
    expect(stale.message).toBe(M.stale(2, "ann@example.com"));
    expect(stale.extra).toMatchObject({ version: 2, updatedBy: "ann@example.com" });
    expect(store.resolve("n1", "current")?.text).toBe("Ann's commit");
    expect(store.latest("n1")).toBe(2);
  });

  test("commit of the draft at its version drops it in the same transaction; a stale draft version commits nothing", () => {
    const { store, create } = setup();
    create("n1", { text: "one", tags: [] });
    const d = store.saveDraft("n1", { text: "draft", tags: ["x"] }, {}, "bob@example.com");
    expect(conflictOf(() => store.commit("n1", d.document, { draftVersion: d.version + 1 }, "bob@example.com")).message).toBe(M.overwriteDraft);
    expect(store.latest("n1")).toBe(1);
    const r = store.commit("n1", d.document, { draftVersion: d.version, baseRevision: 1, commitMessage: "Tagged" }, "bob@example.com");
    expect(r).toMatchObject({ revision: 2, commitMessage: "Tagged", author: "bob@example.com", activatedFrom: null });
    expect(store.draft("n1")).toBeNull();
    expect(store.resolve("n1", "current")).toEqual({ text: "draft", tags: ["x"] });
  });

  test("activating an old revision makes its content current as a new revision; history never rewrites", () => {
    const { store, create } = setup();
    create("n1", { text: "one", tags: [] });
    store.commit("n1", { text: "two", tags: [] }, { commitMessage: "Second" }, "bob@example.com");
    store.commit("n1", { text: "three", tags: [] }, { commitMessage: "Third" }, "ann@example.com");
    expect(conflictOf(() => store.activateRevision("n1", 1, { baseRevision: 2 }, "bob@example.com")).extra).toMatchObject({ version: 3 });
    const r = store.activateRevision("n1", 1, { baseRevision: 3 }, "bob@example.com");
    expect(r).toMatchObject({ revision: 4, activatedFrom: 1, commitMessage: M.activatedRevision(1) });
    expect(store.resolve("n1", "current")?.text).toBe("one");
    const history = store.history("n1", { limit: 10 });
    expect(history.map((h) => [h.revision, h.commitMessage, h.author, h.current])).toEqual([
      [4, "Activated revision 1", "bob@example.com", true],
      [3, "Third", "ann@example.com", false],
      [2, "Second", "bob@example.com", false],
      [1, "Created", "ann@example.com", false],
    ]);
    expect(store.history("n1", { limit: 2, before: 3 }).map((h) => h.revision)).toEqual([2, 1]);
    expect(store.revision("n1", 3)?.document.text).toBe("three");
    expect(() => store.activateRevision("n1", 9, {}, null)).toThrow(M.revisionNotFound);
  });

  test("compare reads two versions (current, draft, N); a missing one is a 404", () => {
    const { store, create } = setup();
    create("n1", { text: "one", tags: [] });
    store.saveDraft("n1", { text: "draft", tags: [] }, {}, null);
    expect(store.compare("n1", "current", "draft")).toEqual({ before: { text: "one", tags: [] }, after: { text: "draft", tags: [] } });
    expect(store.compare("n1", 1, "current").after.text).toBe("one");
    expect(() => store.compare("n1", 1, 7)).toThrow(M.revisionNotFound);
    store.discardDraft("n1");
    expect(() => store.compare("n1", "current", "draft")).toThrow(M.draftNotFound);
  });

  test("every operation is one transaction: a failure of the kind's write leaves neither a revision nor a dropped draft", () => {
    let fail = false;
    const { store, create } = setup({ failReplace: () => fail });
    create("n1", { text: "one", tags: [] });
    const d = store.saveDraft("n1", { text: "draft", tags: [] }, {}, null);
    fail = true;
    expect(() => store.commit("n1", d.document, { draftVersion: d.version }, null)).toThrow("disk on fire");
    expect(store.latest("n1")).toBe(1);
    expect(store.draft("n1")?.version).toBe(d.version);
    expect(store.resolve("n1", "current")?.text).toBe("one");
  });

  test("forget drops a deleted document's draft and revisions; kinds never see each other's", () => {
    const { db, store, create } = setup();
    create("n1", { text: "one", tags: [] });
    store.saveDraft("n1", { text: "draft", tags: [] }, {}, null);
    const other = new VersionedStore<Note>(db, Date.now, { kind: "other", current: () => ({ document: { text: "", tags: [] }, revision: 0, updatedBy: null, updatedAt: null }), replace: () => {} });
    expect(other.draft("n1")).toBeNull();
    expect(other.history("n1", { limit: 10 })).toEqual([]);
    store.forget("n1");
    expect(store.draft("n1")).toBeNull();
    expect(store.history("n1", { limit: 10 })).toEqual([]);
  });
});
