import { parseWithZod } from "@conform-to/zod";
import { json } from "@remix-run/node";
import type { z } from "zod";
import { WORKFLOW_LIMITS, WORKFLOW_MESSAGES as M } from "@contract/workflow-constants";
import { parseImportString } from "@contract/workflows";
import { failed, reasonOf, statusOf } from "~/lib/actions.server";
import { textOf } from "~/lib/form.server";
import { isUpstreamError } from "~/lib/upstream.server";
import { IMPORT_TOO_LONG, importSchema } from "./schema";

/**
 * An import dialog's post (a workflow on the list, a template on a workflow's page), spec 3 §5, §8: the pasted text
 * is checked here first as the upstream checks it (`parseImportString` on `shape`): invalid JSON is 'Import failed' /
 * 'Reason: import string is invalid', a valid string lacking something names what ("Reason: templates.0.title: …").
 * Then `send`; a refusal the upstream explains (4xx) says its reason, any other failure 'Contact our developers or
 * try again later.'. A text longer than WORKFLOW_LIMITS.importString is a 413 with the field's message. Each failure
 * is the toast and the field's message, the text kept; success is `done()`.
 */
export async function importPost(
  form: FormData,
  options: { shape: z.ZodTypeAny; required: string; send: (importString: string) => Promise<unknown>; done: () => Promise<Response> },
): Promise<Response> {
  const submission = parseWithZod(form, { schema: importSchema(options.required) });
  const refused = (reason: string, status: number) =>
    failed(submission.reply({ fieldErrors: { importString: [reason] } }), { type: "error", message: M.importFailed, description: reason }, status);
  if (submission.status !== "success") {
    // Past the bound (a page without JavaScript: the dialog's own check stops it in the browser otherwise): 413 and
    // the field's message, the text kept.
    const tooLong = textOf(form, "importString").length > WORKFLOW_LIMITS.importString;
    if (tooLong) return refused(IMPORT_TOO_LONG, 413);
    return json({ ...submission.reply(), toast: null }, { status: 400 });
  }
  const text = submission.value.importString;
  const parsed = parseImportString(options.shape, text);
  if (!parsed.ok) return refused(parsed.message, 400);
  try {
    await options.send(text);
  } catch (error) {
    const explained = isUpstreamError(error) && error.status >= 400 && error.status < 500 && error.status !== 401 && error.status !== 403;
    return refused(explained ? reasonOf(error) : M.importCreationFailed, statusOf(error));
  }
  return options.done();
}
