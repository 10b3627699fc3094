import { z } from "zod";
import { LIMIT_MESSAGES, limitText } from "@contract/common";
import { WORKFLOW_LIMITS, WORKFLOW_MESSAGES as M } from "@contract/workflow-constants";
import { ClientCodes, WorkflowCreate } from "@contract/workflows";
import { textList } from "~/lib/form-fields";

/** The workflow form (spec 3 §2.2, §5): the contract's title (required, trimmed) and client codes as the tag input sends them. */
export const WorkflowSchema = WorkflowCreate.extend({ clientCodes: textList(ClientCodes) });
export type WorkflowForm = z.infer<typeof WorkflowSchema>;

/** The clone dialog (spec 3 §2.2): a non-empty title and at least one reference. */
export const CloneSchema = z.object({
  id: z.string().min(1),
  title: limitText(z.string({ required_error: M.titleRequired }).trim().min(1, M.titleRequired), "Title", WORKFLOW_LIMITS.title),
  references: z
    .array(limitText(z.string().trim(), "Reference", WORKFLOW_LIMITS.clientCode), { required_error: M.cloneReferenceRequired })
    .min(1, M.cloneReferenceRequired)
    .max(WORKFLOW_LIMITS.clientCodes),
});
export type CloneForm = z.infer<typeof CloneSchema>;

/** A pasted import string past WORKFLOW_LIMITS.importString. */
export const IMPORT_TOO_LONG = LIMIT_MESSAGES.tooLong("Import string", WORKFLOW_LIMITS.importString);

/**
 * The import dialogs (a workflow, a template): the pasted text, bounded. Whether it is JSON and what it must hold is
 * the action's check (parseImportString), answered with the spec's 'Import failed' toast and under the field.
 */
export const importSchema = (required: string) =>
  z.object({
    importString: z
      .string({ required_error: required })
      .max(WORKFLOW_LIMITS.importString, IMPORT_TOO_LONG)
      .refine((text) => text.trim() !== "", required),
  });
