import type { Statement } from "better-sqlite3";
import type { Specification, SpecificationType } from "../../contract/specifications";
import type { Db } from "../db";
import { CollectionStore, columns } from "../lib/collection-store";
import { uniqueTags } from "../lib/tags";


/** Specifications (spec 1 §3): every field in its column, tags as a JSON array. Lists filter by `types`. */
export class SpecificationsStore extends CollectionStore<Specification, { types: readonly SpecificationType[] }> {
  private readonly tagQuery: Statement;

  constructor(db: Db, now: () => number) {
    super(db, now, {
      table: "specifications",
      columns: {
        name: columns.text("name"),
        type: columns.text("type"),
        isPublic: columns.bool("is_public"),
        description: columns.text("description"),
        tags: columns.json("tags"),
        template: columns.text("template"),
      },
      search: ["name", "description", "tags"],
      // An empty list keeps nothing; one statement whatever the number of types.
      filters: {
        types: (types) => ({ sql: "type in (select value from json_each(?))", params: [JSON.stringify(types)] }),
      },
      normalize: (values) => ({ ...values, tags: uniqueTags(values.tags) }),
    });
    this.tagQuery = db
      .prepare(
        `select min(t.value) as tag from specifications s, json_each(s.tags) t
         where instr(lower(t.value), ?) > 0
         group by lower(t.value)
         order by instr(lower(t.value), ?) <> 1, lower(t.value)
         limit ?`,
      )
      .pluck();
  }

  /** Tags in use containing `q` (case-insensitive), those starting with it first, then by name; at most `limit`. */
  suggestTags(q: string, limit = 20): string[] {
    const needle = q.trim().toLowerCase();
    return needle ? (this.tagQuery.all(needle, needle, limit) as string[]) : [];
  }
}
