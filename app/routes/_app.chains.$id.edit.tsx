import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ChainForm, NEW_CHAIN } from "~/chains/ChainForm";
import { chains, settingsOptions, withUnknownIds } from "~/chains/chains.server";
import { ChainEditSchema } from "~/chains/schema";
import { CHAINS } from "~/chains/texts";
import { editorAction, editorLoader } from "~/kit/resource-routes.server";
import { DeleteZone, lastResultOf } from "~/ui/editor";
import { Toast, toastOf } from "~/ui/toast";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";
export { shouldRevalidate } from "~/ui/editor";

export const meta: MetaFunction = () => [{ title: "Edit Chain · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  const data = await editorLoader(args, chains, ({ api }) => settingsOptions(api));
  return { ...data, ...withUnknownIds(data, data.record) };
}

/** Save: a new version of the chain (and its draft's settings too, upstream); Delete after 'Delete chain?'. */
export async function action(args: ActionFunctionArgs) {
  const saved = `/chains/${args.params.id}`;
  return editorAction(args, chains, { schema: ChainEditSchema, texts: CHAINS, list: "/chains", saved: () => saved });
}

export default function EditChain() {
  const { id, record: c, may, organizationOptions, categoryOptions } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <>
      <Toast toast={toastOf(actionData)} />
      <div className="page-header">
        <h1>{CHAINS.editTitle}</h1>
      </div>
      <ChainForm
        id={`edit-chain-${id}`}
        defaults={c ?? NEW_CHAIN}
        baseVersion={c?.version}
        organizations={organizationOptions}
        categories={categoryOptions}
        lastResult={lastResultOf(actionData)}
        canWrite={may.write}
        cancelTo={`/chains/${id}`}
      />
      {may.write && c ? <DeleteZone label="Delete chain" name={c.name} texts={CHAINS} actionData={actionData} /> : null}
    </>
  );
}
