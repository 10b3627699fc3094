import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { editorAction, editorLoader } from "~/kit/resource-routes.server";
import { ShapeSchema } from "~/templates/schema";
import { ShapeForm } from "~/templates/ShapeForm";
import { shapes, shapeThumbnail } from "~/templates/templates.server";
import { SHAPES } from "~/templates/texts";
import { DeleteZone } from "~/ui/editor";
import { Toast, toastOf } from "~/ui/toast";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";
export { shouldRevalidate } from "~/ui/editor";

export const meta: MetaFunction = () => [{ title: "Edit Shape · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  const loaded = await editorLoader(args, shapes);
  // The thumbnail's address from the server module (its helpers are not in the page's JavaScript).
  return { ...loaded, thumbnail: shapeThumbnail(loaded.id) };
}

export async function action(args: ActionFunctionArgs) {
  return editorAction(args, shapes, { schema: ShapeSchema, texts: SHAPES, list: "/shapes" });
}

export default function EditShape() {
  const { id, record, may, thumbnail } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <>
      <Toast toast={toastOf(actionData)} />
      <div className="page-header">
        <h1>{SHAPES.editTitle}</h1>
      </div>
      <ShapeForm
        id={`edit-shape-${id}`}
        shape={{
          name: record?.name ?? "",
          description: record?.description ?? "",
          tags: record?.tags ?? [],
          templateName: record?.templateName ?? "",
          master: record?.master ?? "",
          thumbnail,
        }}
        actionData={actionData}
        canWrite={may.write}
      />
      {may.write && record ? <DeleteZone label={SHAPES.delete} name={record.name} texts={SHAPES} actionData={actionData} /> : null}
    </>
  );
}
