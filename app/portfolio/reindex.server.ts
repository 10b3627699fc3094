import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import type { ReindexJob } from "@contract/portfolio";
import { requireRoute, requireWrite } from "~/auth/guard.server";
import { failed, failureToast, statusOf } from "~/lib/actions.server";
import { formatDateTime } from "~/lib/format";
import { readForm, textOf } from "~/lib/form.server";
import { isUpstreamError } from "~/lib/upstream.server";
import { REINDEX } from "./reindex-texts";

/** How often a running reindex is asked again (with JavaScript; without it the page refreshes itself as often). */
const REINDEX_POLL_MS = 1500;
const PATH = "/api/applications/reindex";
const Job = z.unknown().transform((value) => value as ReindexJob);

/** The job as the screen shows it: status, counts, dates in the reader's zone. */
function view(job: ReindexJob, timeZone: string) {
  return {
    status: job.status,
    processed: job.processed,
    total: job.total,
    error: job.error,
    startedAt: formatDateTime(job.startedAt, timeZone),
    finishedAt: job.finishedAt ? formatDateTime(job.finishedAt, timeZone) : null,
  };
}

/** The latest reindex since the upstream started (none: null), and whether this user may start one. */
export async function reindexLoader(args: LoaderFunctionArgs) {
  const { api, may, timeZone } = await requireRoute(args);
  try {
    return json({ may, job: view(await api.get(Job, PATH), timeZone), pollMs: REINDEX_POLL_MS });
  } catch (error) {
    if (!isUpstreamError(error, 404)) throw error;
    return json({ may, job: null, pollMs: REINDEX_POLL_MS });
  }
}

/** Starts a reindex (one at a time upstream: a second start answers the running one), then shows its progress. */
export async function reindexAction(args: ActionFunctionArgs) {
  const { api } = await requireWrite(args);
  const form = await readForm(args.request);
  if (textOf(form, "intent") !== "reindex") return json({ toast: null }, { status: 400 });
  try {
    await api.post(Job, PATH, {});
  } catch (error) {
    return failed({}, failureToast(REINDEX.toasts.failed, error), statusOf(error));
  }
  return redirect("/portfolio/reindex");
}
