import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireRoute } from "~/auth/guard.server";
import { downloadOrBack } from "~/lib/download.server";
import { editorPath, openTemplateExport } from "~/workflows/editor/editor.server";
import { EDITOR } from "~/workflows/editor/texts";

/**
 * One template's export string as a download (the editor's Export template, spec 3 §2.6), behind workflows.read. A
 * refusal goes back to the editor with 'Export failed'.
 */
export async function loader(args: LoaderFunctionArgs) {
  const { api } = await requireRoute(args);
  const workflowId = args.params.id ?? "";
  const templateId = args.params.milestoneId ?? "";
  return downloadOrBack(args, editorPath(workflowId, templateId), EDITOR.exportFailed, async () => {
    const upstream = await openTemplateExport(api, workflowId, templateId);
    const headers = new Headers(upstream.headers);
    headers.set("Content-Disposition", `attachment; filename="template-${templateId.replace(/[^\w-]/g, "")}.json"`);
    return new Response(upstream.body, { status: upstream.status, headers });
  });
}
