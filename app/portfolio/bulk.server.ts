import { json, redirect, type AppLoadContext } from "@remix-run/node";
import { APPLICATION_LIMITS, TagName, TagScore } from "@contract/portfolio";
import { notFound } from "~/auth/guard.server";
import { failureToast, isConfirmed, reasonOf } from "~/lib/actions.server";
import { textOf } from "~/lib/form.server";
import { toasts } from "~/lib/toast.server";
import { isUpstreamError, type Api } from "~/lib/upstream.server";
import { SELECTION_LIMIT } from "./params";
import { portfolio } from "./portfolio.server";
import { PORTFOLIO } from "./texts";

const S = PORTFOLIO.selection;
const T = PORTFOLIO.toasts;

const BULK_INTENTS = ["bulkAddTag", "bulkRemoveTag", "bulkExport"] as const;
export type BulkIntent = (typeof BULK_INTENTS)[number];
export const isBulkIntent = (intent: string): intent is BulkIntent => (BULK_INTENTS as readonly string[]).includes(intent);

/**
 * What the selection form is answered with when it cannot go on (nothing ticked, too many, a bad tag) or asks for the
 * remove confirmation: the ticked ids and the tag come back, so the page shows them as they were.
 */
export type BulkAnswer = {
  bulk: true;
  ids: string[];
  tag: string;
  score: string;
  error: string | null;
  confirm: "bulkRemoveTag" | null;
};

/** The ticked ids: trimmed, each once, each within the id's bound (others are no application: left out). */
function idsOf(form: FormData): string[] {
  const ids: string[] = [];
  for (const raw of form.getAll("ids")) {
    if (typeof raw !== "string") continue;
    const id = raw.trim();
    if (id && id.length <= APPLICATION_LIMITS.id && !ids.includes(id)) ids.push(id);
    // Bounded before any work: a forged post cannot make the loop below run long.
    if (ids.length > SELECTION_LIMIT) break;
  }
  return ids;
}

/**
 * The selection's intents on /portfolio: add or remove one tag on every ticked application (removing needs its
 * confirmation step), or export them as CSV (POST /api/search/advanced/csv with an ids query, then the download's
 * link). At most SELECTION_LIMIT applications: one upstream change each, in turn, so a post is bounded work.
 * `back` is the search the page shows; `canWrite` whether the user may change tags (export needs only reading).
 */
export async function bulkAction(
  intent: BulkIntent,
  form: FormData,
  { api, context, back, portfolioId, canWrite }: { api: Api; context: AppLoadContext; back: string; portfolioId: string; canWrite: boolean },
) {
  if (intent !== "bulkExport" && !canWrite) throw notFound();
  const ids = idsOf(form);
  const tag = textOf(form, "tag");
  const score = textOf(form, "score");
  const answer = (error: string | null, status: number, confirm: BulkAnswer["confirm"] = null) =>
    json({ bulk: true, ids: ids.slice(0, SELECTION_LIMIT), tag, score, error, confirm } satisfies BulkAnswer, { status });
  if (ids.length === 0) return answer(S.none, 400);
  if (ids.length > SELECTION_LIMIT) return answer(S.tooMany(SELECTION_LIMIT), 400);

  if (intent === "bulkExport") {
    try {
      const token = await portfolio.startAdvancedExport(api, { query: { ids: { values: ids } }, size: ids.length }, portfolioId);
      return redirect(`/portfolio/csv?${new URLSearchParams({ export: token })}`);
    } catch (error) {
      const toast = failureToast(T.exportFailed, error);
      return toasts(context).redirectWithError(back, { message: toast.message, description: toast.description });
    }
  }

  const name = TagName.safeParse(tag);
  if (!name.success) return answer(name.error.issues[0]!.message, 400);
  const adding = intent === "bulkAddTag";
  const parsedScore = TagScore.safeParse(score.trim() === "" ? undefined : Number(score));
  if (adding && !parsedScore.success) return answer(parsedScore.error.issues[0]!.message, 400);
  if (!adding && !isConfirmed(form)) return answer(null, 200, "bulkRemoveTag");

  // Not there (deleted since, or without the tag to remove): nothing to change on that one. Any other refusal (no
  // permission, a full disk) would refuse the rest too: it stops there, and the toast names what was not done.
  const unchanged: string[] = [];
  let changed = 0;
  let failure: unknown = null;
  for (const [i, applicationId] of ids.entries()) {
    try {
      if (adding) await portfolio.addTag(api, { applicationId, tag: name.data, score: parsedScore.data ?? 0 });
      else await portfolio.removeTag(api, { applicationId, tag: name.data });
      changed++;
    } catch (error) {
      if (isUpstreamError(error, 404)) {
        unchanged.push(applicationId);
        continue;
      }
      failure = error;
      unchanged.push(...ids.slice(i));
      break;
    }
  }
  const title = adding ? T.addTagCompleted : T.removeTagCompleted;
  const flash = toasts(context);
  if (failure !== null && changed === 0) {
    const toast = failureToast(adding ? T.addTagFailed : T.removeTagFailed, failure);
    return flash.redirectWithError(back, { message: toast.message, description: toast.description });
  }
  if (unchanged.length) {
    const why = failure !== null ? ` ${reasonOf(failure)}` : "";
    return flash.redirectWithWarning(back, { message: title, description: `${S.changed(changed)} ${S.unchanged(unchanged)}${why}` });
  }
  return flash.redirectWithSuccess(back, { message: title, description: S.changed(changed) });
}
