/**
 * The chain page's toolbar (spec 3 §2.9): the version view (the draft, the history), compare, export, import, and
 * 'Save new version' (the draft committed, with a comment, after 'Save new version?').
 * Links and server pages, so each works without JavaScript; with it, Export copies the JSON at once and Import opens a
 * dialog. Running the chain and cancelling its stream join here with runs.
 */
import { Link } from "@remix-run/react";
import { ConfirmAction } from "~/ui/confirm";
import { useHydrated } from "~/ui/hydrated";
import { CHAIN_VERSIONS as V } from "../versions/texts";
import { CommentField } from "../versions/VersionView";
import type { VersionReply } from "../versions/versions.server";
import { chainUrl, versionUrl } from "../versions/urls";
import { ExportButton } from "./CopyExport";
import { ImportButton } from "./ImportForm";
import { UnsavedChanges } from "./UnsavedChanges";

export function ChainToolbar({
  chain,
  write,
  draftVersion,
  reply,
}: {
  chain: { id: string; version: number; hasDraft: boolean };
  write: boolean;
  /** The draft's version the page shows (0: none): 'Save new version' commits that one, not a newer one. */
  draftVersion: number;
  /** The page's answer to a toolbar post: the step again, with the comment as typed and why it was refused. */
  reply: VersionReply | undefined;
}) {
  const page = chainUrl(chain.id);
  // Ctrl+S is JavaScript's: without it the hint would promise a key that does nothing.
  const hydrated = useHydrated();
  // What the page shows: a writer edits the draft, when there is one.
  const of = chain.hasDraft && write ? "draft" : "current";
  return (
    <>
      <nav className="chain-toolbar" aria-label={V.toolbar}>
        <Link to={versionUrl(chain.id, chain.version)} className="btn btn-secondary">
          {V.item}
        </Link>
        {chain.hasDraft ? (
          <>
            <Link to={versionUrl(chain.id, "draft")} className="btn btn-secondary">
              {V.draft}
            </Link>
            <Link to={`${page}/compare?to=draft`} className="btn btn-secondary">
              {V.compare}
            </Link>
          </>
        ) : null}
        <Link to={`${page}?tab=history`} className="btn btn-secondary">
          {V.versions}
        </Link>
        <ExportButton href={`${page}/export?of=${of}`} download={`${page}/export/download?of=${of}`} />
        {write ? <ImportButton action={`${page}/import`} /> : null}
        {write && chain.hasDraft && draftVersion > 0 ? (
          <ConfirmAction
            intent="saveVersion"
            label={V.saveVersion}
            title={V.saveVersionTitle}
            message={V.saveVersionMessage}
            confirmLabel={V.saveVersionConfirm}
            confirming={reply?.confirm === "saveVersion"}
            danger={false}
            fields={{ draftVersion: String(draftVersion) }}
            buttonClassName="btn btn-secondary"
          >
            <CommentField value={reply?.comment ?? ""} error={reply?.message ? [reply.message, ...(reply.problems ?? [])].join(" ") : undefined} />
          </ConfirmAction>
        ) : null}
        {write && hydrated ? <span className="field-hint">{V.saveKey}</span> : null}
      </nav>
      {write ? <UnsavedChanges /> : null}
    </>
  );
}
