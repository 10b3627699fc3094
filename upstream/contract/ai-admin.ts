/**
 * AI administration (spec 3 §3 model configuration, provider, model permission, speech-to-text service, configuration
 * lists; §5 config JSON and the in-use rules; §7 "Models, services, configuration"; §8 "Models, services,
 * organizations"): the shapes of the API, its permissions and every text of the area, defined once. The config JSON's
 * keys and the provider's texts are contract/llm.ts; the decisions in docs/decisions/ai-administration.md.
 */
import { z } from "zod";
import { Audit, LIST_LIMITS, TEXT_LIMITS, boundedList, boundedText, limitText } from "./common";
import { parseProviderConfig } from "./llm";
import type { Permission } from "./permissions";
import { defineResource } from "./resource";

/** Spec 3 §6: `administration` sees, edits and deletes models and services; the landing reads with administration.read. */
export const AI_ADMIN_PERMISSIONS = { read: "administration.read", write: "administration" } as const satisfies Record<string, Permission>;

export const AI_ADMIN_PATHS = {
  configurations: "/api/v2/nlp/configurations",
  stt: "/api/v2/nlp/stt",
  permissions: "/api/v2/nlp/permissions",
  organizationModels: (organizationId: string) => `/api/v2/nlp/permissions/organizations/${encodeURIComponent(organizationId)}/models`,
  modelOrganizations: (modelId: string) => `/api/v2/nlp/permissions/models/${encodeURIComponent(modelId)}/organizations`,
} as const;

/** Spec 3 §3: a model's capability; "vision" ends the names of those that read images. */
export const MODEL_CAPABILITIES = ["chat", "chat-with-vision", "image-generation"] as const;
export type ModelCapability = (typeof MODEL_CAPABILITIES)[number];
export const isVisionCapability = (capability: string) => capability.endsWith("vision");

/**
 * The providers a model or a service can name: one adapter each (upstream/src/llm). Both speak the OpenAI wire format,
 * so one provider covers OpenAI itself and every compatible server (vLLM, Ollama, LiteLLM, Azure's /openai/v1).
 */
export const LLM_PROVIDER = "openai-compatible";
export const STT_PROVIDER = "openai-compatible";

/** Spec 3 §3 configuration lists: content sources (default file) and the variable selectors (§9: all, newest, oldest). */
export const CONTENT_SOURCES = ["file", "mermaid", "ai"] as const;
export const VARIABLE_SELECTORS = ["all", "newest", "oldest"] as const;

/** Spec 3 §9: "Default new model or service config is a small JSON sample" — the keys contract/llm.ts reads. */
export const DEFAULT_MODEL_CONFIG = JSON.stringify({ baseURL: "https://api.openai.com/v1", apiKey: "", model: "gpt-4o-mini" }, null, 2);
export const DEFAULT_STT_CONFIG = JSON.stringify({ baseURL: "https://api.openai.com/v1", apiKey: "", model: "whisper-1" }, null, 2);

export const AI_ADMIN_LIMITS = { config: 20_000, version: 100, params: 50, paramOptions: 50, paramValue: 1_000 } as const;

export const AI_ADMIN_MESSAGES = {
  nameRequired: "Name is required",
  providerRequired: "Provider is required",
  capabilityRequired: "Capability is required",
  configRequired: "Config is required",
  paramNameRequired: "Param name is required",
  unknownProvider: (name: string) => `Unknown provider '${name}'.`,
  unknownOrganizations: (ids: readonly string[]) => `No organization has the id ${ids.join(", ")}.`,
  unknownModel: (id: string) => `No model has the id ${id}.`,
  unknownService: (id: string) => `No speech-to-text service has the id ${id}.`,
  modelNotFound: "Model not found.",
  serviceNotFound: "Speech-to-text service not found.",
  organizationNotFound: "Organization not found.",
  /** Spec 3 §8, §5: an organization using the model for speech post-processing stays allowed. */
  organizationInUse: (organization: string) => `Cannot delete ${organization} from this model because it is in use`,
  organizationInUseHint: "Change its speech settings in the Organizations panel first.",
  /** Spec 3 §8, §5: a service (or a model) an organization uses cannot be deleted; the organizations are listed. */
  inUse: (name: string) => `Cannot delete ${name} because it is in use`,
  usedBy: (organizations: readonly string[]) => `Organizations using it: ${organizations.join(", ")}.`,
  /** An administration field sent by someone without `administration` (the organization form's AI fields). */
  aiFieldsForbidden: "Changing speech-to-text and model settings needs the administration permission.",
} as const;

