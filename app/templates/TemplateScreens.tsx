import type { MetaFunction } from "@remix-run/node";
import type { ReactNode } from "react";
import { useActionData, useLoaderData } from "@remix-run/react";
import { DeleteZone } from "~/ui/editor";
import type { CurrentFile } from "~/ui/file-field";
import { ResourceList } from "~/ui/resource-list";
import { Toast, toastOf } from "~/ui/toast";
import type { templateAction, templateCreateLoader, templateEditLoader, templateListLoader } from "./kinds.server";
import { TEMPLATE_KINDS, acceptOf, templatePaths, type TemplateKind } from "./kinds";
import { TemplateForm, type TemplateDefaults } from "./TemplateForm";
import { templateColumns } from "./TemplateList";

/**
 * The screens of the template kinds (spec 2 §2, §5): the list, the create and the edit screen of Word templates, Visio
 * templates and drawings, made for a kind from its row in TEMPLATE_KINDS. Remix needs a route file per URL; each one
 * only names its kind here and in kinds.server.ts (the loaders and actions stay in a `.server` module so that none of
 * them reaches the browser).
 */

/** What every template screen's route exports besides its kind's: the error view and the editor's revalidation. */
export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";
export { shouldRevalidate } from "~/ui/editor";

/** The browser tab's title of a kind's screen (static, so a record's not-found view keeps it). */
export function templateMeta(kind: TemplateKind, screen: "list" | "create" | "edit"): MetaFunction {
  const title = TEMPLATE_KINDS[kind].texts.documentTitles[screen];
  return () => [{ title }];
}

/** A kind's list: search, sort, paging and its columns (resource kit); '+ new' for those who may write. */
export function templateListScreen(kind: TemplateKind) {
  const { texts } = TEMPLATE_KINDS[kind];
  const paths = templatePaths(kind);
  const columns = templateColumns(texts, paths.edit);
  return function TemplateListScreen() {
    const data = useLoaderData<typeof templateListLoader>();
    return <ResourceList data={data} texts={texts} columns={columns} createTo={paths.create} />;
  };
}

/** A kind's create screen: its form with the file required and nothing filled in. */
export function templateCreateScreen(kind: TemplateKind) {
  return function TemplateCreateScreen() {
    const { editor } = useLoaderData<typeof templateCreateLoader>();
    const actionData = useActionData<typeof templateAction>();
    const defaults = { name: "", description: "", tags: [], textTemplate: "" };
    return <KindForm kind={kind} mode="create" defaults={defaults} current={null} canWrite editor={editor} actionData={actionData} />;
  };
}

/** A kind's edit screen: its form over the record (read-only without templates.write) and, for writers, Delete. */
export function templateEditScreen(kind: TemplateKind) {
  const { texts } = TEMPLATE_KINDS[kind];
  return function TemplateEditScreen() {
    const { id, record, may, current, editor } = useLoaderData<typeof templateEditLoader>();
    const actionData = useActionData<typeof templateAction>();
    return (
      <KindForm
        kind={kind}
        mode="edit"
        id={id}
        defaults={record ?? { name: "", description: "", tags: [] }}
        current={current}
        canWrite={may.write}
        editor={editor}
        actionData={actionData}
      >
        {may.write && record ? (
          <DeleteZone label={texts.delete} name={record.name} texts={texts} actionData={actionData} />
        ) : null}
      </KindForm>
    );
  };
}

/** The toast, heading and form of a kind's create or edit screen; the kind decides the file types, flags and editor. */
function KindForm({
  kind,
  mode,
  id,
  children,
  editor,
  ...form
}: {
  kind: TemplateKind;
  mode: "create" | "edit";
  id?: string;
  defaults: TemplateDefaults;
  current: CurrentFile;
  canWrite: boolean;
  editor: Parameters<typeof TemplateForm>[0]["editor"] | null;
  actionData: unknown;
  children?: ReactNode;
}) {
  const { texts, schemas, flags } = TEMPLATE_KINDS[kind];
  return (
    <>
      <Toast toast={toastOf(form.actionData)} />
      <div className="page-header">
        <h1>{mode === "create" ? texts.newTitle : texts.editTitle}</h1>
      </div>
      <TemplateForm
        {...form}
        id={mode === "create" ? `new-${kind}` : `edit-${kind}-${id}`}
        schema={schemas[mode]}
        texts={texts}
        accept={acceptOf(kind)}
        cancelTo={templatePaths(kind).list}
        flags={flags}
        editor={editor ?? undefined}
      />
      {children}
    </>
  );
}
