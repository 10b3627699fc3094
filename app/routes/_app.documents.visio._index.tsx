import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { templateListLoader } from "~/templates/kinds.server";
import { templateColumns } from "~/templates/TemplateList";
import { VISIO_TEMPLATES } from "~/templates/texts";
import { ResourceList } from "~/ui/resource-list";

export {RouteErrorBoundary as ErrorBoundary} from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "Visio templates · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  return templateListLoader(args, "visio");
}

const columns = templateColumns(VISIO_TEMPLATES, (id) => `/documents/visio/${id}/edit`);

export default function VisioTemplates() {
  const data = useLoaderData<typeof loader>();
  return <ResourceList data={data} texts={VISIO_TEMPLATES} columns={columns} createTo="/documents/visio/create" />;
}
