import { parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import {
  AI_ADMIN_PATHS,
  AI_ADMIN_PERMISSIONS,
  ConfigurationLists,
  ConnectionTest,
  ModelsResource,
  SttServices,
  SttServicesResource,
  Provider,
} from "@contract/ai-admin";
import { OrganizationOptions } from "@contract/organizations";
import { can } from "@contract/permissions";
import { requireRoute, type RouteAccess } from "~/auth/guard.server";
import { editorAction, editorLoader } from "~/kit/resource-routes.server";
import { rethrowResponse, speaks } from "~/lib/actions.server";
import { textOf } from "~/lib/form.server";
import { resourceClient } from "~/lib/resource.server";
import { TRY_LATER } from "~/lib/toast.server";
import { isUpstreamError, type Api } from "~/lib/upstream.server";
import type { ToastData } from "~/ui/toast";
import { ModelFormSchema, SttServiceFormSchema } from "./schema";
import { MODELS, STT_SERVICES } from "./texts";

/** The model and service records through the resource kit (get, create, update, delete). */
export const models = resourceClient(ModelsResource);
export const sttServices = resourceClient(SttServicesResource);

/** Where saving or deleting a model or a service returns (spec 3 §2.1). */
export const LANDING = "/administration";

export const configurationLists = (api: Api) => api.get(ConfigurationLists, AI_ADMIN_PATHS.configurations);
export const serviceList = (api: Api) => api.get(SttServices, AI_ADMIN_PATHS.stt);
const sttProviders = (api: Api) => api.get(Provider.array(), `${AI_ADMIN_PATHS.stt}/providers`);
/** Every organization's id and name (open to every signed-in user: an administrator need not manage organizations). */
const organizationOptions = (api: Api) => api.get(OrganizationOptions, "/api/organizations/user");

/**
 * Spec 3 §8: the failure title with the server's message ("Failed to update model" / "Cannot delete Acme from this
 * model because it is in use. …"); a failure that says nothing useful gets the try-later text.
 */
export function aiFailure(title: string, error: unknown): ToastData {
  rethrowResponse(error);
  return { type: "error", message: title, description: speaks(error) ? error.message : TRY_LATER };
}

/** The landing (spec 3 §2.1 /administration): every model, service and organization's use, in two calls. */
export async function administrationLoader(args: LoaderFunctionArgs) {
  const { api, may, identity } = await requireRoute(args);
  const [lists, services] = await Promise.all([configurationLists(api), serviceList(api)]);
  return {
    lists,
    services: services.map(({ id, name, sttProvider, description }) => ({ id, name, sttProvider, description })),
    may,
    canOrganizations: can(identity.permissions, "organizations.read"),
  };
}

/** What the model form offers: providers, organizations, and which organizations use a model for post-processing. */
async function modelChoices({ api }: RouteAccess) {
  const [lists, organizations] = await Promise.all([configurationLists(api), organizationOptions(api)]);
  return { providers: lists.providers.map((p) => p.name), organizations, usage: lists.organizations };
}

export const modelLoader = (args: LoaderFunctionArgs) =>
  args.params.id === undefined
    ? requireRoute(args).then(async (access) => ({ id: "new", record: null, may: access.may, ...(await modelChoices(access)) }))
    : editorLoader(args, models, modelChoices);

export const sttLoader = (args: LoaderFunctionArgs) => {
  const choices = async ({ api }: RouteAccess) => ({ providers: (await sttProviders(api)).map((p) => p.name) });
  return args.params.id === undefined
    ? requireRoute(args).then(async (access) => ({ id: "new", record: null, may: access.may, ...(await choices(access)) }))
    : editorLoader(args, sttServices, choices);
};

/** "Test connection" (intent=test): the typed config, its masked apiKey read from the saved model; what was typed kept. */
async function testConnection({ api, form }: { api: Api; form: FormData }, id: string | undefined) {
  const reply = parseWithZod(form, { schema: ModelFormSchema }).reply();
  const config = textOf(form, "config");
  let test: ConnectionTest;
  try {
    test = await api.post(ConnectionTest, `${AI_ADMIN_PATHS.configurations}/test`, { id, config });
  } catch (error) {
    rethrowResponse(error);
    test = { ok: false, failure: "unreachable", message: isUpstreamError(error) ? error.message : TRY_LATER };
  }
  return { ...reply, test };
}

/**
 * The model form's action: save (create or update) or delete, then back to /administration; Test connection. A save
 * refused because an organization taken off still uses the model (409) shows that organization ticked again, as it
 * stays allowed (spec 3 §5).
 */
export async function modelAction(args: ActionFunctionArgs) {
  const id = args.params.id;
  const answer = await editorAction(args, models, {
    schema: ModelFormSchema,
    texts: MODELS,
    list: LANDING,
    failure: aiFailure,
    intents: { test: (post) => testConnection(post, id) },
  });
  if (id === undefined || answer.status !== 409) return answer;
  const body = (await answer.clone().json()) as { initialValue?: Record<string, unknown> | null };
  if (!body.initialValue) return answer;
  const { api } = await requireRoute(args);
  const [lists, stored] = await Promise.all([configurationLists(api), models.get(api, id)]);
  const kept = lists.organizations.filter((o) => o.speechPostProcessingModel === id && stored.organizations.includes(o.id)).map((o) => o.id);
  const typed = body.initialValue.organizations;
  const ticked = Array.isArray(typed) ? typed.map(String) : typeof typed === "string" ? [typed] : [];
  body.initialValue.organizations = [...new Set([...ticked, ...kept])];
  // A new token per refusal: the form renders the checkboxes anew from the answer (ModelForm).
  return json({ ...body, restored: crypto.randomUUID() }, { status: 409 });
}

export const sttAction = (args: ActionFunctionArgs) =>
  editorAction(args, sttServices, { schema: SttServiceFormSchema, texts: STT_SERVICES, list: LANDING, failure: aiFailure });

/**
 * The organization form's AI choices, for those who may change them (`administration`: the upstream refuses the AI
 * fields to others); null otherwise, and the form shows the name alone.
 */
export async function organizationAiChoices({ api, identity }: RouteAccess) {
  if (!can(identity.permissions, AI_ADMIN_PERMISSIONS.write)) return { ai: null };
  const [lists, services] = await Promise.all([configurationLists(api), serviceList(api)]);
  return {
    ai: {
      models: lists.models.map((m) => ({ value: m.id, label: m.name })),
      services: services.map((s) => ({ value: s.id, label: s.name })),
    },
  };
}
