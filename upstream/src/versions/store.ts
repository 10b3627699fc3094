/**
 * The versioned-document store (docs/decisions/versions-kit.md): for one kind of document, its draft (at most one),
 * its immutable revisions, commit, activation of an old revision, history and compare. The current document stays
 * in the kind's own table, reached through the kind's `current`/`replace`; every operation is one transaction (a
 * savepoint inside the caller's), and every save may carry the version it was based on: a stale one is a 409 with
 * the version it now is, never a lost update.
 */
import crypto from "node:crypto";
import type { Db } from "../db";
import { prepared } from "../lib/collection";
import { HttpError, isoNow, notFound } from "../lib/http";
import { VERSION_MESSAGES as M, type RevisionSummary, type VersionRef } from "../../contract/versions";

/** How the store reaches a kind's current document. Both run inside the store's transaction. */
export type VersionedKind<D> = {
  /** The kind's name in the kit's tables ("milestone-template", "prompt"). */
  kind: string;
  /** The current document of `id` and its revision (0 before the first commit), or null when there is no `id`. */
  current(id: string): { document: D; revision: number; updatedBy: string | null; updatedAt: string | null } | null;
  /** Makes `document` the current document of `id` at `revision` (its latest commit, with `commitMessage`). */
  replace(id: string, document: D, revision: number, commitMessage: string, actor: string | null): void;
  /** The current revision's commit message changed (`editMessage`), for a kind that keeps it beside its document. */
  currentMessage?(id: string, commitMessage: string): void;
};

export type Draft<D> = {
  id: string;
  documentId: string;
  version: number;
  baseRevision: number;
  document: D;
  createdAt: string;
  createdBy: string | null;
  updatedAt: string;
  updatedBy: string | null;
};

export type Revision<D> = Omit<RevisionSummary, "current"> & { document: D };

type DraftRow = {
  id: string;
  document_id: string;
  version: number;
  base_revision: number;
  data: string;
  created_at: string;
  created_by: string | null;
  updated_at: string;
  updated_by: string | null;
};
type RevisionRow = { revision: number; commit_message: string; author: string | null; created_at: string; activated_from: number | null };

/** A 409 refusing a stale save, with what the client needs to ask the user and retry (contract VersionConflict). */
export const staleSave = (message: string, version: number, updatedBy: string | null, updatedAt: string | null) =>
  new HttpError(409, message, {}, { version, updatedBy, updatedAt });

export type CommitOptions = {
  commitMessage?: string;
  /** The current revision the document was based on; another one is a 409. */
  baseRevision?: number;
  /** Commits the draft at this version and drops it in the same transaction; another version (or none) is a 409. */
  draftVersion?: number;
  activatedFrom?: number | null;
};

export class VersionedStore<D> {
  constructor(
    private readonly db: Db,
    private readonly now: () => number,
    private readonly k: VersionedKind<D>,
  ) {}

  private draftOf(row: DraftRow | undefined): Draft<D> | null {
    if (!row) return null;
    return {
      id: row.id,
      documentId: row.document_id,
      version: row.version,
      baseRevision: row.base_revision,
      document: JSON.parse(row.data) as D,
      createdAt: row.created_at,
      createdBy: row.created_by,
      updatedAt: row.updated_at,
      updatedBy: row.updated_by,
    };
  }

  /** The draft of document `id`, or null. */
  draft(id: string): Draft<D> | null {
    return this.draftOf(prepared(this.db, "select * from versioned_drafts where kind = ? and document_id = ?").get(this.k.kind, id) as DraftRow | undefined);
  }

  /** A draft by its own id, or null. */
  draftById(draftId: string): Draft<D> | null {
    return this.draftOf(prepared(this.db, "select * from versioned_drafts where kind = ? and id = ?").get(this.k.kind, draftId) as DraftRow | undefined);
  }

  private requireCurrent(id: string) {
    const cur = this.k.current(id);
    if (!cur) throw notFound(M.draftNotFound);
    return cur;
  }

