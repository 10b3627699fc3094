/**
 * The versions kit's server side for a page (docs/decisions/versions-kit.md): the versions a loaded page sends back
 * with its saves, read again from the posted form.
 */
import { BaseVersion } from "@contract/versions";
import type { PageVersions } from "./versions";

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
