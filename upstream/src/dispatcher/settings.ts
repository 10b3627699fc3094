import { QUEUE_CONSTANTS } from "../../contract/queues";
import type { Db } from "../db";

/** The USPTO configuration (spec 2 §3) and the sync watermarks, kept as JSON values in `queue_settings`. */
export type UsptoSettings = {
  schedule: string;
  requestTimeoutMs: number;
  downloadRepeatMs: number;
  tooManyRequestsDelayMs: number;
};

export const USPTO_DEFAULTS: UsptoSettings = {
  schedule: QUEUE_CONSTANTS.defaultCron,
  requestTimeoutMs: QUEUE_CONSTANTS.defaultRequestTimeoutMs,
  downloadRepeatMs: QUEUE_CONSTANTS.defaultDownloadRepeatMs,
  tooManyRequestsDelayMs: QUEUE_CONSTANTS.defaultTooManyRequestsDelayMs,
};

export class QueueSettings {
  private cache: UsptoSettings | null = null;
  private readonly s;

  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {
    this.s = {
      get: db.prepare<[string], { value: string }>(`select value from queue_settings where key = ?`),
      set: db.prepare(
        `insert into queue_settings (key, value, updated_at) values (?, ?, ?)
         on conflict (key) do update set value = excluded.value, updated_at = excluded.updated_at`,
      ),
      del: db.prepare(`delete from queue_settings where key like ?`),
    };
  }

  read<T>(key: string): T | undefined {
    const row = this.s.get.get(key);
    return row ? (JSON.parse(row.value) as T) : undefined;
  }

  write(key: string, value: unknown): void {
    this.s.set.run(key, JSON.stringify(value), this.now());
  }

  /** Deletes every key starting with `prefix`; returns how many. */
  clear(prefix: string): number {
    return this.s.del.run(`${prefix.replace(/[%_]/g, "")}%`).changes;
  }

  uspto(): UsptoSettings {
    this.cache ??= { ...USPTO_DEFAULTS, ...(this.read<Partial<UsptoSettings>>("uspto.config") ?? {}) };
    return this.cache;
  }

  updateUspto(patch: Partial<UsptoSettings>): UsptoSettings {
    const next = { ...this.uspto(), ...patch };
    this.write("uspto.config", next);
    this.cache = next;
    return next;
  }
}
