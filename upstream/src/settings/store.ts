import type { SettingValue, UserSetting } from "../../contract/settings";
import type { Db } from "../db";
import { prepared } from "../lib/collection";
import { isoNow } from "../lib/http";

type Row = { key: string; owner: string; value: string; secured: number };

const toSetting = (r: Row): UserSetting => ({
  key: r.key,
  owner: r.owner,
  value: JSON.parse(r.value) as SettingValue,
  secured: r.secured === 1,
});

/** User settings: one row per (owner email, key). Values are stored as JSON. */
export class SettingsStore {
  constructor(private readonly db: Db, private readonly now: () => number) {}

  list(owner: string): UserSetting[] {
    return (prepared(this.db, "select * from user_settings where owner = ? order by key").all(owner) as Row[]).map(
      toSetting,
    );
  }

  put(setting: UserSetting, actor: string | null): UserSetting {
    const at = isoNow(this.now);
    prepared(
      this.db,
      `insert into user_settings (owner, key, value, secured, created_at, created_by, updated_at, updated_by)
         values (?, ?, ?, ?, ?, ?, ?, ?)
         on conflict (owner, key) do update set value = excluded.value, secured = excluded.secured,
           updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
    ).run(setting.owner, setting.key, JSON.stringify(setting.value), setting.secured ? 1 : 0, at, actor, at, actor);
    return setting;
  }

  delete(owner: string, key: string): boolean {
    return prepared(this.db, "delete from user_settings where owner = ? and key = ?").run(owner, key).changes > 0;
  }
}