/** The 409 of an organization that cannot be taken from a model: the spec's text and its hint. */
export const organizationInUseMessage = (organization: string) =>
  `${AI_ADMIN_MESSAGES.organizationInUse(organization)}. ${AI_ADMIN_MESSAGES.organizationInUseHint}`;
/** The 409 of a service or model in use: the spec's text and the organizations using it. */
export const inUseMessage = (name: string, organizations: readonly string[]) =>
  `${AI_ADMIN_MESSAGES.inUse(name)}. ${AI_ADMIN_MESSAGES.usedBy(organizations)}`;

/**
 * Whether a config JSON text is one the provider can use: null, or where it is broken ("Config is not valid JSON:
 * line 3, column 1: …") or which key is wrong ("Config: apiKey is required"). The form and the upstream both ask.
 */
export function configProblem(text: string): string | null {
  const parsed = parseProviderConfig(text);
  return parsed.ok ? null : parsed.message;
}

const id = boundedText("Id", TEXT_LIMITS.id);
const ids = boundedList(id, "organizations", LIST_LIMITS.organizations);
const requiredName = limitText(
  z.string({ required_error: AI_ADMIN_MESSAGES.nameRequired }).trim().min(1, AI_ADMIN_MESSAGES.nameRequired),
  "Name",
  TEXT_LIMITS.name,
);
const provider = limitText(
  z.string({ required_error: AI_ADMIN_MESSAGES.providerRequired }).trim().min(1, AI_ADMIN_MESSAGES.providerRequired),
  "Provider",
  TEXT_LIMITS.name,
);
const description = boundedText("Description", TEXT_LIMITS.description, { multiline: true });
const config = limitText(
  z.string({ required_error: AI_ADMIN_MESSAGES.configRequired }).min(1, AI_ADMIN_MESSAGES.configRequired),
  "Config",
  AI_ADMIN_LIMITS.config,
  { multiline: true },
);

/** Spec 3 §3: a model's param: name, default value and the options offered. */
export const ModelParam = z.object({
  name: limitText(z.string().trim().min(1, AI_ADMIN_MESSAGES.paramNameRequired), "Param name", TEXT_LIMITS.name),
  default: boundedText("Param default", AI_ADMIN_LIMITS.paramValue).default(""),
  options: boundedList(boundedText("Param option", AI_ADMIN_LIMITS.paramValue), "options", AI_ADMIN_LIMITS.paramOptions).default([]),
});
export type ModelParam = z.infer<typeof ModelParam>;

/** A model configuration as answered: `config` with its apiKey masked (maskSecret), never in full. */
export const ModelConfiguration = z
  .object({
    id: z.string(),
    name: z.string(),
    provider: z.string(),
    capability: z.enum(MODEL_CAPABILITIES),
    version: z.string(),
    description: z.string(),
    /** The organizations allowed to use the model (the model permissions, spec 3 §3). */
    organizations: z.array(z.string()),
    config: z.string(),
    params: z.array(ModelParam),
  })
  .merge(Audit);
export type ModelConfiguration = z.infer<typeof ModelConfiguration>;

/** POST /api/v2/nlp/configurations. A `config` whose apiKey is the masked stored one keeps the stored key. */
export const ModelCreate = z.object({
  name: requiredName,
  provider,
  capability: z.enum(MODEL_CAPABILITIES, {
    required_error: AI_ADMIN_MESSAGES.capabilityRequired,
    invalid_type_error: AI_ADMIN_MESSAGES.capabilityRequired,
  }),
  version: boundedText("Version", AI_ADMIN_LIMITS.version).default(""),
  description: description.default(""),
  organizations: ids.default([]),
  config,
  params: boundedList(ModelParam, "params", AI_ADMIN_LIMITS.params).default([]),
});
export type ModelCreate = z.input<typeof ModelCreate>;
/** PUT /api/v2/nlp/configurations/{id}: the fields sent change. */
export const ModelUpdate = ModelCreate.partial();
export type ModelUpdate = z.input<typeof ModelUpdate>;

