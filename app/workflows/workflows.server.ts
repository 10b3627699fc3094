import { z } from "zod";
import { itemPath } from "@contract/resource";
import { TEMPLATE_TYPES, UNIQUENESS } from "@contract/workflow-constants";
import { Contracts } from "@contract/workflow-contracts";
import { ReferenceCount, ReferenceRoute, Workflow, WorkflowsResource } from "@contract/workflows";
import { reasonOf } from "~/lib/actions.server";
import { resourceClient } from "~/lib/resource.server";
import type { Api } from "~/lib/upstream.server";
import type { ToastData } from "~/ui/toast";
import { WORKFLOWS } from "./texts";

/** The workflows collection (spec 3 §7 `/api/workflows/v2/workflows`), through the resource kit. */
export const workflows = resourceClient(WorkflowsResource);

const BASE = WorkflowsResource.path;
const one = (id: string) => itemPath(WorkflowsResource, id);

/** Spec 3 §8: a workflow's create and update failures say "Reason: " and the server's message (or the try-later text). */
export function saveFailure(title: string, error: unknown): ToastData {
  return { type: "error", message: title, description: WORKFLOWS.reason(reasonOf(error)) };
}

export const makeDefault = (api: Api, id: string) => api.post(Workflow, `${one(id)}/makeDefault`);

/** The export string (spec 3 §3: the workflow and its templates), as the upstream answers it. */
export const openExport = (api: Api, id: string) => api.raw("GET", `${one(id)}/export`);

export const importWorkflow = (api: Api, importString: string) => api.post(Workflow, `${BASE}/import`, { importString });

/** POST .../{id}/clone?title=T&references=A&references=B (spec 3 §7). */
export function cloneWorkflow(api: Api, id: string, input: { title: string; references: readonly string[] }) {
  const query = new URLSearchParams({ title: input.title });
  for (const r of input.references) query.append("references", r);
  return api.post(Workflow, `${one(id)}/clone?${query}`);
}

export type ReferenceChoice = { reference: string; count: number };

/**
 * What a clone of workflow `id` may take over (docs/decisions/workflows-screens.md): its references from
 * `by/references?workflowId=` (its client codes; for the default workflow also the unclaimed client codes its matters
 * carry), each with its count of matters from `migration/inventions/{reference}/count`.
 */
export async function referencesOf(api: Api, id: string): Promise<ReferenceChoice[]> {
  const routes = await api.get(z.array(ReferenceRoute), `${BASE}/by/references`, { workflowId: id });
  return Promise.all(
    routes.map(async ({ reference }) => {
      const { count } = await api.get(ReferenceCount, `/api/workflows/migration/inventions/${encodeURIComponent(reference)}/count`);
      return { reference, count };
    }),
  );
}

/** What a template's card shows (spec 3 §2.3): the template's answer without its graph. */
export const TemplateCard = z.object({
  id: z.string(),
  title: z.string(),
  type: z.enum(TEMPLATE_TYPES),
  active: z.boolean(),
  isDraft: z.boolean(),
  hasDraft: z.boolean(),
  uniqueness: z.enum(UNIQUENESS),
  tags: z.array(z.string()),
  hidden: z.boolean(),
  events: z.array(z.object({ type: z.string(), code: z.string() })),
  updatedAt: z.string(),
  updatedBy: z.string().nullable(),
});
export type TemplateCard = z.infer<typeof TemplateCard>;

const templatePath = (workflowId: string, templateId: string) => `${one(workflowId)}/milestones/${encodeURIComponent(templateId)}`;

export const templatesOf = (api: Api, workflowId: string) => api.get(z.array(TemplateCard), `${one(workflowId)}/milestones`);

export const contractsOf = (api: Api) => api.get(Contracts, `${BASE}/settings/contracts`);

/** POST .../milestones/{m}/activate or /deactivate (spec 3 §4.1); answers the template. */
export const setTemplateActive = (api: Api, workflowId: string, templateId: string, active: boolean) =>
  api.post(TemplateCard, `${templatePath(workflowId, templateId)}/${active ? "activate" : "deactivate"}`);

export const importTemplate = (api: Api, workflowId: string, importString: string) =>
  api.post(TemplateCard, `${one(workflowId)}/milestones/import`, { importString });
