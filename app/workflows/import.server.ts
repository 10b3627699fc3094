import { parseWithZod } from "@conform-to/zod";
import { json } from "@remix-run/node";
import type { z } from "zod";
import { WORKFLOW_MESSAGES as M } from "@contract/workflow-constants";
import { parseImportString } from "@contract/workflows";
import { failed, reasonOf, statusOf } from "~/lib/actions.server";
import { isUpstreamError } from "~/lib/upstream.server";
import { importSchema } from "./schema";

/**
 * An import dialog's post (a workflow on the list, a template on a workflow's page), spec 3 §5, §8: the pasted text
 * is checked here first as the upstream checks it (`parseImportString` on `shape`): invalid JSON is 'Import failed' /
 * 'Reason: import string is invalid', a valid string lacking something names what ("Reason: templates.0.title: …").
 * Then `send`; a refusal the upstream explains (4xx) says its reason, any other failure 'Contact our developers or
 * try again later.'. Each failure is the toast and the field's message, the text kept; success is `done()`.
 */
export async function importPost(
  form: FormData,
  options: { shape: z.ZodTypeAny; required: string; send: (importString: string) => Promise<unknown>; done: () => Promise<Response> },
): Promise<Response> {
  const submission = parseWithZod(form, { schema: importSchema(options.required) });
  if (submission.status !== "success") return json({ ...submission.reply(), toast: null }, { status: 400 });
  const text = submission.value.importString;
  const refused = (reason: string, status: number) =>
    failed(submission.reply({ fieldErrors: { importString: [reason] } }), { type: "error", message: M.importFailed, description: reason }, status);
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
