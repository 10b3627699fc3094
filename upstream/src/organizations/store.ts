import crypto from "node:crypto";
import type { OrganizationOption } from "../../contract";
import type { Db } from "../db";

/**
 * Organizations. This issue only needs their ids and names (pickers, and checking the ids a user is linked to); the
 * `data` column holds, as a JSON object, the fields a later issue adds along with the CRUD routes.
 */
export class OrganizationsStore {
  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {}

  /** Every organization's id and name, by name (case-insensitive), then id. */
  options(): OrganizationOption[] {
    return this.db
      .prepare("select id, name from organizations order by lower(name), id")
      .all() as OrganizationOption[];
  }

  /** The ids among `ids` that name no organization, in the given order. */
  unknownIds(ids: readonly string[]): string[] {
    const exists = this.db.prepare("select 1 from organizations where id = ?").pluck();
    return ids.filter((id) => exists.get(id) === undefined);
  }

  /** Adds an organization (used by tests and seeding until the organizations CRUD exists). */
  create(name: string, actorEmail: string | null, data: Record<string, unknown> = {}): OrganizationOption {
    const id = crypto.randomUUID();
    const at = new Date(this.now()).toISOString();
    this.db
      .prepare(
        `insert into organizations (id, name, data, created_at, created_by, updated_at, updated_by)
         values (?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(id, name, JSON.stringify(data), at, actorEmail, at, actorEmail);
    return { id, name };
  }
}
