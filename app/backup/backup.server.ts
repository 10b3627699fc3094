import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { ImportResult, LastImport } from "@contract/template-storage";
import { can } from "@contract/permissions";
import { notFound, requireRoute, requireUser, requireWrite } from "~/auth/guard.server";
import { failed, failureToast, statusOf } from "~/lib/actions.server";
import { streamDownload } from "~/lib/download.server";
import { formatDateTime } from "~/lib/format";
import { readForm, textOf } from "~/lib/form.server";
import { orNotFound } from "~/lib/resource.server";
import { toasts } from "~/lib/toast.server";
import { BACKUP } from "./texts";

/** The screen: the last import (what it restored) and whether this user may import. */
export async function backupLoader(args: LoaderFunctionArgs) {
  const { api, may, timeZone } = await requireRoute(args);
  const { last } = await api.get(LastImport, "/api/template-storage/import");
  return { may, last: last ? { at: formatDateTime(last.importedAt, timeZone), summary: BACKUP.summary(last) } : null };
}

/** The archive, streamed from the upstream (administration.read). */
export async function exportLoader(args: LoaderFunctionArgs) {
  const { api, identity } = await requireUser(args);
  if (!can(identity.permissions, "administration.read")) throw notFound();
  return orNotFound(api.raw("GET", "/api/template-storage/export-url").then(streamDownload));
}

/** Import (administration): the file and the replace confirmation, then the upstream's checked restore. */
export async function importAction(args: ActionFunctionArgs) {
  const { api } = await requireWrite(args);
  const form = await readForm(args.request);
  const file = form.get("file");
  const errors: Record<string, string[]> = {};
  if (!(file instanceof File) || file.size === 0 || !file.name) errors.file = [BACKUP.validation.fileRequired];
  if (textOf(form, "replace") !== "yes") errors.replace = [BACKUP.replaceRequired];
  if (Object.keys(errors).length) return json({ errors, toast: null }, { status: 400 });
  const body = new FormData();
  body.set("file", file as File, (file as File).name);
  try {
    const result = await api.post(ImportResult, "/api/template-storage/import", body);
    return toasts(args.context).redirectWithSuccess("/administration/template-storage", {
      message: BACKUP.toasts.imported,
      description: BACKUP.summary(result),
    });
  } catch (error) {
    return failed({ errors: { file: [statusOf(error) < 500 ? (error as Error).message : BACKUP.toasts.importFailed] } }, failureToast(BACKUP.toasts.importFailed, error), statusOf(error));
  }
}
