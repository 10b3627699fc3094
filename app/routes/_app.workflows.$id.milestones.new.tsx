import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Toast, toastOf } from "~/ui/toast";
import { Wizard, type WizardReplyData } from "~/workflows/wizard/Wizard";
import styles from "~/workflows/wizard/wizard.css";
import { WIZARD } from "~/workflows/wizard/texts";
import { listPath } from "~/workflows/wizard/state";
import { wizardAction, wizardLoader } from "~/workflows/wizard/wizard.server";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export const meta: MetaFunction = () => [{ title: `${WIZARD.title} · Backoffice` }];

export const loader = (args: LoaderFunctionArgs) => wizardLoader(args);

export const action = (args: ActionFunctionArgs) => wizardAction(args);

/**
 * The milestone template creation wizard (spec 3 §2.4), the child of the workflow's template list: with JavaScript a
 * dialog over that list, without it a page section of its own (app/workflows/wizard/Wizard.tsx).
 */
export default function NewMilestoneTemplate() {
  const { workflow, initial } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as WizardReplyData | undefined;
  return (
    <>
      <Toast toast={toastOf(reply)} />
      <Wizard workflowTitle={workflow.title} listUrl={listPath(workflow.id)} initial={initial} reply={reply} />
    </>
  );
}
