/**
 * A milestone template's history (spec 3 §2.6): its revisions from the upstream (GET …/milestones/{m}/revisions,
 * newest first) and its draft, as the history dropdown's lines.
 */
import { z } from "zod";
import type { MilestoneTemplate } from "@contract/milestone-templates";
import { RevisionSummary } from "@contract/versions";
import type { Api } from "~/lib/upstream.server";
import { VERSIONS } from "./texts";
import type { HistoryEntry } from "./versions";
import { historyEntries } from "./versions.server";

/** A template revision preview's address: the editor's, then `/revisions/{n}`. */
export const revisionHref = (editorUrl: string, n: number) => `${editorUrl}/revisions/${n}`;

/**
 * The history of the template at `base` (its upstream path) for a page at `editorUrl` showing `shown`: the draft
 * leads to the editor (which shows it), each revision to its read-only preview.
 */
export async function templateHistory(
  api: Api,
  base: string,
  { template, draft }: { template: MilestoneTemplate; draft: MilestoneTemplate | null },
  timeZone: string,
  editorUrl: string,
  shown: "draft" | "current" | number,
): Promise<HistoryEntry[]> {
  // A draft that is itself a new template has no revision yet: its only line is the draft.
  const summaries = template.type === "draft" ? [] : await api.get(z.array(RevisionSummary), `${base}/revisions`);
  return historyEntries({
    summaries,
    draft: draft ?? (template.type === "draft" ? template : null),
    currentStatus: template.active ? VERSIONS.status.online : VERSIONS.status.offline,
    timeZone,
    draftHref: editorUrl,
    revisionHref: (n) => revisionHref(editorUrl, n),
    shown,
  });
}
