import type { Statement } from "better-sqlite3";
import type { Organization, OrganizationOption } from "../../contract/organizations";
import type { Db } from "../db";
import { CollectionStore, columns } from "../lib/collection-store";

/** Organizations: name in its column; the other fields (spec 3 §3) in the JSON `data` column, with their defaults. */
export class OrganizationsStore extends CollectionStore<Organization> {
  private readonly optionsQuery: Statement;
  private readonly exists: Statement;

  constructor(db: Db, now: () => number) {
    super(db, now, {
      table: "organizations",
      columns: { name: columns.text("name") },
      data: { enableSpeechToText: false, speechToTextService: null, speechPostProcessingModel: null, models: [] },
      search: ["name"],
    });
    this.optionsQuery = db.prepare("select id, name from organizations order by lower(name), id");
    this.exists = db.prepare("select 1 from organizations where id = ?").pluck();
  }

  /** Every organization's id and name, by name (case-insensitive), then id. */
  options(): OrganizationOption[] {
    return this.optionsQuery.all() as OrganizationOption[];
  }

  /** The ids among `ids` that name no organization, in the given order. */
  unknownIds(ids: readonly string[]): string[] {
    return ids.filter((id) => this.exists.get(id) === undefined);
  }
}