/** Spec 3 §3: a speech-to-text service (config masked as a model's). */
export const SttService = z
  .object({ id: z.string(), name: z.string(), sttProvider: z.string(), description: z.string(), config: z.string() })
  .merge(Audit);
export type SttService = z.infer<typeof SttService>;
export const SttServices = z.array(SttService);

/** POST /api/v2/nlp/stt */
export const SttServiceCreate = z.object({ name: requiredName, sttProvider: provider, description: description.default(""), config });
export type SttServiceCreate = z.input<typeof SttServiceCreate>;
/** PUT /api/v2/nlp/stt/{id} */
export const SttServiceUpdate = SttServiceCreate.partial();
export type SttServiceUpdate = z.input<typeof SttServiceUpdate>;

/** Spec 3 §3: a provider and the functions (tools) its models can call. */
export const Provider = z.object({ name: z.string(), functions: z.array(z.object({ name: z.string(), description: z.string() })) });
export type Provider = z.infer<typeof Provider>;

/** Spec 3 §3: one model permission. */
export const ModelPermission = z.object({ organization: z.string(), model: z.string() });
export type ModelPermission = z.infer<typeof ModelPermission>;

/** What each organization uses, for the landing's overview and the forms' in-use hints. */
export const OrganizationAiUsage = z.object({
  id: z.string(),
  name: z.string(),
  enableSpeechToText: z.boolean(),
  speechToTextService: z.string().nullable(),
  speechPostProcessingModel: z.string().nullable(),
  models: z.array(z.string()),
});
export type OrganizationAiUsage = z.infer<typeof OrganizationAiUsage>;

/** GET /api/v2/nlp/configurations: the configuration lists (spec 3 §3), plus what each organization uses. */
export const ConfigurationLists = z.object({
  providers: z.array(Provider),
  models: z.array(ModelConfiguration),
  contentSources: z.array(z.string()),
  variableSelectors: z.array(z.string()),
  permissions: z.array(ModelPermission),
  organizations: z.array(OrganizationAiUsage),
});
export type ConfigurationLists = z.infer<typeof ConfigurationLists>;

/** POST …/permissions/organizations/{id}/models */
export const OrganizationModelsBody = z.object({ models: boundedList(id, "models", LIST_LIMITS.models) });
/** POST …/permissions/models/{id}/organizations */
export const ModelOrganizationsBody = z.object({ organizations: ids });
export const IdList = z.array(z.string());

/** POST /api/v2/nlp/configurations/test: an unsaved config (its masked apiKey read from model `id` when given). */
export const ConnectionTestBody = z.object({ id: id.optional(), config });
/** What "Test connection" answers (always 200: the provider's failure is the answer). */
export const ConnectionTest = z.union([
  z.object({ ok: z.literal(true), ms: z.number(), message: z.string() }),
  z.object({ ok: z.literal(false), failure: z.string(), message: z.string() }),
]);
export type ConnectionTest = z.infer<typeof ConnectionTest>;

/**
 * The model and service records as the resource kit's clients see them (get, create, update, delete): every one needs
 * `administration` (the forms show the config). Their lists are the configuration lists and `GET …/stt`, above.
 */
export const ModelsResource = defineResource({
  name: "models",
  path: AI_ADMIN_PATHS.configurations,
  item: ModelConfiguration,
  create: ModelCreate,
  update: ModelUpdate,
  permissions: { read: AI_ADMIN_PERMISSIONS.write, create: AI_ADMIN_PERMISSIONS.write, write: AI_ADMIN_PERMISSIONS.write },
  notFound: AI_ADMIN_MESSAGES.modelNotFound,
});
export const SttServicesResource = defineResource({
  name: "sttservices",
  path: AI_ADMIN_PATHS.stt,
  item: SttService,
  create: SttServiceCreate,
  update: SttServiceUpdate,
  permissions: { read: AI_ADMIN_PERMISSIONS.write, create: AI_ADMIN_PERMISSIONS.write, write: AI_ADMIN_PERMISSIONS.write },
  notFound: AI_ADMIN_MESSAGES.serviceNotFound,
});
