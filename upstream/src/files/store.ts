import crypto from "node:crypto";
import type { Readable } from "node:stream";
import type { Statement } from "better-sqlite3";
import { FILE_TTL_MS, type StoredFile } from "../../contract/files";
import type { Db } from "../db";
import type { FileStore } from "../lib/files";
import { isoNow } from "../lib/http";

type Row = {
  id: string;
  owner_id: string;
  name: string;
  content_type: string;
  size: number;
  created_at: string;
  expires_at: number;
};

const toFile = (r: Row): StoredFile => ({
  id: r.id,
  name: r.name,
  size: r.size,
  contentType: r.content_type,
  createdAt: r.created_at,
  expiresAt: new Date(r.expires_at).toISOString(),
});

const keyOf = (id: string) => `uploads/${id}`;
/** Expired uploads deleted per upload, at most (the rest go with the next ones). */
const PRUNE_BATCH = 100;

/**
 * Uploads kept between steps (a form can be re-shown without sending its file again): the bytes in a `FileStore` under
 * `uploads/{id}`, the name, type, size and owner in the `files` table. Only the owner (a user id) sees a file; it
 * expires `FILE_TTL_MS` after the upload and expired ones are deleted at the next upload.
 */
export class UploadsStore {
  private readonly statements: Record<"insert" | "select" | "erase" | "expired", Statement>;

  constructor(db: Db, private readonly files: FileStore, private readonly now: () => number) {
    this.statements = {
      insert: db.prepare(
        `insert into files (id, owner_id, name, content_type, size, sha256, created_at, expires_at)
         values (?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      select: db.prepare("select * from files where id = ? and owner_id = ? and expires_at > ?"),
      erase: db.prepare("delete from files where id = ?"),
      expired: db.prepare("select id from files where expires_at <= ? limit ?").pluck(),
    };
  }

  /** Stores `content` for `owner`; a `FileStoreError` "tooLarge" past `maxBytes` (nothing is kept then). */
  async add(
    owner: string,
    file: { name: string; contentType: string; content: Readable | Buffer },
    maxBytes: number,
  ): Promise<StoredFile> {
    await this.prune();
    const id = crypto.randomUUID();
    const stored = await this.files.put(keyOf(id), file.content, { maxBytes, overwrite: false });
    const createdAt = isoNow(this.now);
    const expiresAt = this.now() + FILE_TTL_MS;
    this.statements.insert.run(
      id,
      owner,
      file.name,
      file.contentType,
      stored.size,
      stored.sha256,
      createdAt,
      expiresAt,
    );
    return this.get(id, owner)!;
  }

  /** The file of `owner`, or null (missing, someone else's, expired). */
  get(id: string, owner: string): StoredFile | null {
    const row = this.statements.select.get(id, owner, this.now()) as Row | undefined;
    return row ? toFile(row) : null;
  }

  /** The file and its bytes, or null like `get`. */
  open(id: string, owner: string): { file: StoredFile; body: Readable } | null {
    const file = this.get(id, owner);
    const body = file ? this.files.stream(keyOf(id)) : null;
    return file && body ? { file, body } : null;
  }

  /** The whole file in memory (at most `maxBytes`: bigger ones answer null), or null like `get`. */
  async read(id: string, owner: string, maxBytes: number): Promise<{ file: StoredFile; bytes: Buffer } | null> {
    const opened = this.open(id, owner);
    if (!opened || opened.file.size > maxBytes) {
      opened?.body.destroy();
      return null;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of opened.body) chunks.push(chunk as Buffer);
    return { file: opened.file, bytes: Buffer.concat(chunks) };
  }

  /** Deletes the file of `owner`; false when `get` would answer null. */
  async remove(id: string, owner: string): Promise<boolean> {
    if (!this.get(id, owner)) return false;
    await this.erase(id);
    return true;
  }

  private async erase(id: string): Promise<void> {
    this.statements.erase.run(id);
    await this.files.delete(keyOf(id));
  }

  /** Deletes expired uploads (a batch at a time); answers how many. */
  async prune(): Promise<number> {
    const ids = this.statements.expired.all(this.now(), PRUNE_BATCH) as string[];
    for (const id of ids) await this.erase(id);
    return ids.length;
  }
}
