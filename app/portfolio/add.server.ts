import { parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs } from "@remix-run/node";
import type { ApplicationCreate } from "@contract/portfolio";
import { requireWrite } from "~/auth/guard.server";
import { failed, failureToast, reasonOf, statusOf } from "~/lib/actions.server";
import { readForm } from "~/lib/form.server";
import { toasts } from "~/lib/toast.server";
import { portfolio } from "./portfolio.server";
import { NewApplicationSchema } from "./schema";
import { PORTFOLIO } from "./texts";

/**
 * 'New Application' (spec 2 §2, §5): the JSON must parse and hold a non-empty string id; it is created through
 * POST /api/applications, then /portfolio with 'Create completed'. Anything refused keeps the text typed, with the
 * spec's failure text and the reason (the upstream's 400/409 message naming the field).
 */
export async function addApplicationAction(args: ActionFunctionArgs) {
  const { api } = await requireWrite(args);
  const form = await readForm(args.request);
  const submission = parseWithZod(form, { schema: NewApplicationSchema });
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  const body = JSON.parse(submission.value.application) as ApplicationCreate;
  try {
    await portfolio.create(api, body);
  } catch (error) {
    // A form-level error: the text itself may be fine (a 409, an outage), so Save stays usable at once.
    const reply = submission.reply({ formErrors: [PORTFOLIO.validation.createFailed, reasonOf(error)] });
    return failed(reply, failureToast(PORTFOLIO.toasts.createFailed, error), statusOf(error));
  }
  // The list opens newest first: the new application leads it.
  return toasts(args.context).redirectWithSuccess("/portfolio", PORTFOLIO.toasts.created);
}
