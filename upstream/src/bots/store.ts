import type { Readable } from "node:stream";
import type { Statement } from "better-sqlite3";
import { scriptKeyOf, type ScriptVersion } from "../../contract/bots";
import type { Db } from "../db";
import type { FileStore } from "../lib/files";
import { isoNow } from "../lib/http";

type VersionRow = { key: string; script: string; version: number; message: string; created_at: string };

/**
 * Bot script versions. Each upload stores a NEW version (never overwritten: versions are immutable) in `files` (a
 * `LocalFileStore` on `${dataDir}/bot-scripts`) under the key `{script}/v{version}/{file name}`.
 */
export class BotScriptsStore {
  private readonly statements: Record<"scripts" | "versions" | "exists" | "next" | "insert" | "erase", Statement>;

  constructor(private readonly db: Db, private readonly files: FileStore, private readonly now: () => number) {
    this.statements = {
      scripts: db.prepare("select distinct script from bot_script_versions order by lower(script), script").pluck(),
      versions: db.prepare("select * from bot_script_versions where script = ? order by version desc"),
      exists: db.prepare("select 1 from bot_script_versions where key = ?"),
      next: db.prepare("select coalesce(max(version), 0) + 1 from bot_script_versions where script = ?").pluck(),
      insert: db.prepare(
        "insert into bot_script_versions (key, script, version, message, created_at, created_by) values (?, ?, ?, ?, ?, ?)",
      ),
      erase: db.prepare("delete from bot_script_versions where key = ?"),
    };
  }

  scripts(): string[] {
    return this.statements.scripts.all() as string[];
  }

  versions(script: string): ScriptVersion[] {
    const rows = this.statements.versions.all(script) as VersionRow[];
    return rows.map((r) => ({ Key: r.key, Metadata: { message: r.message, date: r.created_at } }));
  }

  exists(key: string): boolean {
    return this.statements.exists.get(key) !== undefined;
  }

  /** The stored file of `key`, or null. */
  stream(key: string): Readable | null {
    return this.exists(key) ? this.files.stream(key) : null;
  }

  /**
   * Stores a new version of `script`: the row first (its version number is taken at once, never reused), then the
   * file (refusing to replace one); the row goes again when the file cannot be written.
   */
  async add(
    script: string,
    fileName: string,
    content: Buffer,
    message: string,
    actor: string | null,
  ): Promise<ScriptVersion & { version: number }> {
    const at = isoNow(this.now);
    const { key, version } = this.db.transaction(() => {
      const version = this.statements.next.get(script) as number;
      const key = scriptKeyOf(script, version, fileName);
      this.statements.insert.run(key, script, version, message, at, actor);
      return { key, version };
    })();
    try {
      await this.files.put(key, content, { overwrite: false });
    } catch (error) {
      this.statements.erase.run(key);
      throw error;
    }
    return { Key: key, Metadata: { message, date: at }, version };
  }
}