  /** A draft save or discard based on `baseVersion` (0: on no draft) must find the draft still at it. */
  private checkDraft(existing: Draft<D> | null, baseVersion: number | undefined): void {
    if (baseVersion === undefined) return;
    if ((existing?.version ?? 0) !== baseVersion) {
      throw staleSave(M.overwriteDraft, existing?.version ?? 0, existing?.updatedBy ?? null, existing?.updatedAt ?? null);
    }
  }

  /**
   * Creates or overwrites the draft of `id`. A draft begun now records the current revision it starts from; an
   * overwrite keeps the one its draft began from.
   */
  saveDraft(id: string, document: D, options: { baseVersion?: number }, actor: string | null): Draft<D> {
    return this.db.transaction(() => {
      const cur = this.requireCurrent(id);
      const existing = this.draft(id);
      this.checkDraft(existing, options.baseVersion);
      const at = isoNow(this.now);
      const data = JSON.stringify(document);
      if (existing) {
        prepared(this.db, "update versioned_drafts set version = version + 1, data = ?, updated_at = ?, updated_by = ? where id = ?").run(data, at, actor, existing.id);
      } else {
        prepared(
          this.db,
          `insert into versioned_drafts (id, kind, document_id, version, base_revision, data, created_at, created_by, updated_at, updated_by)
           values (?, ?, ?, 1, ?, ?, ?, ?, ?, ?)`,
        ).run(crypto.randomUUID(), this.k.kind, id, cur.revision, data, at, actor, at, actor);
      }
      return this.draft(id)!;
    })();
  }

  /** Drops the draft of `id` (false when there is none). */
  discardDraft(id: string, options: { baseVersion?: number } = {}): boolean {
    return this.db.transaction(() => {
      const existing = this.draft(id);
      if (!existing) return false;
      this.checkDraft(existing, options.baseVersion);
      prepared(this.db, "delete from versioned_drafts where id = ?").run(existing.id);
      return true;
    })();
  }

