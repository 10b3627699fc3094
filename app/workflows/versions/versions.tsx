/**
 * The versions kit's browser side (docs/decisions/versions-kit.md): the versions a page's saves send back, and what a
 * stale save's answer means to the page. Shared by every versioned document's editor (milestone templates now).
 */
import type { ShouldRevalidateFunction } from "@remix-run/react";

/**
 * What a page was loaded with, sent back by its saves: `base` is the version a commit starts from (the current
 * document's, or the revision its draft began from), `draft` the draft's own version when the page shows a draft.
 */
export type PageVersions = { base?: number; draft?: number };

/** One line of the history dropdown: its status, date (formatted), author (before the @), message and where it leads. */
export type HistoryEntry = { key: string; label: string; status: string; date: string; author: string; message: string; href: string; shown: boolean };

/** The hidden fields of a save form carrying the page's versions. */
export function VersionFields({ versions }: { versions: PageVersions }) {
  return (
    <>
      {versions.base !== undefined ? <input type="hidden" name="baseVersion" value={versions.base} /> : null}
      {versions.draft !== undefined ? <input type="hidden" name="draftVersion" value={versions.draft} /> : null}
    </>
  );
}

/** An action's answer to a save refused as stale (409): the page keeps what the user has, unsaved work included. */
export const isStale = (reply: unknown): boolean => !!reply && typeof reply === "object" && "stale" in reply && reply.stale === true;

/**
 * Keeps the page as it is after a stale save: reloading it would replace the canvas's unsaved document with the one
 * saved meanwhile. The user reads the 409's text, and compares or reloads on purpose. Export it as the route's
 * `shouldRevalidate`.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) =>
  isStale(actionResult) ? false : defaultShouldRevalidate;
