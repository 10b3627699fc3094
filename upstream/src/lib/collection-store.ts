import crypto from "node:crypto";
import type { Statement } from "better-sqlite3";
import type { ListQuery, Page } from "../../contract/common";
import type { Db } from "../db";
import { listPage, type CollectionSource } from "./collection";
import { TEXT_LIMITS } from "../../contract/limits";
import { conflict, isoNow } from "./http";

/** The fields the store sets on every record (the contract's `Audit` plus the id). */
export type Stored = {
  id: string;
  createdAt: string;
  createdBy: string | null;
  updatedAt: string;
  updatedBy: string | null;
};
/** What a caller gives and changes: the record without its id and audit fields. */
export type ValuesOf<Item extends Stored> = Omit<Item, keyof Stored>;

/** How one field is kept in its own column. */
export type Column = { column: string; toDb: (value: unknown) => unknown; fromDb: (raw: unknown) => unknown };

/** Column kinds: text (as is), a 0/1 integer, a JSON text (arrays, objects). */
export const columns = {
  text: (column: string): Column => ({ column, toDb: (v) => v, fromDb: (v) => v }),
  bool: (column: string): Column => ({ column, toDb: (v) => (v ? 1 : 0), fromDb: (v) => v === 1 }),
  json: (column: string): Column => ({ column, toDb: (v) => JSON.stringify(v), fromDb: (v) => parseJson(v) }),
};

/** A named list filter: the value (parsed by the route) → a condition ANDed to the search. SQL is the developer's. */
type Filter<V> = (value: V) => { sql: string; params: readonly unknown[] };

export type CollectionConfig<Item extends Stored, Filters extends object = Record<never, never>> = {
  /** The table: `id` primary key, the audit columns (db.ts `AUDIT`), the typed columns and `data` if used. */
  table: string;
  /** Fields kept in their own column, by field name. */
  columns: { [K in keyof ValuesOf<Item>]?: Column };
  /**
   * Fields kept in the JSON `data` column, with their defaults (a missing or damaged value reads as its default; keys
   * the store does not know are kept on update but never answered).
   */
  data?: Partial<ValuesOf<Item>>;
  /** Expressions `q` searches (case-insensitive substring): `["name", "description"]`. */
  search: readonly string[];
  /** ORDER BY of sort=name; default `lower(name)`: an expression index `(lower(name), id)` serves it. */
  nameOrder?: string;
  /** Extra list filters by name: `{ types: (types) => ({ sql: "type in (select value from json_each(?))", ... }) }`. */
  filters?: { [K in keyof Filters]: Filter<Filters[K]> };
  /** The 409 message when a unique constraint refuses a create, update or clone. */
  conflict?: string;
  /** Applied to the whole values before every write (e.g. drop duplicate tags). */
  normalize?: (values: ValuesOf<Item>) => ValuesOf<Item>;
  /**
   * The values of a copy; default: the same with the name of `copyName` (" (copy)", then " (copy 2)", … the first
   * name no record has, shortened to fit `nameLimit`).
   */
  cloneValues?: (values: ValuesOf<Item>) => ValuesOf<Item>;
  /** The longest name a copy may get (default `TEXT_LIMITS.name`, the contract's name bound). */
  nameLimit?: number;
};

const MAX_COPIES = 1_000;

/**
 * The name of a copy of `name`: `name (copy)`, else `name (copy 2)`, … the first one `taken` says is free, the
 * original shortened (never the suffix) so the whole stays within `max` characters. Past 1,000 copies the suffix
 * carries a random part instead of counting on.
 */
export function copyName(name: string, max: number, taken: (candidate: string) => boolean): string {
  const fit = (suffix: string) =>
    `${name.slice(0, Math.max(0, max - suffix.length)).replace(/[\uD800-\uDBFF]$/, "").trimEnd()}${suffix}`;
  for (let n = 1; n <= MAX_COPIES; n++) {
    const candidate = fit(n === 1 ? " (copy)" : ` (copy ${n})`);
    if (!taken(candidate)) return candidate;
  }
  return fit(` (copy ${crypto.randomUUID().slice(0, 8)})`);
}

