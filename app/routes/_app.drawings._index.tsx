import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { templateListLoader } from "~/templates/kinds.server";
import { templateColumns } from "~/templates/TemplateList";
import { DRAWINGS } from "~/templates/texts";
import { ResourceList } from "~/ui/resource-list";

export {RouteErrorBoundary as ErrorBoundary} from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "Drawings · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  return templateListLoader(args, "drawing");
}

const columns = templateColumns(DRAWINGS, (id) => `/drawings/${id}/edit`);

export default function DrawingTemplates() {
  const data = useLoaderData<typeof loader>();
  return <ResourceList data={data} texts={DRAWINGS} columns={columns} createTo="/drawings/create" />;
}
