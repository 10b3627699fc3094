import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { ImportPageForm } from "~/chains/toolbar/ImportForm";
import { importAction, importLoader, type ImportReply } from "~/chains/toolbar/transfer.server";
import chainVersionsStyles from "~/chains/versions/versions.css";
import { CHAIN_VERSIONS as V } from "~/chains/versions/texts";
import { Toast, toastOf } from "~/ui/toast";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

/**
 * /chains/{id}/import: paste a template's JSON into the chain's draft (spec 3 §2.9 import, §8), prompts.write only. The
 * page without JavaScript; with it the chain page's import dialog posts to this same action.
 */
export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.chain.name ?? "Chain"} · Import · Backoffice` }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: chainVersionsStyles }];

export const loader = (args: LoaderFunctionArgs) => importLoader(args);
export const action = (args: ActionFunctionArgs) => importAction(args);

export default function ChainImport() {
  const { chain } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as (ImportReply & { toast?: unknown }) | undefined;
  const back = `/chains/${encodeURIComponent(chain.id)}`;
  return (
    <div className="chain-export stack">
      <Toast toast={toastOf(reply)} />
      <p className="back-link">
        <Link to={back}>{V.back}</Link>
      </p>
      <h1>{`${chain.name} · ${V.importTitle}`}</h1>
      <ImportPageForm reply={reply} back={back} />
    </div>
  );
}
