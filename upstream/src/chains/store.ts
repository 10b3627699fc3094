/**
 * Prompt chains (spec 3 §3): a collection of the resource kit whose current version lives in `chains`, versioned by
 * the versions kit (kind "prompt": one draft, immutable numbered versions with a comment). Lists filter by tags (any)
 * and organizations (any), in SQL.
 */
import type { Statement } from "better-sqlite3";
import type { ChainDocument, ChainLibraryItem, ChainTemplate } from "../../contract/chains";
import type { Db } from "../db";
import { prepared } from "../lib/collection";
import { CollectionStore, columns, type Stored } from "../lib/collection-store";
import { isoNow } from "../lib/http";
import { uniqueTags } from "../lib/tags";
import { VersionedStore } from "../versions/store";

/** A chain as stored: its document, the version that is current and that version's comment. */
export type StoredChain = ChainDocument & Stored & { revision: number; comment: string };

export type ChainFilters = { tags: readonly string[]; organizations: readonly string[] };

/** A filter keeping rows whose JSON array column holds any of the values (one statement whatever their number). */
const anyOf = (column: string) => (values: readonly string[]) => ({
  sql: `exists (select 1 from json_each(${column}) c where c.value in (select value from json_each(?)))`,
  params: [JSON.stringify(values)],
});

const documentOf = (c: StoredChain): ChainDocument => ({
  name: c.name,
  isPublic: c.isPublic,
  isGeneric: c.isGeneric,
  organizations: c.organizations,
  categories: c.categories,
  tags: c.tags,
  description: c.description,
  template: c.template,
});

export class ChainsStore extends CollectionStore<StoredChain, ChainFilters> {
  readonly versions: VersionedStore<ChainDocument>;
  private readonly replaceRow: Statement;

  constructor(db: Db, now: () => number) {
    super(db, now, {
      table: "chains",
      columns: {
        name: columns.text("name"),
        isPublic: columns.bool("is_public"),
        isGeneric: columns.bool("is_generic"),
        description: columns.text("description"),
        organizations: columns.json("organizations"),
        categories: columns.json("categories"),
        tags: columns.json("tags"),
        template: columns.json("template"),
        revision: { column: "revision", toDb: (v) => v, fromDb: (v) => v },
        comment: columns.text("comment"),
      },
      search: ["name", "description", "tags"],
      filters: { tags: anyOf("tags"), organizations: anyOf("organizations") },
      normalize: (values) => ({ ...values, tags: uniqueTags(values.tags), template: normalizeTemplate(values.template) }),
    });
    this.replaceRow = db.prepare(
      `update chains set name = ?, is_public = ?, is_generic = ?, description = ?, organizations = ?, categories = ?, tags = ?,
         template = ?, revision = ?, comment = ?, updated_at = ?, updated_by = ? where id = ?`,
    );
    const setComment = db.prepare("update chains set comment = ? where id = ?");
    this.versions = new VersionedStore<ChainDocument>(db, now, {
      kind: "prompt",
      current: (id) => {
        const c = this.get(id);
        return c ? { document: documentOf(c), revision: c.revision, updatedBy: c.updatedBy, updatedAt: c.updatedAt } : null;
      },
      replace: (id, d, revision, message, actor) => {
        const t = normalizeTemplate(d.template);
        this.replaceRow.run(
          d.name,
          d.isPublic ? 1 : 0,
          d.isGeneric ? 1 : 0,
          d.description,
          JSON.stringify(d.organizations),
          JSON.stringify(d.categories),
          JSON.stringify(uniqueTags(d.tags)),
          JSON.stringify(t),
          revision,
          message,
          isoNow(now),
          actor,
          id,
        );
      },
      currentMessage: (id, message) => void setComment.run(message, id),
    });
  }

  /** The tags the chains use (case-insensitively distinct, by name), at most `limit`: the list's tag filter. */
  tagsInUse(limit = 500): string[] {
    return prepared(this.db, `select min(t.value) from chains c, json_each(c.tags) t group by lower(t.value) order by lower(t.value) limit ${limit}`)
      .pluck()
      .all() as string[];
  }

  /** Runs `work` in one transaction (a savepoint inside a caller's). */
  transaction<T>(work: () => T): T {
    return this.db.transaction(work)();
  }

  /** Creates a chain and records it as version 1, in one transaction. */
  createVersioned(doc: ChainDocument, comment: string, actor: string | null): StoredChain {
    return this.db.transaction(() => {
      const created = this.create({ ...doc, revision: 1, comment }, actor);
      this.versions.start(created.id, documentOf(created), comment, actor);
      return created;
    })();
  }

  /** Deletes a chain with its draft and versions; false when there was none. */
  removeVersioned(id: string): boolean {
    return this.db.transaction(() => {
      const removed = this.remove(id);
      if (removed) this.versions.forget(id);
      return removed;
    })();
  }

  /** The document of a stored chain. */
  documentOf(c: StoredChain): ChainDocument {
    return documentOf(c);
  }

}

/** Spec 3 §4.2: when every link is gone the chat goes too. */
export function normalizeTemplate(t: ChainTemplate): ChainTemplate {
  return t.chain.length ? t : { ...t, chat: null };
}

const stringList = (v: unknown): string[] => {
  try {
    const parsed = JSON.parse(String(v)) as unknown;
    return Array.isArray(parsed) ? parsed.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
};

/**
 * Every chain as the library lists it (id, name, description, tags, organizations, categories, public, generic,
 * author, dates), by name: one statement, no template read. The library's one way into the chains.
 */
export function listChainsForLibrary(db: Db): ChainLibraryItem[] {
  const rows = prepared(
    db,
    `select id, name, description, tags, organizations, categories, is_public, is_generic, created_by, created_at, updated_at, updated_by
     from chains order by lower(name), id`,
  ).all() as Record<string, unknown>[];
  return rows.map((r) => ({
    id: String(r.id),
    name: String(r.name),
    description: String(r.description),
    tags: stringList(r.tags),
    organizations: stringList(r.organizations),
    categories: stringList(r.categories),
    isPublic: r.is_public === 1,
    isGeneric: r.is_generic === 1,
    author: (r.created_by as string | null) ?? null,
    createdAt: String(r.created_at),
    updatedAt: String(r.updated_at),
    updatedBy: (r.updated_by as string | null) ?? null,
  }));
}
