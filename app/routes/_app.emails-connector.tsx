import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { EmailConnectorForm } from "~/email-connector/EmailConnectorForm";
import { emailConnectorAction, emailConnectorLoader } from "~/email-connector/email-connector.server";
import { EMAIL_CONNECTOR } from "~/email-connector/texts";
import { Toast, toastOf } from "~/ui/toast";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "E-mail connector · Backoffice" }];

export const loader = (args: LoaderFunctionArgs) => emailConnectorLoader(args);
export const action = (args: ActionFunctionArgs) => emailConnectorAction(args);

export default function EmailConnector() {
  const { settings, saved, may } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <>
      <Toast toast={toastOf(actionData)} />
      <div className="page-header">
        <h1>{EMAIL_CONNECTOR.title}</h1>
      </div>
      <p className="muted">{EMAIL_CONNECTOR.intro}</p>
      <EmailConnectorForm settings={settings} actionData={actionData} canWrite={may.write} />
      <p className="muted">{saved ?? EMAIL_CONNECTOR.neverSaved}</p>
    </>
  );
}
