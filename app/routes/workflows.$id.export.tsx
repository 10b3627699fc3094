import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireRoute } from "~/auth/guard.server";
import { downloadOrBack } from "~/lib/download.server";
import { WORKFLOWS } from "~/workflows/texts";
import { openExport } from "~/workflows/workflows.server";

/**
 * A workflow's export string as a download (spec 3 §2.2, §3: the workflow and its templates, JSON), behind
 * workflows.read. A refusal (the workflow gone, the upstream failing) goes back to the list with 'Export failed'.
 */
export async function loader(args: LoaderFunctionArgs) {
  const { api } = await requireRoute(args);
  const id = args.params.id ?? "";
  return downloadOrBack(args, "/workflows", WORKFLOWS.exportFailed, async () => {
    const upstream = await openExport(api, id);
    const headers = new Headers(upstream.headers);
    headers.set("Content-Disposition", `attachment; filename="workflow-${id.replace(/[^\w-]/g, "")}.json"`);
    return new Response(upstream.body, { status: upstream.status, headers });
  });
}
