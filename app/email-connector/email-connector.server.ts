import { parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import {
  EMAIL_CONNECTOR_PATH,
  MaintenanceSettings,
  type MaintenanceSettingsUpdate,
} from "@contract/email-connector";
import { requireRoute, requireWrite } from "~/auth/guard.server";
import { failed, failureToast, statusOf } from "~/lib/actions.server";
import { readForm } from "~/lib/form.server";
import { formatDateTime } from "~/lib/format";
import { toasts } from "~/lib/toast.server";
import { EmailConnectorSchema } from "./schema";
import { EMAIL_CONNECTOR } from "./texts";

/** GET /emails-connector: the settings (administration.read) and whether they may be saved (administration). */
export async function emailConnectorLoader(args: LoaderFunctionArgs) {
  const { api, may, timeZone } = await requireRoute(args);
  const settings = await api.get(MaintenanceSettings, EMAIL_CONNECTOR_PATH);
  return {
    settings,
    saved: settings.updatedAt ? EMAIL_CONNECTOR.lastSaved(formatDateTime(settings.updatedAt, timeZone), settings.updatedBy) : null,
    may,
  };
}

/** POST /emails-connector: validate, save, 'Update completed'; a failure keeps the input with 'Update failed'. */
export async function emailConnectorAction(args: ActionFunctionArgs) {
  const { api } = await requireWrite(args);
  const submission = parseWithZod(await readForm(args.request), { schema: EmailConnectorSchema });
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  try {
    const body: MaintenanceSettingsUpdate = submission.value;
    await api.post(MaintenanceSettings, EMAIL_CONNECTOR_PATH, body);
  } catch (error) {
    const reply = submission.reply({ formErrors: [EMAIL_CONNECTOR.inline.saveFailed] });
    return failed(reply, failureToast(EMAIL_CONNECTOR.toasts.updateFailed, error), statusOf(error));
  }
  return toasts(args.context).redirectWithSuccess("/emails-connector", EMAIL_CONNECTOR.toasts.updated);
}
