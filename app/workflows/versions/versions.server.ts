/**
 * The versions kit's server side for a page (docs/decisions/versions-kit.md): the versions a loaded page sends back
 * with its saves, read again from the posted form.
 */
import { BaseVersion, type RevisionSummary } from "@contract/versions";
import { formatDateTime } from "~/lib/format";
import { VERSIONS } from "./texts";
import type { HistoryEntry, PageVersions } from "./versions";

/** What a versioned document's answers carry: the page's versions come from them. */
type Versioned = { type: string; revision: number; version?: number | undefined };

/**
 * The versions a page showing `current` (and its `draft`, if any) sends back: a draft's commit is based on the
 * revision the draft began from and names the draft's version; without a draft, on the current document's version.
 */
export function pageVersions(current: Versioned, draft: Versioned | null): PageVersions {
  if (draft) return { base: draft.revision, ...(draft.version !== undefined ? { draft: draft.version } : {}) };
  return current.version !== undefined ? { base: current.version } : {};
}

const versionField = (form: FormData, name: string): number | undefined => {
  const raw = form.get(name);
  if (typeof raw !== "string" || raw === "") return undefined;
  const parsed = BaseVersion.safeParse(Number(raw));
  return parsed.success ? parsed.data : undefined;
};

/** The versions a save form sent (hidden fields of VersionFields); none for a client that sends none. */
export const sentVersions = (form: FormData): PageVersions => {
  const base = versionField(form, "baseVersion");
  const draft = versionField(form, "draftVersion");
  return { ...(base !== undefined ? { base } : {}), ...(draft !== undefined ? { draft } : {}) };
};

/**
 * The draft version a draft save or discard is based on: the draft's version the page showed (`draftVersion`), or 0
 * when it showed none (`baseVersion` alone: it expects no draft). A post without versions is unconditional.
 */
export function sentDraftBase(form: FormData): number | undefined {
  const sent = sentVersions(form);
  if (sent.draft !== undefined) return sent.draft;
  return sent.base !== undefined ? 0 : undefined;
}

/** The part of an author's address before the @ (spec 3 §2.6 history). */
export const authorName = (email: string | null | undefined): string | null => {
  if (!email) return null;
  const at = email.indexOf("@");
  return at >= 0 ? email.slice(0, at) : email;
};

type Draftish = { updatedAt: string; updatedBy: string | null; author?: string | null; commitMessage?: string };

/**
 * The history dropdown's lines, newest first (spec 3 §2.6): the draft, if any, then the revisions (the summaries come
 * newest first). Dates in the user's time zone; `shown` marks the version the page shows.
 */
export function historyEntries(args: {
  summaries: readonly RevisionSummary[];
  draft: Draftish | null;
  /** The current revision's status (a template's ONLINE or OFFLINE). */
  currentStatus: string;
  timeZone: string;
  draftHref: string;
  revisionHref: (n: number) => string;
  shown: "draft" | "current" | number;
}): HistoryEntry[] {
  const { summaries, draft, currentStatus, timeZone, shown } = args;
  const entries: HistoryEntry[] = [];
  if (draft) {
    entries.push({
      key: "draft",
      label: VERSIONS.draft,
      status: VERSIONS.status.draft,
      date: formatDateTime(draft.updatedAt, timeZone),
      author: authorName(draft.author ?? draft.updatedBy) ?? VERSIONS.unknownAuthor,
      message: draft.commitMessage || VERSIONS.noMessage,
      href: args.draftHref,
      shown: shown === "draft",
    });
  }
  for (const r of summaries) {
    entries.push({
      key: String(r.revision),
      label: VERSIONS.revision(r.revision),
      status: r.current ? currentStatus : VERSIONS.status.past,
      date: formatDateTime(r.createdAt, timeZone),
      author: authorName(r.author) ?? VERSIONS.unknownAuthor,
      message: r.commitMessage || VERSIONS.noMessage,
      href: args.revisionHref(r.revision),
      shown: shown === r.revision || (shown === "current" && r.current),
    });
  }
  return entries;
}
