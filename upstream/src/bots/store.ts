import fs from "node:fs";
import path from "node:path";
import { scriptKeyOf, type ScriptVersion } from "../../contract/bots";
import type { Db } from "../db";
import { prepared } from "../lib/collection";
import { isoNow } from "../lib/http";

type VersionRow = { key: string; script: string; version: number; message: string; created_at: string };

/**
 * Bot script versions. Each upload stores a NEW version (never overwritten: versions are immutable) as a file under
 * `${dataDir}/bot-scripts/{script}/v{version}/{file name}`, its key being that relative path.
 */
export class BotScriptsStore {
  private readonly root: string;

  constructor(private readonly db: Db, dataDir: string, private readonly now: () => number) {
    this.root = path.resolve(dataDir, "bot-scripts");
  }

  scripts(): string[] {
    return prepared(this.db, "select distinct script from bot_script_versions order by lower(script), script")
      .pluck()
      .all() as string[];
  }

  versions(script: string): ScriptVersion[] {
    const rows = prepared(this.db, "select * from bot_script_versions where script = ? order by version desc").all(
      script,
    ) as VersionRow[];
    return rows.map((r) => ({ Key: r.key, Metadata: { message: r.message, date: r.created_at } }));
  }

  exists(key: string): boolean {
    return prepared(this.db, "select 1 from bot_script_versions where key = ?").get(key) !== undefined;
  }

  /** The stored file of `key`, or null. */
  read(key: string): Buffer | null {
    if (!this.exists(key)) return null;
    try {
      return fs.readFileSync(this.fileOf(key));
    } catch {
      return null;
    }
  }

  private fileOf(key: string): string {
    const file = path.resolve(this.root, key);
    if (!file.startsWith(this.root + path.sep)) throw new Error("Script key escapes the scripts directory");
    return file;
  }

  /** Stores a new version of `script`; the file is written first, then the row (version numbers never reused). */
  add(
    script: string,
    fileName: string,
    content: Buffer,
    message: string,
    actor: string | null,
  ): ScriptVersion & { version: number } {
    const at = isoNow(this.now);
    return this.db.transaction(() => {
      const version = prepared(
        this.db,
        "select coalesce(max(version), 0) + 1 from bot_script_versions where script = ?",
      )
        .pluck()
        .get(script) as number;
      const key = scriptKeyOf(script, version, fileName);
      const file = this.fileOf(key);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, content, { flag: "wx" });
      prepared(
        this.db,
        "insert into bot_script_versions (key, script, version, message, created_at, created_by) values (?, ?, ?, ?, ?, ?)",
      ).run(key, script, version, message, at, actor);
      return { Key: key, Metadata: { message, date: at }, version };
    })();
  }
}
