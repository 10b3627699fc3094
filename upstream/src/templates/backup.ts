import crypto from "node:crypto";
import type { Readable } from "node:stream";
import Database from "better-sqlite3";
import { BACKUP_FORMAT, BACKUP_MESSAGES, BACKUP_TABLES, BACKUP_VERSION, type BackupTable, type ImportResult } from "../../contract/template-storage";
import type { Db } from "../db";
import { storedDigest } from "../lib/files";
import { HttpError, badRequest } from "../lib/http";
import { isStoredRecordFile, type RecordFiles, type StoredRecordFile } from "../lib/record-files";
import { createZipWriter } from "../lib/zip-writer";
import { ZipError, openZip } from "../lib/zip";
import { checkBackupRows, type BackupRow as Row } from "./backup-rows";

const TABLES = Object.keys(BACKUP_TABLES) as BackupTable[];
const KEY = /^records\/[a-z0-9-]{1,64}\/[0-9a-f-]{36}$/;
/** The longest manifest.json read (an export's is ~300 characters). */
const MAX_MANIFEST_CHARS = 64 * 1024;

/** manifest.json's format and version; null when it is not JSON, or longer than any manifest (not parsed then). */
function parseManifest(text: string): { format?: unknown; version?: unknown } | null {
  if (text.length > MAX_MANIFEST_CHARS) return null;
  try {
    return JSON.parse(text) as { format?: unknown; version?: unknown } | null;
  } catch {
    return null;
  }
}

/** The files a row's data names (its fields holding a stored record file). */
function filesOf(row: Row): StoredRecordFile[] {
  let data: unknown;
  try {
    data = JSON.parse(typeof row.data === "string" ? row.data : "{}");
  } catch {
    return [];
  }
  return data && typeof data === "object" ? Object.values(data).filter(isStoredRecordFile) : [];
}

/** A row's `data` with the stored files whose keys are in `renamed` naming their new keys. */
function renameFiles(data: string, renamed: ReadonlyMap<string, string>): string {
  const value = JSON.parse(data) as Record<string, unknown> | null;
  if (!value || typeof value !== "object") return data;
  for (const [field, file] of Object.entries(value)) {
    if (isStoredRecordFile(file) && renamed.has(file.key)) value[field] = { ...file, key: renamed.get(file.key) };
  }
  return JSON.stringify(value);
}

/**
 * Export and import of every template record and file (docs/decisions/template-backup.md). The archive holds
 * `manifest.json`, `records/{table}.json` (the rows as stored, every column) and `files/{key}` (the bytes).
 */