function parseJson(raw: unknown): unknown {
  try {
    return typeof raw === "string" ? (JSON.parse(raw) as unknown) : null;
  } catch {
    return null;
  }
}

/** A stored data value is used only when it has the kind of its default (a damaged column reads as the default). */
function sameKind(value: unknown, fallback: unknown): boolean {
  if (value === undefined) return false;
  if (Array.isArray(fallback)) return Array.isArray(value);
  if (fallback === null) return value === null || (typeof value === "object" && !Array.isArray(value));
  return typeof value === typeof fallback;
}

/** SQLite refused a write for a UNIQUE constraint. */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "SQLITE_CONSTRAINT_UNIQUE";
}

type Row = Record<string, unknown> & { id: string; data?: string };

/**
 * One SQLite collection (the resource kit): random UUID ids, the audit columns set from the acting user's
 * email and the upstream's clock, typed columns plus a JSON `data` column, search/sort/page with extra filters,
 * partial updates, clone, and unique violations as 409. Every statement is prepared once, in the constructor (list
 * statements once per SQL shape, see `prepared` in collection.ts). A domain subclasses it for what is special.
 */
export class CollectionStore<Item extends Stored, Filters extends object = Record<never, never>> {
  private readonly fields: [string, Column][];
  private readonly dataFields: [string, unknown][];
  private readonly source: CollectionSource;
  private readonly select: Statement;
  private readonly insert: Statement;
  private readonly change: Statement;
  private readonly erase: Statement;
  private readonly named: Statement | null;

  constructor(
    protected readonly db: Db,
    protected readonly now: () => number,
    protected readonly config: CollectionConfig<Item, Filters>,
  ) {
    const { table } = config;
    this.fields = Object.entries(config.columns as Record<string, Column>);
    this.dataFields = Object.entries(config.data ?? {});
    const names = [...this.fields.map(([, c]) => c.column), ...(config.data ? ["data"] : [])];
    this.source = {
      from: table,
      select: "*",
      id: "id",
      createdAt: "created_at",
      search: config.search,
      nameOrder: config.nameOrder ?? "lower(name)",
    };
    this.select = db.prepare(`select * from ${table} where id = ?`);
    const all = ["id", ...names, "created_at", "created_by", "updated_at", "updated_by"];
    this.insert = db.prepare(`insert into ${table} (${all.join(", ")}) values (${all.map(() => "?").join(", ")})`);
    const sets = [...names, "updated_at", "updated_by"].map((n) => `${n} = ?`).join(", ");
    this.change = db.prepare(`update ${table} set ${sets} where id = ?`);
    this.erase = db.prepare(`delete from ${table} where id = ?`);
    const nameColumn = (config.columns as Record<string, Column | undefined>).name?.column;
    this.named = nameColumn ? db.prepare(`select 1 from ${table} where ${nameColumn} = ? limit 1`).pluck() : null;
  }

  /** The answered record of a row. */
  protected toItem(row: Row): Item {
    const item: Record<string, unknown> = { id: row.id };
    for (const [field, column] of this.fields) item[field] = column.fromDb(row[column.column]);
    const data = this.dataFields.length ? parseJson(row.data) : null;
    const stored = data && typeof data === "object" ? (data as Record<string, unknown>) : {};
    for (const [field, fallback] of this.dataFields) {
      item[field] = sameKind(stored[field], fallback) ? stored[field] : structuredClone(fallback);
    }
    item.createdAt = row.created_at;
    item.createdBy = row.created_by;
    item.updatedAt = row.updated_at;
    item.updatedBy = row.updated_by;
    return item as Item;
  }

