/**
 * Workflows (spec 3 §3, §5, §7): the resource, clone, the default, the client-code routing, and the export string
 * (a workflow with its templates) that import reads back.
 */
import { z } from "zod";
import { Audit, LIMIT_MESSAGES, boundedList, limitText } from "./common";
import { defineResource } from "./resource";
import { TemplateContent, requiredTitle } from "./milestone-templates";
import { WORKFLOW_LIMITS, WORKFLOW_MESSAGES } from "./workflow-constants";

// ---------------------------------------------------------------------------------------------------------------
// Workflow (spec 3 §3, §5)
// ---------------------------------------------------------------------------------------------------------------
export const ClientCodes = boundedList(
  limitText(z.string().trim().min(1, "A client code must not be empty"), "Client code", WORKFLOW_LIMITS.clientCode),
  "client codes",
  WORKFLOW_LIMITS.clientCodes,
)
  // One workflow per client code; the same code twice (any case) is one.
  .transform((codes) => [...new Map(codes.map((c) => [c.toLowerCase(), c])).values()]);

export const Workflow = z
  .object({ id: z.string(), title: z.string(), clientCodes: z.array(z.string()), isDefault: z.boolean() })
  .merge(Audit);
export type Workflow = z.infer<typeof Workflow>;

export const WorkflowCreate = z.object({ title: requiredTitle(WORKFLOW_MESSAGES.titleRequired), clientCodes: ClientCodes.default([]) });
export type WorkflowCreate = z.input<typeof WorkflowCreate>;
export const WorkflowUpdate = z.object({ title: requiredTitle(WORKFLOW_MESSAGES.titleRequired).optional(), clientCodes: ClientCodes.optional() });
export type WorkflowUpdate = z.input<typeof WorkflowUpdate>;

/**
 * /api/workflows/v2/workflows (spec 3 §7): reading needs workflows.read; creating, changing, cloning, importing and
 * deleting `workflows`. Update is PUT (the spec) and PATCH (the kit), both partial.
 */
export const WorkflowsResource = defineResource({
  name: "workflows",
  path: "/api/workflows/v2/workflows",
  item: Workflow,
  create: WorkflowCreate,
  update: WorkflowUpdate,
  permissions: { read: "workflows.read", create: "workflows", write: "workflows" },
  notFound: WORKFLOW_MESSAGES.workflowNotFound,
});

/** POST .../{id}/clone?references=A&references=B&title=T: the clone takes over the chosen client codes. */
export const CloneQuery = z.object({
  title: limitText(z.string().trim(), "Title", WORKFLOW_LIMITS.title).optional(),
  references: z.array(limitText(z.string().trim(), "Reference", WORKFLOW_LIMITS.clientCode)).max(WORKFLOW_LIMITS.clientCodes),
});

/** GET .../settings */
export const WorkflowSettings = z.object({ defaultWorkflow: z.string().nullable() });
export type WorkflowSettings = z.infer<typeof WorkflowSettings>;

/** GET .../by/references?references=A: which workflow serves each client code (the default when none claims it). */
export const ReferenceRoute = z.object({ reference: z.string(), workflowId: z.string().nullable(), claimed: z.boolean() });
/** GET /api/workflows/migration/inventions/{reference}/count */
export const ReferenceCount = z.object({ reference: z.string(), count: z.number().int().nonnegative() });

/** The export string: a workflow and its templates (spec 3 §3), as JSON text. */
export const WorkflowExport = z.object({
  workflow: z.object({ title: requiredTitle(WORKFLOW_MESSAGES.titleRequired), clientCodes: ClientCodes.default([]) }),
  templates: boundedList(TemplateContent.extend({ active: z.boolean().optional() }), "templates", 1_000).default([]),
});
export type WorkflowExport = z.infer<typeof WorkflowExport>;

export const ImportBody = z.object({
  importString: z.string().max(WORKFLOW_LIMITS.importString, LIMIT_MESSAGES.tooLong("Import string", WORKFLOW_LIMITS.importString)),
});

/**
 * Parses an import string: invalid JSON gives the spec's 'Reason: import string is invalid'; a valid one failing
 * validation names the first failing field ("templates.0.title: Template title is required").
 */
export function parseImportString<S extends z.ZodTypeAny>(schema: S, text: string): { ok: true; value: z.output<S> } | { ok: false; message: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text) as unknown;
  } catch {
    return { ok: false, message: WORKFLOW_MESSAGES.importInvalid };
  }
  const result = schema.safeParse(raw);
  if (result.success) return { ok: true, value: result.data as z.output<S> };
  const issue = result.error.issues[0];
  const where = issue?.path.length ? `${issue.path.join(".")}: ` : "";
  return { ok: false, message: `Reason: ${where}${issue?.message ?? "invalid"}` };
}
