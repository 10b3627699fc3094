import type { Statement } from "better-sqlite3";
import type { Db } from "../db";
import { isoNow } from "../lib/http";

export type StoredSetting<T> = { value: T; updatedAt: string; updatedBy: string | null };

/**
 * Settings of the product as a whole (not of a user): one JSON value per key with who changed it when. Used by the
 * e-mail connector's maintenance settings and the applications page's installer.
 */
export class AppSettingsStore {
  private readonly select: Statement;
  private readonly upsert: Statement;
  private readonly erase: Statement;

  constructor(db: Db, private readonly now: () => number) {
    this.select = db.prepare("select value, updated_at, updated_by from app_settings where key = ?");
    this.upsert = db.prepare(
      `insert into app_settings (key, value, updated_at, updated_by) values (?, ?, ?, ?)
         on conflict (key) do update set value = excluded.value, updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
    );
    this.erase = db.prepare("delete from app_settings where key = ?");
  }

  /** The value under `key` (a damaged one reads as missing), or null. */
  get<T>(key: string): StoredSetting<T> | null {
    const row = this.select.get(key) as { value: string; updated_at: string; updated_by: string | null } | undefined;
    if (!row) return null;
    try {
      return { value: JSON.parse(row.value) as T, updatedAt: row.updated_at, updatedBy: row.updated_by };
    } catch {
      return null;
    }
  }

  put<T>(key: string, value: T, actor: string | null): StoredSetting<T> {
    const at = isoNow(this.now);
    this.upsert.run(key, JSON.stringify(value), at, actor);
    return { value, updatedAt: at, updatedBy: actor };
  }

  remove(key: string): boolean {
    return this.erase.run(key).changes > 0;
  }
}
