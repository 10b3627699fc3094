import { blobBytes } from "../../upstream/src/lib/multipart";
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import type { OrganizationOption } from "@contract/organizations";
import { CSV_IMPORT_LIMITS, PUBLIC_PORTFOLIO, type ImportJob } from "@contract/portfolio";
import { requireRoute, requireWrite } from "~/auth/guard.server";
import { failureToast, rethrowResponse, statusOf } from "~/lib/actions.server";
import { fileField, readForm, textOf, type UploadRule } from "~/lib/form.server";
import { isUpstreamError } from "~/lib/upstream.server";
import type { ToastData } from "~/ui/toast";
import { portfolio } from "./portfolio.server";
import { PORTFOLIO } from "./texts";

const I = PORTFOLIO.import;

/** The upload rule of Upload CSV (the request guard bounds the whole body: server/guard.ts PAGE_UPLOAD_LIMITS). */
const CSV_UPLOAD: UploadRule = {
  maxBytes: CSV_IMPORT_LIMITS.bytes,
  tooLarge: I.tooLarge,
  missing: I.noFile,
  name: /\.csv$/i,
  wrongType: I.notCsv,
};

/** Rejected rows shown on the page (all of them are in the download). */
const REJECTED_ON_PAGE = 500;

type JobView = Omit<ImportJob, "rejected" | "updatedIds"> & { rejected: ImportJob["rejected"]; toast: ToastData | null };

function jobView(job: ImportJob): JobView {
  const toast: ToastData | null =
    job.status === "completed"
      ? { type: "success", message: PORTFOLIO.toasts.importCompleted(job.updated) }
      : job.status === "failed"
        ? { type: "error", message: PORTFOLIO.toasts.importFailed, description: job.error ?? undefined }
        : null;
  const { updatedIds: _ids, ...rest } = job;
  return { ...rest, rejected: job.rejected.slice(0, REJECTED_ON_PAGE), toast };
}

/** Upload CSV (spec 2 §2): the form and the documented columns; with `?job=` the import's progress and report. */
export async function importLoader(args: LoaderFunctionArgs) {
  const { api } = await requireRoute(args);
  const jobId = new URL(args.request.url).searchParams.get("job");
  const organizations: OrganizationOption[] = await portfolio.organizations(api).catch((error: unknown) => {
    rethrowResponse(error);
    return [];
  });
  if (!jobId) return json({ organizations, job: null, jobMissing: false });
  try {
    return json({ organizations, job: jobView(await portfolio.importJob(api, jobId)), jobMissing: false });
  } catch (error) {
    if (!isUpstreamError(error, 404) && !isUpstreamError(error, 400)) throw error;
    return json({ organizations, job: null, jobMissing: true }, { status: 404 });
  }
}

/**
 * Posts the file (multipart) to the upstream (base64, POST /api/applications/csv), which imports it in the background;
 * the page then shows that job's progress at its own address (`?job=`), reload-safe.
 */
export async function importAction(args: ActionFunctionArgs) {
  const { api } = await requireWrite(args);
  const form = await readForm(args.request);
  const upload = fileField(form, "file", CSV_UPLOAD);
  const portfolioId = textOf(form, "portfolio") || PUBLIC_PORTFOLIO;
  if (upload.error !== null) {
    return json({ fileError: upload.error, toast: null }, { status: upload.reason === "tooLarge" ? 413 : 400 });
  }
  try {
    const job = await portfolio.importCsv(api, await blobBytes(upload.file), portfolioId);
    return redirect(`/portfolio/import?${new URLSearchParams({ job: job.id })}`);
  } catch (error) {
    const fileError = isUpstreamError(error) && error.status < 500 ? error.message : PORTFOLIO.toasts.importFailed;
    return json({ fileError, toast: failureToast(PORTFOLIO.toasts.importFailed, error) }, { status: statusOf(error) });
  }
}
