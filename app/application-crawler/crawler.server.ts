import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import {
  INSTALLER_NAME,
  INSTALLER_PATH,
  InstallerAnswer,
  InstallerVersion,
  MAX_INSTALLER_BYTES,
} from "@contract/application-crawler";
import { requireRoute, requireWrite } from "~/auth/guard.server";
import { failed, failureToast, intentOf, isConfirmed, reasonOf, statusOf } from "~/lib/actions.server";
import { streamDownload } from "~/lib/download.server";
import { fileField, readForm, textOf } from "~/lib/form.server";
import { formatBytes, formatDateTime } from "~/lib/format";
import { orNotFound } from "~/lib/resource.server";
import { toasts } from "~/lib/toast.server";
import { APPLICATION_CRAWLER } from "./texts";

const T = APPLICATION_CRAWLER;

/** GET /applications (applications.read): the installer as the card shows it, and whether it may be replaced. */
export async function applicationsLoader(args: LoaderFunctionArgs) {
  const { api, may, timeZone } = await requireRoute(args);
  const { installer } = await api.get(InstallerAnswer, INSTALLER_PATH);
  return {
    installer: installer && {
      name: installer.name,
      sha256: installer.sha256,
      details: T.crawler.details(installer.version, formatBytes(installer.size)),
      uploaded: T.crawler.uploaded(formatDateTime(installer.uploadedAt, timeZone), installer.uploadedBy),
    },
    may,
  };
}

export type UploadErrors = { file?: string[]; version?: string[]; form?: string[] };

/**
 * POST /applications (administration): `intent=upload` (multipart: file and version) stores a new installer,
 * 'Update completed'; `intent=delete` removes it after the confirmation step, 'Delete completed'.
 */
export async function applicationsAction(args: ActionFunctionArgs) {
  const { api } = await requireWrite(args);
  const form = await readForm(args.request);
  if (intentOf(form) === "delete") {
    if (!isConfirmed(form)) return json({ confirm: "delete" as const });
    try {
      await api.send("DELETE", INSTALLER_PATH);
    } catch (error) {
      return failed({}, failureToast(T.toasts.deleteFailed, error), statusOf(error));
    }
    return toasts(args.context).redirectWithSuccess("/applications", T.toasts.deleted);
  }
  const version = InstallerVersion.safeParse(textOf(form, "version"));
  const file = fileField(form, "file", {
    maxBytes: MAX_INSTALLER_BYTES,
    missing: T.validation.fileRequired,
    tooLarge: T.validation.tooLarge,
    name: INSTALLER_NAME,
    wrongType: T.validation.wrongType,
  });
  const errors: UploadErrors = {};
  if (!version.success) errors.version = [version.error.issues[0]!.message];
  if (file.error !== null) errors.file = [file.error];
  const values = { version: textOf(form, "version") };
  if (!version.success || file.file === null) return json({ errors, values, toast: null }, { status: 400 });
  const upload = new FormData();
  upload.set("version", version.data);
  upload.set("file", file.file, file.file.name);
  try {
    await api.put(InstallerAnswer, INSTALLER_PATH, upload);
  } catch (error) {
    const failure = { errors: { form: [reasonOf(error)] }, values };
    return failed(failure, failureToast(T.toasts.updateFailed, error), statusOf(error));
  }
  return toasts(args.context).redirectWithSuccess("/applications", T.toasts.updated);
}

/** GET /applications/installer (applications.read): the installer's bytes, streamed; not found without one. */
export async function installerDownload(args: LoaderFunctionArgs) {
  const { api } = await requireRoute(args);
  return orNotFound(api.raw("GET", `${INSTALLER_PATH}/file`).then(streamDownload));
}
