import { Hono, type MiddlewareHandler } from "hono";
import {
  AI_ADMIN_MESSAGES,
  AI_ADMIN_PERMISSIONS,
  CONTENT_SOURCES,
  ConnectionTestBody,
  LLM_PROVIDER,
  ModelCreate,
  ModelOrganizationsBody,
  ModelUpdate,
  OrganizationModelsBody,
  STT_PROVIDER,
  SttServiceCreate,
  SttServiceUpdate,
  VARIABLE_SELECTORS,
  type ConfigurationLists,
  type ConnectionTest,
  type ModelConfiguration,
  type Provider,
  type SttService,
} from "../../contract/ai-admin";
import { parseProviderConfig } from "../../contract/llm";
import { OpenAiCompatible } from "../llm/provider";
import { badRequest, jsonBody, notFound, requirePermission, type AppContext, type AppEnv } from "../lib/http";
import { maskedConfig, withStoredKey } from "./rules";
import type { AiAdmin } from "./service";
import type { StoredModel } from "./store";

/** The providers a model can name (spec 3 §3: name and the functions its models can call). */
export const MODEL_PROVIDERS: Provider[] = [{ name: LLM_PROVIDER, functions: [] }];
const STT_PROVIDERS: Provider[] = [{ name: STT_PROVIDER, functions: [] }];

/** How long "Test connection" waits at most, whatever the config says: a person is waiting for the answer. */
const TEST_TIMEOUT_MS = 30_000;

const actorOf = (c: AppContext) => c.get("actor").email;

/**
 * The AI administration's API (spec 3 §7 "Models, services, configuration"), every endpoint behind `administration`
 * (403), reads the landing needs behind administration.read:
 *
 *   /api/v2/nlp/configurations        GET (the configuration lists) · POST · POST /test (an unsaved config)
 *   /api/v2/nlp/configurations/{id}   GET · PUT (PATCH too) · DELETE · POST /test
 *   /api/v2/nlp/stt                   GET · POST · GET /providers
 *   /api/v2/nlp/stt/{id}              GET · PUT (PATCH too) · DELETE
 *   /api/v2/nlp/permissions           GET · GET|POST /organizations/{id}/models · GET|POST /models/{id}/organizations
 *
 * An answered config has its apiKey masked; a save sending the masked key back keeps the stored one.
 */
