import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { applicationsAction, applicationsLoader } from "~/application-crawler/crawler.server";
import { InstallerUpload } from "~/application-crawler/InstallerUpload";
import { APPLICATION_CRAWLER } from "~/application-crawler/texts";
import { DeleteZone } from "~/ui/editor";
import { Toast, toastOf } from "~/ui/toast";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "Applications · Backoffice" }];

export const loader = (args: LoaderFunctionArgs) => applicationsLoader(args);
export const action = (args: ActionFunctionArgs) => applicationsAction(args);

const C = APPLICATION_CRAWLER.crawler;

export default function Applications() {
  const { installer, may } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const upload = actionData && "errors" in actionData ? actionData : undefined;
  return (
    <>
      <Toast toast={toastOf(actionData)} />
      <div className="page-header">
        <h1>{APPLICATION_CRAWLER.title}</h1>
      </div>
      <section className="download-card" aria-labelledby="crawler-title">
        <h2 id="crawler-title">{C.title}</h2>
        <p>{C.about}</p>
        {installer ? (
          <>
            <p>
              {/* A plain link: the browser downloads the file (a resource route), no client-side navigation. */}
              <a className="btn btn-primary" href="/applications/installer" download={installer.name}>
                {C.download}
              </a>
            </p>
            <p>{installer.details}</p>
            <dl className="download-facts">
              <dt>{C.file}</dt>
              <dd>{installer.name}</dd>
              <dt>{C.checksum}</dt>
              <dd>
                <code>{installer.sha256}</code>
              </dd>
            </dl>
            <p className="muted">{installer.uploaded}</p>
          </>
        ) : (
          <p role="status">
            {C.notAvailable} {may.write ? null : C.askAdministrator}
          </p>
        )}
      </section>
      {may.write ? (
        <>
          <InstallerUpload replacing={!!installer} errors={upload?.errors} version={upload?.values.version ?? ""} />
          {installer ? (
            <DeleteZone label={APPLICATION_CRAWLER.delete} name={installer.name} texts={APPLICATION_CRAWLER} actionData={actionData} />
          ) : null}
        </>
      ) : null}
    </>
  );
}
