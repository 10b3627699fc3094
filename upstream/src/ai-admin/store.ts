import type { Statement } from "better-sqlite3";
import type { ModelConfiguration, ModelPermission, OrganizationAiUsage, SttService } from "../../contract/ai-admin";
import type { Db } from "../db";
import { CollectionStore, columns } from "../lib/collection-store";

/** A model as stored: its config with the apiKey in full; the allowed organizations live in `model_permissions`. */
export type StoredModel = Omit<ModelConfiguration, "organizations">;

/** Model configurations: name in its column, the rest in `data`. */
export class ModelsStore extends CollectionStore<StoredModel> {
  constructor(db: Db, now: () => number) {
    super(db, now, {
      table: "ai_models",
      columns: { name: columns.text("name") },
      data: { provider: "", capability: "chat", version: "", description: "", config: "", params: [] },
      search: ["name"],
    });
  }
}

/** Speech-to-text services: name in its column, the rest in `data`. */
export class SttServicesStore extends CollectionStore<SttService> {
  constructor(db: Db, now: () => number) {
    super(db, now, {
      table: "stt_services",
      columns: { name: columns.text("name") },
      data: { sttProvider: "", description: "", config: "" },
      search: ["name"],
    });
  }
}

/**
 * The model permissions (spec 3 §3 "Model permission: organization, model"), both directions. Callers check the ids
 * and the in-use rules (rules.ts) before they set a list; a set replaces the list in one transaction.
 */
export class ModelPermissions {
  private readonly ofModel: Statement;
  private readonly ofOrganization: Statement;
  private readonly everything: Statement;
  private readonly dropModel: Statement;
  private readonly dropOrganization: Statement;
  private readonly link: Statement;

  constructor(private readonly db: Db) {
    this.ofModel = db.prepare("select organization_id from model_permissions where model_id = ? order by rowid").pluck();
    this.ofOrganization = db.prepare("select model_id from model_permissions where organization_id = ? order by rowid").pluck();
    this.everything = db.prepare("select organization_id as organization, model_id as model from model_permissions order by rowid");
    this.dropModel = db.prepare("delete from model_permissions where model_id = ?");
    this.dropOrganization = db.prepare("delete from model_permissions where organization_id = ?");
    this.link = db.prepare("insert or ignore into model_permissions (model_id, organization_id) values (?, ?)");
  }

  organizationsOf(modelId: string): string[] {
    return this.ofModel.all(modelId) as string[];
  }

  modelsOf(organizationId: string): string[] {
    return this.ofOrganization.all(organizationId) as string[];
  }

  all(): ModelPermission[] {
    return this.everything.all() as ModelPermission[];
  }

  setForModel(modelId: string, organizationIds: readonly string[]): void {
    this.db.transaction(() => {
      this.dropModel.run(modelId);
      for (const organizationId of organizationIds) this.link.run(modelId, organizationId);
    })();
  }

  setForOrganization(organizationId: string, modelIds: readonly string[]): void {
    this.db.transaction(() => {
      this.dropOrganization.run(organizationId);
      for (const modelId of modelIds) this.link.run(modelId, organizationId);
    })();
  }
}

/** What each organization uses (its speech settings and allowed models), read from the organizations' records. */
export class OrganizationUsage {
  private readonly rows: Statement;
  private readonly one: Statement;

  constructor(
    db: Db,
    private readonly permissions: ModelPermissions,
  ) {
    const select = `select id, name,
        coalesce(json_extract(data, '$.enableSpeechToText'), 0) as stt,
        json_extract(data, '$.speechToTextService.id') as service,
        json_extract(data, '$.speechPostProcessingModel.id') as model
      from organizations`;
    this.rows = db.prepare(`${select} order by lower(name), id`);
    this.one = db.prepare(`${select} where id = ?`);
  }

  private usage = (row: { id: string; name: string; stt: number; service: unknown; model: unknown }): OrganizationAiUsage => ({
    id: row.id,
    name: row.name,
    enableSpeechToText: row.stt === 1,
    speechToTextService: typeof row.service === "string" ? row.service : null,
    speechPostProcessingModel: typeof row.model === "string" ? row.model : null,
    models: this.permissions.modelsOf(row.id),
  });

  all(): OrganizationAiUsage[] {
    return (this.rows.all() as Parameters<OrganizationUsage["usage"]>[0][]).map(this.usage);
  }

  get(id: string): OrganizationAiUsage | null {
    const row = this.one.get(id) as Parameters<OrganizationUsage["usage"]>[0] | undefined;
    return row ? this.usage(row) : null;
  }
}
