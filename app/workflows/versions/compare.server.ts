/**
 * A template's compare page (spec 3 §2.6 compare mode, without JavaScript a page of its own): the current template
 * against its draft or revision N, as the differ's named changes and the two graphs' pictures, what was removed marked
 * on the current one and what was added on the other. The differ is the pure one the upstream's compare serves.
 */
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { MilestoneTemplate } from "@contract/milestone-templates";
import { diffTemplates, pathKey } from "@contract/template-diff";
import { VersionRefParam } from "@contract/versions";
import { notFound, requireRoute } from "~/auth/guard.server";
import { orNotFound } from "~/lib/resource.server";
import type { PictureMarks } from "../editor/GraphPicture";
import { documentOf, editorPath, templatePath } from "../editor/editor.server";
import { workflows } from "../workflows.server";
import { VERSIONS } from "./texts";

function marksOf(doc: { paths: readonly MilestoneTemplate["paths"][number][] }, steps: readonly string[], paths: readonly string[], mark: "added" | "removed"): PictureMarks {
  const inPaths = new Set(paths);
  return { steps: Object.fromEntries(steps.map((id) => [id, mark])), paths: doc.paths.map((p) => (inPaths.has(pathKey(p)) ? mark : null)) };
}

export async function compareLoader(args: LoaderFunctionArgs) {
  const { api } = await requireRoute(args);
  const workflowId = args.params.id ?? "";
  const templateId = args.params.milestoneId ?? "";
  const to = VersionRefParam.safeParse(new URL(args.request.url).searchParams.get("to") ?? "draft");
  if (!to.success || to.data === "current") throw notFound();
  const base = templatePath(workflowId, templateId);
  const [workflow, template] = await Promise.all([workflows.getOr404(api, workflowId), orNotFound(api.get(MilestoneTemplate, base))]);
  const other = await orNotFound(api.get(MilestoneTemplate, to.data === "draft" ? `${base}/draft` : `${base}/revisions/${to.data}`));
  const [before, after] = [documentOf(template), documentOf(other)];
  const diff = diffTemplates(before, after);
  return json({
    workflow: { id: workflow.id, title: workflow.title },
    template: { id: template.id, title: template.title },
    editor: editorPath(workflowId, templateId),
    labels: { current: VERSIONS.current(template.revision), other: to.data === "draft" ? VERSIONS.draft : VERSIONS.revision(to.data) },
    changes: diff.changes,
    current: { steps: before.steps, paths: before.paths, marks: marksOf(before, diff.steps.removed, diff.paths.removed, "removed") },
    other: { steps: after.steps, paths: after.paths, marks: marksOf(after, diff.steps.added, diff.paths.added, "added") },
  });
}

export type CompareData = Awaited<ReturnType<Awaited<ReturnType<typeof compareLoader>>["json"]>>;
