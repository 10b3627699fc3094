import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { listLoader } from "~/kit/resource-routes.server";
import { shapeColumns } from "~/templates/ShapeList";
import { shapeRow, shapes } from "~/templates/templates.server";
import { SHAPES } from "~/templates/texts";
import { ResourceList } from "~/ui/resource-list";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "Shapes · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  return listLoader(args, shapes, { row: shapeRow });
}

export default function Shapes() {
  const data = useLoaderData<typeof loader>();
  return (
    <>
      <ResourceList data={data} texts={SHAPES} columns={shapeColumns} createTo="/documents/visio/create" />
      <p className="muted">
        {SHAPES.origin} <Link to="/documents/visio">{SHAPES.visioLink}</Link>
      </p>
    </>
  );
}
