import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { CopyButton } from "~/chains/toolbar/CopyExport";
import { exportLoader, type ExportData } from "~/chains/toolbar/transfer.server";
import chainVersionsStyles from "~/chains/versions/versions.css";
import { CHAIN_VERSIONS as V } from "~/chains/versions/texts";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

/** /chains/{id}/export?of=current|draft|n: the template's JSON to copy, and a download (spec 3 §2.9, without JavaScript). */
export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${(data as ExportData | undefined)?.chain.name ?? "Chain"} · Export · Backoffice` }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: chainVersionsStyles }];

export const loader = (args: LoaderFunctionArgs) => exportLoader(args);

export default function ChainExport() {
  const { chain, of, text } = useLoaderData<typeof loader>() as ExportData;
  const back = `/chains/${encodeURIComponent(chain.id)}`;
  return (
    <div className="chain-export stack">
      <p className="back-link">
        <Link to={back}>{V.back}</Link>
      </p>
      <h1>{`${chain.name} · ${V.exportTitle}`}</h1>
      <div className="field">
        <label htmlFor="chain-export-json">{V.exportLabel}</label>
        <textarea id="chain-export-json" readOnly rows={20} value={text} spellCheck={false} className="code" />
      </div>
      <div className="chain-toolbar">
        <CopyButton label={V.copy} text={text} />
        <a href={`${back}/export/download?of=${of}`} className="btn btn-secondary" download>
          {V.download}
        </a>
      </div>
    </div>
  );
}
