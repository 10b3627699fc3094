import { parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs } from "@remix-run/node";
import { applicationNotFound } from "@contract/portfolio";
import { notFound, requireRoute } from "~/auth/guard.server";
import { bulkAction, isBulkIntent } from "./bulk.server";
import { failed, failureToast, intentOf, isConfirmed, statusOf } from "~/lib/actions.server";
import { readForm, textOf } from "~/lib/form.server";
import { toasts } from "~/lib/toast.server";
import { isUpstreamError, type Api } from "~/lib/upstream.server";
import { parsePortfolioParams, portfolioUrl, searchOnly } from "./params";
import { portfolio } from "./portfolio.server";
import { EditFieldsSchema, addTagSchema } from "./schema";
import { PORTFOLIO } from "./texts";

const T = PORTFOLIO.toasts;

/** Which form an answer belongs to (several forms share the page): its intent and application. */
type PortfolioFormAnswer = { form: "addTag" | "editFields"; applicationId: string };

/** An upstream 404 on a change: the spec's 'Unable to find application with id' (spec 2 §5). */
const notFoundText = (error: unknown, id: string) => (isUpstreamError(error, 404) ? applicationNotFound(id) : null);

/** The tags the application has now (the upstream's word, not the page's): null when it is not there. */
async function currentTags(api: Api, id: string): Promise<string[] | null> {
  try {
    return (await portfolio.get(api, id)).tags.map((t) => t.name);
  } catch (error) {
    if (isUpstreamError(error, 404)) return null;
    throw error;
  }
}

/**
 * /portfolio's action: `addTag`, `removeTag` (with its confirmation step), `editFields` (these need the `portfolio`
 * write permission, from the route table), and the selection's intents (bulk.server.ts). A success goes back to the
 * search it came from (the dialog closed) with the spec's toast; a failure answers the form with what was typed, its
 * messages and the spec's failure toast.
 */
export async function portfolioAction(args: ActionFunctionArgs) {
  const { api, may } = await requireRoute(args);
  const form = await readForm(args.request);
  const params = parsePortfolioParams(new URL(args.request.url).searchParams);
  const back = portfolioUrl(searchOnly(params));
  const flash = toasts(args.context);
  const intent = intentOf(form);
  // The selection's export needs only reading; every other intent changes something.
  if (isBulkIntent(intent)) {
    return bulkAction(intent, form, { api, context: args.context, back, portfolioId: params.portfolio, canWrite: may.write });
  }
  if (!may.write) throw notFound();
  const applicationId = textOf(form, "applicationId").trim();

  if (intent === "removeTag") {
    const tag = textOf(form, "tag");
    if (!isConfirmed(form)) return json({ confirm: "removeTag" as const, applicationId, tag, toast: null });
    try {
      await portfolio.removeTag(api, { applicationId, tag });
    } catch (error) {
      const toast = failureToast(T.removeTagFailed, error);
      const missing = notFoundText(error, applicationId);
      return failed({ confirm: null, applicationId, tag }, missing ? { ...toast, description: missing } : toast, statusOf(error));
    }
    return flash.redirectWithSuccess(back, T.removeTagCompleted);
  }

  if (intent === "addTag") {
    const answer: PortfolioFormAnswer = { form: "addTag", applicationId };
    let existing: string[] | null;
    try {
      existing = applicationId ? await currentTags(api, applicationId) : [];
    } catch (error) {
      const submission = parseWithZod(form, { schema: addTagSchema([]) });
      return failed({ ...submission.reply(), ...answer }, failureToast(T.addTagFailed, error), statusOf(error));
    }
    const submission = parseWithZod(form, { schema: addTagSchema(existing ?? []) });
    if (submission.status !== "success") {
      return json({ ...submission.reply(), ...answer }, { status: submission.status === "error" ? 400 : 200 });
    }
    if (existing === null) {
      const reply = submission.reply({ formErrors: [applicationNotFound(applicationId)] });
      return failed({ ...reply, ...answer }, failureToast(T.addTagFailed, null), 404);
    }
    try {
      await portfolio.addTag(api, submission.value);
    } catch (error) {
      const reply = submission.reply({ formErrors: [notFoundText(error, applicationId) ?? T.addTagFailed] });
      return failed({ ...reply, ...answer }, failureToast(T.addTagFailed, error), statusOf(error));
    }
    return flash.redirectWithSuccess(back, T.addTagCompleted);
  }

  if (intent === "editFields" || form.has("__intent__")) {
    const answer: PortfolioFormAnswer = { form: "editFields", applicationId };
    const submission = parseWithZod(form, { schema: EditFieldsSchema });
    // conform's list intents (Add product, Remove product) answer the form as changed, without JavaScript too.
    if (submission.status !== "success") {
      return json({ ...submission.reply(), ...answer }, { status: submission.status === "error" ? 400 : 200 });
    }
    const v = submission.value;
    try {
      await portfolio.editFields(api, {
        applicationId: v.applicationId,
        aiSummary: v.aiSummary ?? "",
        broadScore: v.broadScore ?? null,
        detectableScore: v.detectableScore ?? null,
        products: v.products ?? [],
      });
    } catch (error) {
      const reply = submission.reply({ formErrors: [notFoundText(error, applicationId) ?? T.editFieldsFailed] });
      return failed({ ...reply, ...answer }, failureToast(T.editFieldsFailed, error), statusOf(error));
    }
    return flash.redirectWithSuccess(back, T.editFieldsCompleted);
  }

  return json({ message: "Unknown action." }, { status: 400 });
}