export class TemplateBackup {
  private readonly columns: Record<BackupTable, string[]>;
  /** Each table's NOT NULL columns: a row with null there is refused before anything is written. */
  private readonly required: Record<BackupTable, string[]>;
  private last: ImportResult | null = null;
  private importing: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly files: RecordFiles,
    private readonly now: () => number,
  ) {
    const info = (t: BackupTable) => db.prepare(`pragma table_info(${t})`).all() as { name: string; notnull: number }[];
    this.columns = Object.fromEntries(TABLES.map((t) => [t, info(t).map((c) => c.name)])) as Record<BackupTable, string[]>;
    this.required = Object.fromEntries(
      TABLES.map((t) => [t, info(t).filter((c) => c.notnull).map((c) => c.name)]),
    ) as Record<BackupTable, string[]>;
  }

  lastImport(): ImportResult | null {
    return this.last;
  }

  /** The archive, streamed: records first (a consistent snapshot, read at once), then each file's bytes. */
  export(): Readable {
    const rows = Object.fromEntries(
      TABLES.map((t) => [t, this.db.prepare(`select * from ${t} order by id`).all() as Row[]]),
    ) as Record<BackupTable, Row[]>;
    const files = new Map<string, StoredRecordFile>();
    for (const t of TABLES) for (const row of rows[t]) for (const f of filesOf(row)) files.set(f.key, f);
    const zip = createZipWriter(new Date(this.now()));
    void (async () => {
      try {
        const manifest = {
          format: BACKUP_FORMAT,
          version: BACKUP_VERSION,
          exportedAt: new Date(this.now()).toISOString(),
          records: Object.fromEntries(TABLES.map((t) => [t, rows[t].length])),
          files: files.size,
        };
        await zip.add("manifest.json", Buffer.from(JSON.stringify(manifest, null, 2)), { deflate: true });
        for (const t of TABLES) await zip.add(`records/${t}.json`, Buffer.from(JSON.stringify(rows[t])), { deflate: true });
        for (const file of files.values()) {
          const body = this.files.open(file);
          if (!body) continue; // lost bytes: the import then reports the archive as lacking the file
          await zip.add(`files/${file.key}`, body as AsyncIterable<Buffer>);
        }
        await zip.finish();
      } catch (error) {
        zip.output.destroy(error as Error);
      }
    })();
    return zip.output;
  }

  /**
   * Restores an archive in place of every template record and file. Everything is read and checked first (the zip
   * reader's limits, the manifest, each table's columns and NOT NULL columns, each file's size and SHA-256); a
   * refused archive changes nothing. Then the files are stored beside the current ones, the tables replaced in one
   * transaction, and files no record names deleted. One import at a time: a second waits for the first (each
   * reads the library as the previous one left it).
   */
  import(bytes: Buffer): Promise<ImportResult> {
    const run = this.importing.then(() => this.importNow(bytes));
    this.importing = run.catch(() => undefined);
    return run;
  }

  private async importNow(bytes: Buffer): Promise<ImportResult> {
    const fail = (message: string) => badRequest(message);
    const zip = await openZip(bytes, { subject: "The backup", kind: "template-storage backup (.zip)" }).catch((error: unknown) => {
      if (error instanceof ZipError) throw new HttpError(error.status, error.status === 413 ? error.message : BACKUP_MESSAGES.notBackup);
      throw error;
    });
    const readText = async (name: string): Promise<string> => {
      const text = await zip.readText(name);
      if (text === null) throw fail(BACKUP_MESSAGES.notBackup);
      return text;
    };
    const guard = async <T>(work: () => Promise<T>): Promise<T> => {
      try {
        return await work();
      } catch (error) {
        if (error instanceof ZipError) throw new HttpError(error.status, error.status === 413 ? error.message : BACKUP_MESSAGES.notBackup);
        throw error;
      }
    };
    return guard(async () => {
      const manifest = parseManifest(await readText("manifest.json"));
      if (!manifest || manifest.format !== BACKUP_FORMAT) throw fail(BACKUP_MESSAGES.notBackup);
      if (manifest.version !== BACKUP_VERSION) throw fail(BACKUP_MESSAGES.badVersion(manifest.version));

      const expected = new Set(["manifest.json", ...TABLES.map((t) => `records/${t}.json`)]);
      const rows = {} as Record<BackupTable, Row[]>;
      const wanted = new Map<string, StoredRecordFile>();
      for (const t of TABLES) {
        const checked = await checkBackupRows(await readText(`records/${t}.json`), this.columns[t], this.required[t]);
        if ("error" in checked) {
          throw fail(checked.error === "not JSON" ? BACKUP_MESSAGES.notBackup : BACKUP_MESSAGES.badRecords(BACKUP_TABLES[t], checked.error));
        }
        rows[t] = checked.rows;
        for (const [i, row] of rows[t].entries()) {
          for (const f of (checked.files[i] ?? []).filter(isStoredRecordFile)) {
            if (!KEY.test(f.key)) throw fail(BACKUP_MESSAGES.badRecords(BACKUP_TABLES[t], `bad file key in ${row.id}`));
            wanted.set(f.key, f);
            expected.add(`files/${f.key}`);
          }
        }
      }
      for (const name of zip.names) {
        if (!expected.has(name) && !name.endsWith("/")) throw fail(BACKUP_MESSAGES.unexpected(name));
      }
      // Each file is checked, then let go: only one file's bytes are held at a time (they are read again to store them).
      const fileBytes = async (key: string, file: StoredRecordFile): Promise<Buffer> => {
        const data = await zip.read(`files/${key}`);
        if (!data) throw fail(BACKUP_MESSAGES.missingFile(key));
        const sha = crypto.createHash("sha256").update(data).digest("hex");
        if (data.length !== file.size || sha !== file.sha256) throw fail(BACKUP_MESSAGES.badFile(key));
        return data;
      };
      let total = 0;
      for (const [key, file] of wanted) total += (await fileBytes(key, file)).length;

      // Checked: apply, so that until the records' transaction commits the library is as it was. A file goes under a
      // key no record names yet (the archive's key when it is free, or holds these very bytes; a new key in the same
      // folder when another file is there, the row's data then naming the new key), so no file the current records
      // name is ever overwritten. A refused transaction leaves only those new files, which are deleted; once it
      // commits, the files no record names any more are.
      const before = new Set<string>();
      for (const t of TABLES) {
        for (const row of this.db.prepare(`select data from ${t}`).all() as Row[]) for (const f of filesOf(row)) before.add(f.key);
      }
      const renamed = new Map<string, string>();
      const written: StoredRecordFile[] = [];
      try {
        for (const [key, file] of wanted) {
          const there = await storedDigest(this.files.store, key);
          if (there && there.size === file.size && there.sha256 === file.sha256) continue;
          const target = there ? `${key.slice(0, key.lastIndexOf("/"))}/${crypto.randomUUID()}` : key;
          await this.files.store.put(target, await fileBytes(key, file), { overwrite: false });
          written.push({ ...file, key: target });
          if (target !== key) renamed.set(key, target);
        }
        this.db.transaction(() => {
          for (const t of [...TABLES].reverse()) this.db.prepare(`delete from ${t}`).run();
          for (const t of TABLES) {
            const cols = this.columns[t];
            const insert = this.db.prepare(`insert into ${t} (${cols.join(", ")}) values (${cols.map(() => "?").join(", ")})`);
            for (const [i, row] of rows[t].entries()) {
              const stored = renamed.size && typeof row.data === "string" ? { ...row, data: renameFiles(row.data, renamed) } : row;
              try {
                insert.run(...cols.map((c) => stored[c] ?? null));
              } catch (error) {
                // A rule of the database the checks above do not know of: the row is refused, named, and nothing changes.
                if (error instanceof Database.SqliteError && error.code.startsWith("SQLITE_CONSTRAINT")) {
                  throw fail(BACKUP_MESSAGES.badRecords(BACKUP_TABLES[t], `item ${i} (${row.id}): ${error.message}`));
                }
                throw error;
              }
            }
          }
        })();
      } catch (error) {
        await this.files.discard(written);
        throw error;
      }
      const named = new Set([...wanted.keys()].map((key) => renamed.get(key) ?? key));
      await this.files.discard([...before].filter((k) => !named.has(k)).map((key) => ({ key }) as StoredRecordFile));
      this.last = {
        importedAt: new Date(this.now()).toISOString(),
        records: Object.fromEntries(TABLES.map((t) => [t, rows[t].length])),
        files: wanted.size,
        bytes: total,
      };
      return this.last;
    });
  }
}