  /** The column values of `values` in statement order; `data` keeps the stored keys not among the fields. */
  private columnValues(values: ValuesOf<Item>, storedData?: string): unknown[] {
    const v = (this.config.normalize ? this.config.normalize(values) : values) as Record<string, unknown>;
    const out = this.fields.map(([field, column]) => column.toDb(v[field]));
    if (this.config.data) {
      const kept = parseJson(storedData);
      const data: Record<string, unknown> = kept && typeof kept === "object" ? { ...kept } : {};
      for (const [field] of this.dataFields) data[field] = v[field];
      out.push(JSON.stringify(data));
    }
    return out;
  }

  /** Runs a write; a unique violation becomes 409 with the configured message. */
  private write<T>(work: () => T): T {
    try {
      return work();
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(this.config.conflict ?? "It already exists.");
      throw error;
    }
  }

  /** One page; `filters` are the configured extra filters (absent ones do not filter). */
  list(query: ListQuery, filters: Partial<Filters> = {}): Page<Item> {
    const conditions: string[] = [];
    const params: unknown[] = [];
    for (const [name, value] of Object.entries(filters)) {
      const filter = (this.config.filters as Record<string, Filter<unknown>> | undefined)?.[name];
      if (value === undefined || !filter) continue;
      const { sql, params: p } = filter(value);
      conditions.push(`(${sql})`);
      params.push(...p);
    }
    const where = conditions.length ? { sql: conditions.join(" and "), params } : undefined;
    return listPage(this.db, { ...this.source, where }, query, (row: Row) => this.toItem(row));
  }

  /** The record, or null. */
  get(id: string): Item | null {
    const row = this.select.get(id) as Row | undefined;
    return row ? this.toItem(row) : null;
  }

  /** Adds a record; data fields not given take their defaults (the route's schema requires the others). */
  create(values: Partial<ValuesOf<Item>>, actor: string | null): Item {
    const id = crypto.randomUUID();
    const at = isoNow(this.now);
    const full = { ...structuredClone(this.config.data ?? {}), ...definedOnly(values) } as ValuesOf<Item>;
    this.write(() => this.insert.run(id, ...this.columnValues(full), at, actor, at, actor));
    return this.get(id)!;
  }

  /** Changes the fields given (undefined ones stay); null when missing. */
  update(id: string, changes: Partial<ValuesOf<Item>>, actor: string | null): Item | null {
    const row = this.select.get(id) as Row | undefined;
    if (!row) return null;
    const next = { ...valuesOf(this.toItem(row)), ...definedOnly(changes) } as ValuesOf<Item>;
    this.write(() => this.change.run(...this.columnValues(next, row.data), isoNow(this.now), actor, id));
    return this.get(id);
  }

  /** Deletes it; false when there was none. */
  remove(id: string): boolean {
    return this.erase.run(id).changes > 0;
  }

  /** A copy with a new id, its audit fields set anew by `actor`; null when the original is missing. */
  clone(id: string, actor: string | null): Item | null {
    const original = this.get(id);
    if (!original) return null;
    const values = valuesOf(original);
    return this.create(this.config.cloneValues ? this.config.cloneValues(values) : this.copyOf(values), actor);
  }

  /** The default copy: the same values under `copyName`'s name (when the record has a name). */
  private copyOf(values: ValuesOf<Item>): ValuesOf<Item> {
    const name = (values as { name?: unknown }).name;
    if (typeof name !== "string") return values;
    const taken = (candidate: string) => (this.named ? this.named.get(candidate) !== undefined : false);
    return { ...values, name: copyName(name, this.config.nameLimit ?? TEXT_LIMITS.name, taken) };
  }
}

/** A record without its id and audit fields. */
function valuesOf<Item extends Stored>(item: Item): ValuesOf<Item> {
  const { id: _id, createdAt: _ca, createdBy: _cb, updatedAt: _ua, updatedBy: _ub, ...values } = item;
  return values as unknown as ValuesOf<Item>;
}

function definedOnly<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Partial<T>;
}
