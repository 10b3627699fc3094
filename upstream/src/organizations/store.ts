import crypto from "node:crypto";
import type { ListQuery, Page } from "../../contract/common";
import type { Organization, OrganizationOption } from "../../contract/organizations";
import type { Db } from "../db";
import { listPage, type CollectionSource } from "../lib/collection";

type Row = {
  id: string;
  name: string;
  data: string;
  created_at: string;
  created_by: string | null;
  updated_at: string;
  updated_by: string | null;
};

/** The fields kept in the `data` JSON column (spec 3 §3), with their defaults. */
export type OrganizationData = Pick<
  Organization,
  "enableSpeechToText" | "speechToTextService" | "speechPostProcessingModel" | "models"
>;
const DEFAULT_DATA: OrganizationData = {
  enableSpeechToText: false,
  speechToTextService: null,
  speechPostProcessingModel: null,
  models: [],
};

function toOrganization(r: Row): Organization {
  let data: Partial<OrganizationData> = {};
  try {
    data = JSON.parse(r.data) as Partial<OrganizationData>;
  } catch {
    // A damaged data column falls back to the defaults.
  }
  return {
    id: r.id,
    name: r.name,
    enableSpeechToText: data.enableSpeechToText === true,
    speechToTextService: data.speechToTextService ?? null,
    speechPostProcessingModel: data.speechPostProcessingModel ?? null,
    models: Array.isArray(data.models) ? data.models : [],
    createdAt: r.created_at,
    createdBy: r.created_by,
    updatedAt: r.updated_at,
    updatedBy: r.updated_by,
  };
}

const SOURCE: CollectionSource = {
  from: "organizations o",
  select: "o.*",
  id: "o.id",
  createdAt: "o.created_at",
  search: ["o.name"],
  nameOrder: "lower(o.name)",
};

/** Organizations: name in its column; the other fields (spec 3 §3) as a JSON object in `data`. */
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

  list(query: ListQuery): Page<Organization> {
    return listPage(this.db, SOURCE, query, toOrganization);
  }

  get(id: string): Organization | null {
    const row = this.db.prepare("select * from organizations where id = ?").get(id) as Row | undefined;
    return row ? toOrganization(row) : null;
  }

  /** Adds an organization; answers its id and name (the shape tests and seeding use). */
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

  /** Changes the name and/or the data fields given; null when missing. */
  update(
    id: string,
    changes: { name?: string } & Partial<OrganizationData>,
    actorEmail: string | null,
  ): Organization | null {
    const row = this.db.prepare("select * from organizations where id = ?").get(id) as Row | undefined;
    if (!row) return null;
    const { name, ...dataChanges } = changes;
    let data: Record<string, unknown> = {};
    try {
      data = JSON.parse(row.data) as Record<string, unknown>;
    } catch {
      data = {};
    }
    const defined = Object.fromEntries(Object.entries(dataChanges).filter(([, v]) => v !== undefined));
    this.db
      .prepare("update organizations set name = ?, data = ?, updated_at = ?, updated_by = ? where id = ?")
      .run(name ?? row.name, JSON.stringify({ ...data, ...defined }), new Date(this.now()).toISOString(), actorEmail, id);
    return this.get(id);
  }

  /** Deletes it (users' links to it go with it). */
  remove(id: string): boolean {
    return this.db.prepare("delete from organizations where id = ?").run(id).changes > 0;
  }

  static defaults(): OrganizationData {
    return { ...DEFAULT_DATA };
  }
}
