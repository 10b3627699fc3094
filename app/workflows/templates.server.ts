import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { TemplateExport } from "@contract/milestone-templates";
import { requireRoute, requireWrite } from "~/auth/guard.server";
import { failed, failureToast, intentOf, isConfirmed, statusOf } from "~/lib/actions.server";
import { readForm, textOf } from "~/lib/form.server";
import { formatDateTime } from "~/lib/format";
import { orNotFound } from "~/lib/resource.server";
import { toasts } from "~/lib/toast.server";
import { DIALOG_PARAMS, pageAddress } from "./addresses";
import { importPost } from "./import.server";
import { TEMPLATES } from "./texts";
import { contractsOf, importTemplate, setTemplateActive, templatesOf, workflows } from "./workflows.server";

const T = TEMPLATES;

/**
 * A workflow's milestone templates (spec 3 §2.3): the workflow, its templates sorted by title in the active and the
 * inactive group (drafts that are new templates count as inactive), each with its labels, its creation event's name
 * from the contracts and its uniqueness; whether the import dialog is open.
 */
export async function templatesLoader(args: LoaderFunctionArgs) {
  const { api, may, timeZone } = await requireRoute(args);
  const id = args.params.id ?? "";
  const url = new URL(args.request.url);
  const [workflow, templates, contracts] = await Promise.all([workflows.getOr404(api, id), orNotFound(templatesOf(api, id)), contractsOf(api)]);
  const eventNames = new Map(contracts.eventSources.flatMap((s) => s.events.map((e) => [e.code, e.name] as const)));
  const cards = templates
    .map((t) => {
      const creation = t.events.find((e) => e.type === "create");
      return {
        id: t.id,
        title: t.title,
        editor: `/workflows/${id}/milestones/${t.id}`,
        active: t.type === "template" && t.active,
        isDraft: t.type === "draft",
        hasDraft: t.hasDraft,
        hidden: t.hidden,
        uniqueness: T.uniquenessLabels[t.uniqueness],
        event: creation ? (eventNames.get(creation.code) ?? creation.code) : null,
        tags: t.tags,
        updatedAt: formatDateTime(t.updatedAt, timeZone),
        updatedBy: t.updatedBy,
      };
    })
    .sort((a, b) => a.title.localeCompare(b.title, "en-US", { sensitivity: "base" }) || a.id.localeCompare(b.id));
  return json({
    workflow: { id: workflow.id, title: workflow.title },
    active: cards.filter((c) => c.active),
    inactive: cards.filter((c) => !c.active),
    importOpen: may.write && url.searchParams.has(DIALOG_PARAMS.import),
    may,
  });
}

export type TemplateCardData = Awaited<ReturnType<Awaited<ReturnType<typeof templatesLoader>>["json"]>>["active"][number];

/**
 * The page's posts, behind `workflows`: Activate / Suspend with its confirmation ('Activate template' / 'Deactivate
 * template'; never for drafts, which the upstream refuses too), and Import from the 'Paste import string' dialog.
 */
export async function templatesAction(args: ActionFunctionArgs) {
  const { api } = await requireWrite(args);
  const workflowId = args.params.id ?? "";
  const form = await readForm(args.request);
  const url = new URL(args.request.url);
  const back = pageAddress(url.pathname, url.searchParams);
  const flash = toasts(args.context);
  const intent = intentOf(form);

  if (intent === "toggle") {
    const template = textOf(form, "template");
    const to = textOf(form, "to");
    if (!template || (to !== "activate" && to !== "deactivate")) return json({ toast: null }, { status: 400 });
    if (!isConfirmed(form)) return json({ confirm: "toggle" as const, template, toast: null });
    try {
      const t = await setTemplateActive(api, workflowId, template, to === "activate");
      return flash.redirectWithSuccess(back, to === "activate" ? T.activated(t.title) : T.deactivated(t.title));
    } catch (error) {
      return failed({ confirm: null, template }, failureToast(T.toggleFailed, error), statusOf(error));
    }
  }

  if (intent === "import") {
    return importPost(form, {
      shape: TemplateExport,
      required: T.importRequired,
      send: (text) => importTemplate(api, workflowId, text),
      done: () => flash.redirectWithSuccess(back, { message: T.importSuccessful, description: T.importMilestoneCreated }),
    });
  }

  return json({ toast: null }, { status: 400 });
}
