import { AI_ADMIN_MESSAGES, configProblem, inUseMessage, organizationInUseMessage } from "../../contract/ai-admin";
import { maskSecret } from "../../contract/llm";
import { parseJsonText } from "../../contract/json-text";
import { badRequest, conflict } from "../lib/http";
import type { ModelPermissions, ModelsStore, OrganizationUsage, SttServicesStore } from "./store";

/**
 * The AI administration's rules (spec 3 §5), in one place for every endpoint that changes what they guard: the
 * config must be one the provider can use, referenced ids must exist, and what an organization uses stays.
 */
export class AiAdminRules {
  constructor(
    private readonly deps: {
      models: ModelsStore;
      services: SttServicesStore;
      permissions: ModelPermissions;
      usage: OrganizationUsage;
    },
  ) {}

  /** 400 naming where a config JSON is broken or which key is wrong. */
  config(text: string): void {
    const problem = configProblem(text);
    if (problem) throw badRequest(problem);
  }

  organizationsExist(ids: readonly string[]): void {
    const known = new Set(this.deps.usage.all().map((o) => o.id));
    const unknown = ids.filter((id) => !known.has(id));
    if (unknown.length) throw badRequest(AI_ADMIN_MESSAGES.unknownOrganizations(unknown));
  }

  modelsExist(ids: readonly string[]): void {
    const missing = ids.find((id) => !this.deps.models.get(id));
    if (missing !== undefined) throw badRequest(AI_ADMIN_MESSAGES.unknownModel(missing));
  }

  serviceExists(id: string): void {
    if (!this.deps.services.get(id)) throw badRequest(AI_ADMIN_MESSAGES.unknownService(id));
  }

  /**
   * Spec 3 §5: an organization cannot be taken from a model while it uses the model for speech post-processing (409,
   * the spec's text and hint; nothing changes).
   */
  keepsUsers(modelId: string, nextOrganizations: readonly string[]): void {
    const next = new Set(nextOrganizations);
    const user = this.deps.usage.all().find((o) => o.speechPostProcessingModel === modelId && o.models.includes(modelId) && !next.has(o.id));
    if (user) throw conflict(organizationInUseMessage(user.name));
  }

  /** The same rule seen from the organization: its post-processing model stays among its models. */
  keepsPostProcessingModel(organizationId: string, nextModels: readonly string[], postProcessingModel: string | null): void {
    const usage = this.deps.usage.get(organizationId);
    if (!usage || !postProcessingModel) return;
    if (usage.models.includes(postProcessingModel) && !nextModels.includes(postProcessingModel)) {
      throw conflict(organizationInUseMessage(usage.name));
    }
  }

  /** Spec 3 §5: a service used by an organization with speech to text enabled cannot be deleted (409 listing them). */
  serviceDeletable(id: string, name: string): void {
    const users = this.deps.usage.all().filter((o) => o.enableSpeechToText && o.speechToTextService === id);
    if (users.length) throw conflict(inUseMessage(name, users.map((o) => o.name)));
  }

  /** A model an organization uses for speech post-processing cannot be deleted either (the same rule, the same text). */
  modelDeletable(id: string, name: string): void {
    const users = this.deps.usage.all().filter((o) => o.speechPostProcessingModel === id);
    if (users.length) throw conflict(inUseMessage(name, users.map((o) => o.name)));
  }
}

type JsonObject = Record<string, unknown>;
const objectOf = (text: string): JsonObject | null => {
  const parsed = parseJsonText(text);
  return parsed.ok && parsed.value && typeof parsed.value === "object" && !Array.isArray(parsed.value) ? (parsed.value as JsonObject) : null;
};

/** A stored config as the browser may see it: the apiKey masked (its last 4 characters), never in full. */
export function maskedConfig(text: string): string {
  const config = objectOf(text);
  if (!config || typeof config.apiKey !== "string") return text;
  return JSON.stringify({ ...config, apiKey: maskSecret(config.apiKey) }, null, 2);
}

/**
 * A config sent by a form: when its apiKey is the masked stored one (the user left it as shown), the stored key takes
 * its place; any other text is kept exactly as typed.
 */
export function withStoredKey(sent: string, stored: string | null | undefined): string {
  const config = objectOf(sent);
  const before = stored ? objectOf(stored) : null;
  if (!config || !before || typeof config.apiKey !== "string" || typeof before.apiKey !== "string") return sent;
  if (config.apiKey !== maskSecret(before.apiKey)) return sent;
  return JSON.stringify({ ...config, apiKey: before.apiKey }, null, 2);
}
