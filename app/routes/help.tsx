import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { notFound, requireUser } from "~/auth/guard.server";
import { feedbackUrl } from "~/lib/feedback.server";

/** The help button's target: the feedback board's URL that the upstream answers (spec 1 §7). */
export async function loader(args: LoaderFunctionArgs) {
  const { api } = await requireUser(args);
  const url = await feedbackUrl(api);
  if (!url) throw notFound();
  return redirect(url);
}
