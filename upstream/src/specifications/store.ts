import crypto from "node:crypto";
import type { ListQuery, Page } from "../../contract/common";
import type { Specification, SpecificationType } from "../../contract/specifications";
import type { Db } from "../db";
import { listPage, type CollectionSource } from "../lib/collection";

type Row = {
  id: string;
  name: string;
  type: string;
  is_public: number;
  description: string;
  tags: string;
  template: string;
  created_at: string;
  created_by: string | null;
  updated_at: string;
  updated_by: string | null;
};

const toSpecification = (r: Row): Specification => ({
  id: r.id,
  name: r.name,
  type: r.type as SpecificationType,
  isPublic: r.is_public === 1,
  description: r.description,
  tags: JSON.parse(r.tags) as string[],
  template: r.template,
  createdAt: r.created_at,
  createdBy: r.created_by,
  updatedAt: r.updated_at,
  updatedBy: r.updated_by,
});

export type SpecificationValues = Omit<Specification, "id" | "createdAt" | "createdBy" | "updatedAt" | "updatedBy">;

/** Drops case-insensitive duplicates, first spelling wins. */
function uniqueTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  return tags.filter((t) => {
    const k = t.toLowerCase();
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

export class SpecificationsStore {
  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {}

  /** Search in name, description and tags; `types` keeps only those types (empty list: nothing). */
  list(query: ListQuery, types: readonly SpecificationType[] | null): Page<Specification> {
    const source: CollectionSource = {
      from: "specifications s",
      select: "s.*",
      id: "s.id",
      createdAt: "s.created_at",
      search: ["s.name", "s.description", "s.tags"],
      nameOrder: "lower(s.name)",
      where: types ? { sql: `s.type in (${types.map(() => "?").join(",") || "null"})`, params: types } : undefined,
    };
    return listPage(this.db, source, query, toSpecification);
  }

  get(id: string): Specification | null {
    const row = this.db.prepare("select * from specifications where id = ?").get(id) as Row | undefined;
    return row ? toSpecification(row) : null;
  }

  create(values: SpecificationValues, actor: string | null): Specification {
    const id = crypto.randomUUID();
    const at = new Date(this.now()).toISOString();
    this.db
      .prepare(
        `insert into specifications (id, name, type, is_public, description, tags, template, created_at, created_by, updated_at, updated_by)
         values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        id,
        values.name,
        values.type,
        values.isPublic ? 1 : 0,
        values.description,
        JSON.stringify(uniqueTags(values.tags)),
        values.template,
        at,
        actor,
        at,
        actor,
      );
    return this.get(id)!;
  }

  update(id: string, changes: Partial<SpecificationValues>, actor: string | null): Specification | null {
    const current = this.get(id);
    if (!current) return null;
    const next = { ...current, ...changes };
    this.db
      .prepare(
        `update specifications set name = ?, type = ?, is_public = ?, description = ?, tags = ?, template = ?,
         updated_at = ?, updated_by = ? where id = ?`,
      )
      .run(
        next.name,
        next.type,
        next.isPublic ? 1 : 0,
        next.description,
        JSON.stringify(uniqueTags(next.tags)),
        next.template,
        new Date(this.now()).toISOString(),
        actor,
        id,
      );
    return this.get(id);
  }

  remove(id: string): boolean {
    return this.db.prepare("delete from specifications where id = ?").run(id).changes > 0;
  }

  /** Tags in use containing `q` (case-insensitive), those starting with it first, then by name; at most `limit`. */
  suggestTags(q: string, limit = 20): string[] {
    const needle = q.trim().toLowerCase();
    if (!needle) return [];
    return (
      this.db
        .prepare(
          `select min(t.value) as tag from specifications s, json_each(s.tags) t
           where instr(lower(t.value), ?) > 0
           group by lower(t.value)
           order by instr(lower(t.value), ?) <> 1, lower(t.value)
           limit ?`,
        )
        .pluck()
        .all(needle, needle, limit) as string[]
    );
  }
}
