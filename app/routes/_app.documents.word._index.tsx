import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { templateListLoader } from "~/templates/kinds.server";
import { templateColumns } from "~/templates/TemplateList";
import { WORD_TEMPLATES } from "~/templates/texts";
import { ResourceList } from "~/ui/resource-list";

export {RouteErrorBoundary as ErrorBoundary} from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "Word templates · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  return templateListLoader(args, "word");
}

const columns = templateColumns(WORD_TEMPLATES, (id) => `/documents/word/${id}/edit`);

export default function WordTemplates() {
  const data = useLoaderData<typeof loader>();
  return <ResourceList data={data} texts={WORD_TEMPLATES} columns={columns} createTo="/documents/word/create" />;
}
