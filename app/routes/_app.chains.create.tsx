import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { requireRoute } from "~/auth/guard.server";
import { ChainForm, NEW_CHAIN } from "~/chains/ChainForm";
import { chains, settingsOptions } from "~/chains/chains.server";
import { ChainSettingsSchema } from "~/chains/schema";
import { CHAINS } from "~/chains/texts";
import { editorAction } from "~/kit/resource-routes.server";
import { lastResultOf } from "~/ui/editor";
import { Toast, toastOf } from "~/ui/toast";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "New Prompt · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  const { api } = await requireRoute(args);
  return settingsOptions(api);
}

export async function action(args: ActionFunctionArgs) {
  return editorAction(args, chains, { schema: ChainSettingsSchema, texts: CHAINS, list: "/chains", saved: (c) => `/chains/${c.id}` });
}

export default function CreateChain() {
  const { organizationOptions, categoryOptions } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <>
      <Toast toast={toastOf(actionData)} />
      <div className="page-header">
        <h1>{CHAINS.newTitle}</h1>
      </div>
      <ChainForm
        id="new-chain"
        defaults={NEW_CHAIN}
        organizations={organizationOptions}
        categories={categoryOptions}
        lastResult={lastResultOf(actionData)}
        canWrite
        cancelTo="/chains"
      />
    </>
  );
}
