import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { workbenchAction, workbenchLoader } from "~/specifications/sample.server";
import { Workbench } from "~/specifications/Workbench";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.specification.name ?? "Specification"} · Backoffice` },
];

export async function loader(args: LoaderFunctionArgs) {
  return workbenchLoader(args);
}

export async function action(args: ActionFunctionArgs) {
  return workbenchAction(args);
}

export default function SpecificationDetail() {
  const { specification, doc, may, help, kept } = useLoaderData<typeof loader>();
  const sample = useActionData<typeof action>();
  return <Workbench specification={specification} doc={doc} canWrite={may.write} help={help} kept={kept} sample={sample} />;
}