export function aiAdminRoutes(deps: { ai: AiAdmin; requireAuth: MiddlewareHandler<AppEnv> }) {
  const { ai, requireAuth } = deps;
  const { models, services, permissions, usage, rules } = ai;
  const read = [requireAuth, requirePermission(AI_ADMIN_PERMISSIONS.read)] as const;
  const write = [requireAuth, requirePermission(AI_ADMIN_PERMISSIONS.write)] as const;

  const modelAnswer = (model: StoredModel): ModelConfiguration => ({
    ...model,
    config: maskedConfig(model.config),
    organizations: permissions.organizationsOf(model.id),
  });
  const serviceAnswer = (service: SttService): SttService => ({ ...service, config: maskedConfig(service.config) });
  const modelOr404 = (id: string) => models.get(id) ?? notFoundError(AI_ADMIN_MESSAGES.modelNotFound);
  const serviceOr404 = (id: string) => services.get(id) ?? notFoundError(AI_ADMIN_MESSAGES.serviceNotFound);
  const knownProvider = (name: string, known: Provider[]) => {
    if (!known.some((p) => p.name === name)) throw badRequest(AI_ADMIN_MESSAGES.unknownProvider(name));
  };
  const allModels = () => models.list({ q: "", sort: "name", page: 1, pageSize: 100_000 }).items;

  const configurations = new Hono<AppEnv>({ strict: false });
  configurations.get("/", ...read, (c) => {
    const lists: ConfigurationLists = {
      providers: MODEL_PROVIDERS,
      models: allModels().map(modelAnswer),
      contentSources: [...CONTENT_SOURCES],
      variableSelectors: [...VARIABLE_SELECTORS],
      permissions: permissions.all(),
      organizations: usage.all(),
    };
    return c.json(lists);
  });
  configurations.post("/test", ...write, async (c) => {
    const body = await jsonBody(c, ConnectionTestBody);
    const stored = body.id ? models.get(body.id)?.config : undefined;
    return c.json(await testConnection(withStoredKey(body.config, stored)));
  });
  configurations.post("/", ...write, async (c) => {
    const input = await jsonBody(c, ModelCreate);
    knownProvider(input.provider, MODEL_PROVIDERS);
    rules.config(input.config);
    rules.organizationsExist(input.organizations);
    const { organizations, ...values } = input;
    const model = ai.transaction(() => {
      const created = models.create(values, actorOf(c));
      permissions.setForModel(created.id, organizations);
      return created;
    });
    return c.json(modelAnswer(model), 201);
  });
  configurations.get("/:id", ...write, (c) => c.json(modelAnswer(modelOr404(c.req.param("id")))));
  const updateModel = async (c: AppContext) => {
    const current = modelOr404(c.req.param("id") ?? "");
    const input = await jsonBody(c, ModelUpdate);
    const { organizations, ...changes } = input;
    if (changes.provider !== undefined) knownProvider(changes.provider, MODEL_PROVIDERS);
    if (changes.config !== undefined) {
      changes.config = withStoredKey(changes.config, current.config);
      rules.config(changes.config);
    }
    if (organizations !== undefined) {
      rules.organizationsExist(organizations);
      rules.keepsUsers(current.id, organizations);
    }
    const model = ai.transaction(() => {
      const updated = models.update(current.id, changes, actorOf(c))!;
      if (organizations !== undefined) permissions.setForModel(current.id, organizations);
      return updated;
    });
    return c.json(modelAnswer(model));
  };
  configurations.put("/:id", ...write, updateModel);
  configurations.patch("/:id", ...write, updateModel);
  configurations.delete("/:id", ...write, (c) => {
    const model = modelOr404(c.req.param("id"));
    rules.modelDeletable(model.id, model.name);
    models.remove(model.id);
    return c.body(null, 204);
  });
  configurations.post("/:id/test", ...write, async (c) => c.json(await testConnection(modelOr404(c.req.param("id")).config)));

  const stt = new Hono<AppEnv>({ strict: false });
  stt.get("/", ...read, (c) =>
    c.json(services.list({ q: "", sort: "name", page: 1, pageSize: 100_000 }).items.map(serviceAnswer)),
  );
  stt.get("/providers", ...read, (c) => c.json(STT_PROVIDERS));
  stt.post("/", ...write, async (c) => {
    const input = await jsonBody(c, SttServiceCreate);
    knownProvider(input.sttProvider, STT_PROVIDERS);
    rules.config(input.config);
    return c.json(serviceAnswer(services.create(input, actorOf(c))), 201);
  });
  stt.get("/:id", ...write, (c) => c.json(serviceAnswer(serviceOr404(c.req.param("id")))));
  const updateService = async (c: AppContext) => {
    const current = serviceOr404(c.req.param("id") ?? "");
    const changes = await jsonBody(c, SttServiceUpdate);
    if (changes.sttProvider !== undefined) knownProvider(changes.sttProvider, STT_PROVIDERS);
    if (changes.config !== undefined) {
      changes.config = withStoredKey(changes.config, current.config);
      rules.config(changes.config);
    }
    return c.json(serviceAnswer(services.update(current.id, changes, actorOf(c))!));
  };
  stt.put("/:id", ...write, updateService);
  stt.patch("/:id", ...write, updateService);
  stt.delete("/:id", ...write, (c) => {
    const service = serviceOr404(c.req.param("id"));
    rules.serviceDeletable(service.id, service.name);
    ai.transaction(() => {
      services.remove(service.id);
      ai.forgetService(service.id);
    });
    return c.body(null, 204);
  });

  const links = new Hono<AppEnv>({ strict: false });
  links.get("/", ...read, (c) => c.json(permissions.all()));
  const organizationOr404 = (id: string) => usage.get(id) ?? notFoundError(AI_ADMIN_MESSAGES.organizationNotFound);
  links.get("/organizations/:id/models", ...read, (c) => c.json(organizationOr404(c.req.param("id")).models));
  links.post("/organizations/:id/models", ...write, async (c) => {
    const organization = organizationOr404(c.req.param("id"));
    const { models: next } = await jsonBody(c, OrganizationModelsBody);
    rules.modelsExist(next);
    rules.keepsPostProcessingModel(organization.id, next, organization.speechPostProcessingModel);
    permissions.setForOrganization(organization.id, next);
    return c.json(permissions.modelsOf(organization.id));
  });
  links.get("/models/:id/organizations", ...read, (c) => c.json(permissions.organizationsOf(modelOr404(c.req.param("id")).id)));
  links.post("/models/:id/organizations", ...write, async (c) => {
    const model = modelOr404(c.req.param("id"));
    const { organizations } = await jsonBody(c, ModelOrganizationsBody);
    rules.organizationsExist(organizations);
    rules.keepsUsers(model.id, organizations);
    permissions.setForModel(model.id, organizations);
    return c.json(permissions.organizationsOf(model.id));
  });

  return { configurations, stt, permissions: links };
}

function notFoundError(message: string): never {
  throw notFound(message);
}

/** "Test connection": the adapter's one-token request; a config the provider cannot use is the answer too. */
async function testConnection(config: string): Promise<ConnectionTest> {
  const parsed = parseProviderConfig(config);
  if (!parsed.ok) return { ok: false, failure: "bad-request", message: parsed.message };
  const adapter = new OpenAiCompatible({ ...parsed.config, timeoutMs: Math.min(parsed.config.timeoutMs, TEST_TIMEOUT_MS) });
  return adapter.test({ signal: AbortSignal.timeout(TEST_TIMEOUT_MS) });
}
