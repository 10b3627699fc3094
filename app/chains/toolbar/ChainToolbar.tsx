/**
 * The chain page's toolbar (spec 3 §2.9): the version view (the draft, the history), compare, export and import.
 * Links and server pages, so each works without JavaScript; with it, Export copies the JSON at once. Running the chain
 * and cancelling its stream join here with runs.
 */
import { Link } from "@remix-run/react";
import { CHAIN_VERSIONS as V } from "../versions/texts";
import { chainUrl, versionUrl } from "../versions/urls";
import { ExportButton } from "./CopyExport";
import { UnsavedChanges } from "./UnsavedChanges";

export function ChainToolbar({ chain, write }: { chain: { id: string; version: number; hasDraft: boolean }; write: boolean }) {
  const page = chainUrl(chain.id);
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
        {write ? (
          <Link to={`${page}/import`} className="btn btn-secondary">
            {V.import}
          </Link>
        ) : null}
        {write ? <span className="field-hint">{V.saveKey}</span> : null}
      </nav>
      {write ? <UnsavedChanges /> : null}
    </>
  );
}
