import type { Statement } from "better-sqlite3";
import type { Organization, OrganizationOption } from "../../contract/organizations";
import { ModelPermissions } from "../ai-admin/store";
import type { Db } from "../db";
import { CollectionStore, columns, type ValuesOf } from "../lib/collection-store";

/**
 * Organizations: name in its column; the speech-to-text fields (spec 3 §3) in the JSON `data` column, with their
 * defaults; `models` (the models it may use) are the model permissions, one link table with the AI administration.
 */
export class OrganizationsStore extends CollectionStore<Organization> {
  private readonly optionsQuery: Statement;
  private readonly exists: Statement;
  private readonly links: ModelPermissions;

  constructor(db: Db, now: () => number) {
    super(db, now, {
      table: "organizations",
      columns: { name: columns.text("name") },
      data: { enableSpeechToText: false, speechToTextService: null, speechPostProcessingModel: null },
      search: ["name"],
    });
    this.optionsQuery = db.prepare("select id, name from organizations order by lower(name), id");
    this.exists = db.prepare("select 1 from organizations where id = ?").pluck();
    this.links = new ModelPermissions(db);
  }

  protected override toItem(row: Record<string, unknown> & { id: string; data?: string }): Organization {
    return { ...super.toItem(row), models: this.links.modelsOf(row.id) };
  }

  override create(values: Partial<ValuesOf<Organization>>, actor: string | null): Organization {
    return this.db.transaction(() => {
      const created = super.create(values, actor);
      if (!values.models) return created;
      this.links.setForOrganization(created.id, values.models);
      return this.get(created.id)!;
    })();
  }

  override update(id: string, changes: Partial<ValuesOf<Organization>>, actor: string | null): Organization | null {
    return this.db.transaction(() => {
      const updated = super.update(id, changes, actor);
      if (!updated || !changes.models) return updated;
      this.links.setForOrganization(id, changes.models);
      return this.get(id);
    })();
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