  /**
   * Makes `document` the current document of `id` as a new revision (the latest plus one). Refused (409) when the
   * current document moved past `baseRevision`, or when the draft it commits moved past `draftVersion`.
   */
  commit(id: string, document: D, options: CommitOptions, actor: string | null): Revision<D> {
    return this.db.transaction(() => {
      const cur = this.requireCurrent(id);
      if (options.baseRevision !== undefined && options.baseRevision !== cur.revision) {
        throw staleSave(M.stale(cur.revision, cur.updatedBy), cur.revision, cur.updatedBy, cur.updatedAt);
      }
      if (options.draftVersion !== undefined) {
        const d = this.draft(id);
        this.checkDraft(d, options.draftVersion);
        if (d) prepared(this.db, "delete from versioned_drafts where id = ?").run(d.id);
      }
      const revision = this.latest(id) + 1;
      const message = options.commitMessage ?? "";
      const at = isoNow(this.now);
      prepared(
        this.db,
        `insert into versioned_revisions (kind, document_id, revision, commit_message, author, created_at, activated_from, data)
         values (?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(this.k.kind, id, revision, message, actor, at, options.activatedFrom ?? null, JSON.stringify(document));
      this.k.replace(id, document, revision, message, actor);
      return { revision, commitMessage: message, author: actor, createdAt: at, activatedFrom: options.activatedFrom ?? null, document };
    })();
  }

  /**
   * Records `document` as revision 1 of a document its kind has just created (the kind wrote the current itself).
   */
  start(id: string, document: D, commitMessage: string, actor: string | null): void {
    prepared(
      this.db,
      `insert into versioned_revisions (kind, document_id, revision, commit_message, author, created_at, data) values (?, ?, 1, ?, ?, ?, ?)`,
    ).run(this.k.kind, id, commitMessage, actor, isoNow(this.now), JSON.stringify(document));
  }

  /** Makes revision `n`'s content current again, as a new revision: history is never rewritten. */
  activateRevision(id: string, n: number, options: { baseRevision?: number; commitMessage?: string }, actor: string | null): Revision<D> {
    return this.db.transaction(() => {
      const old = this.revision(id, n);
      if (!old) throw notFound(M.revisionNotFound);
      return this.commit(id, old.document, { baseRevision: options.baseRevision, commitMessage: options.commitMessage || M.activatedRevision(n), activatedFrom: n }, actor);
    })();
  }

  /**
   * Changes revision `n`'s commit message: metadata about the revision, not its content, which stays as committed.
   * Null when there is no revision `n`.
   */
  editMessage(id: string, n: number, commitMessage: string): Omit<RevisionSummary, "current"> | null {
    return this.db.transaction(() => {
      const changed = prepared(this.db, "update versioned_revisions set commit_message = ? where kind = ? and document_id = ? and revision = ?").run(
        commitMessage,
        this.k.kind,
        id,
        n,
      );
      if (!changed.changes) return null;
      // The current revision's message may be kept by the kind too (a chain answers it as its comment).
      if (this.k.current(id)?.revision === n) this.k.currentMessage?.(id, commitMessage);
      const { document: _content, ...summary } = this.revision(id, n)!;
      return summary;
    })();
  }

  /**
   * Deletes revision `n` of `id` from its history (false when there is none). The current revision is refused (409):
   * what runs keeps its content and its record. Numbers are never reused: the current revision is always the latest.
   */
  removeRevision(id: string, n: number): boolean {
    return this.db.transaction(() => {
      if (this.k.current(id)?.revision === n) throw new HttpError(409, M.activeRevisionDelete);
      return prepared(this.db, "delete from versioned_revisions where kind = ? and document_id = ? and revision = ?").run(this.k.kind, id, n).changes > 0;
    })();
  }

  /** The latest revision number of `id` (0 when none). */
  latest(id: string): number {
    const row = prepared(this.db, "select max(revision) as n from versioned_revisions where kind = ? and document_id = ?").get(this.k.kind, id) as { n: number | null };
    return row.n ?? 0;
  }

  /** Revision `n` of `id`, or null. */
  revision(id: string, n: number): Revision<D> | null {
    const row = prepared(this.db, "select * from versioned_revisions where kind = ? and document_id = ? and revision = ?").get(this.k.kind, id, n) as
      | (RevisionRow & { data: string })
      | undefined;
    if (!row) return null;
    return { ...summaryOf(row), document: JSON.parse(row.data) as D };
  }

  /** The history of `id`, newest first: `limit` revisions older than `before`, the current one marked. */
  history(id: string, options: { limit: number; before?: number }): RevisionSummary[] {
    const current = this.k.current(id)?.revision ?? 0;
    const rows = prepared(
      this.db,
      `select revision, commit_message, author, created_at, activated_from from versioned_revisions
       where kind = ? and document_id = ? and revision < ? order by revision desc limit ?`,
    ).all(this.k.kind, id, options.before ?? Number.MAX_SAFE_INTEGER, options.limit) as RevisionRow[];
    return rows.map((r) => ({ ...summaryOf(r), current: r.revision === current }));
  }

  /** The document `ref` of `id`: the current one, its draft, or revision N; null when there is none. */
  resolve(id: string, ref: VersionRef): D | null {
    if (ref === "current") return this.k.current(id)?.document ?? null;
    if (ref === "draft") return this.draft(id)?.document ?? null;
    return this.revision(id, ref)?.document ?? null;
  }

  /** Two versions of `id` for a differ, read in one transaction (404 naming the missing one). */
  compare(id: string, a: VersionRef, b: VersionRef): { before: D; after: D } {
    return this.db.transaction(() => {
      const before = this.resolve(id, a);
      const after = this.resolve(id, b);
      if (!before || !after) throw notFound((before ? b : a) === "draft" ? M.draftNotFound : M.revisionNotFound);
      return { before, after };
    })();
  }

  /** Forgets the draft and the revisions of a document the kind deleted. */
  forget(id: string): void {
    prepared(this.db, "delete from versioned_drafts where kind = ? and document_id = ?").run(this.k.kind, id);
    prepared(this.db, "delete from versioned_revisions where kind = ? and document_id = ?").run(this.k.kind, id);
  }
}

const summaryOf = (r: RevisionRow): Omit<RevisionSummary, "current"> => ({
  revision: r.revision,
  commitMessage: r.commit_message,
  author: r.author,
  createdAt: r.created_at,
  activatedFrom: r.activated_from,
});
