import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { backupLoader, importAction } from "~/backup/backup.server";
import { BACKUP } from "~/backup/texts";
import { FieldErrors } from "~/ui/fields";
import { Toast, toastOf } from "~/ui/toast";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "Template backup · Backoffice" }];

export async function loader(args: LoaderFunctionArgs) {
  return backupLoader(args);
}

export async function action(args: ActionFunctionArgs) {
  return importAction(args);
}

export default function TemplateBackup() {
  const { may, last } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as { errors?: Record<string, string[]> } | undefined;
  const busy = useNavigation().state === "submitting";
  const errors = actionData?.errors ?? {};
  return (
    <>
      <Toast toast={toastOf(actionData)} />
      <div className="page-header">
        <h1>{BACKUP.title}</h1>
      </div>
      <p className="muted">{BACKUP.intro}</p>
      <section className="form-card" aria-labelledby="backup-export">
        <h2 id="backup-export">{BACKUP.exportHeading}</h2>
        <p>
          {/* A download, not a page: a plain link the browser saves. */}
          <a href="/administration/template-storage/export" className="btn btn-secondary" download>
            {BACKUP.exportLink}
          </a>
        </p>
      </section>
      <section className="form-card" aria-labelledby="backup-import">
        <h2 id="backup-import">{BACKUP.importHeading}</h2>
        <p>
          <strong>{BACKUP.lastImport}:</strong> {last ? `${last.at} — ${last.summary}` : BACKUP.never}
        </p>
        {may.write ? (
          <Form method="post" encType="multipart/form-data" className="form-grid" noValidate>
            <div className="field">
              <label htmlFor="backup-file">{BACKUP.fileLabel}</label>
              <input id="backup-file" type="file" name="file" accept=".zip,application/zip" aria-describedby="backup-file-errors" aria-invalid={errors.file ? true : undefined} autoFocus={!!errors.file} />
              <FieldErrors id="backup-file-errors" errors={errors.file} />
            </div>
            <div className="field field-checkbox">
              <label>
                <input type="checkbox" name="replace" value="yes" aria-describedby="backup-replace-errors" aria-invalid={errors.replace ? true : undefined} />
                {BACKUP.replaceLabel}
              </label>
              <FieldErrors id="backup-replace-errors" errors={errors.replace} />
            </div>
            <div className="form-actions">
              <button type="submit" className="btn btn-primary" aria-disabled={busy ? "true" : undefined}>
                {busy ? "Importing…" : BACKUP.importButton}
              </button>
            </div>
          </Form>
        ) : (
          <p className="muted">{BACKUP.readOnlyNote}</p>
        )}
      </section>
    </>
  );
}
