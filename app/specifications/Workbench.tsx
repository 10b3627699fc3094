import { Form, Link, useNavigation } from "@remix-run/react";
import type { Documentation } from "@contract/nlp";
import type { Specification } from "@contract/specifications";
import { Toast, toastOf } from "~/ui/toast";
import { HelpPanel, type HelpTab } from "./HelpPanel";
import type { Sample } from "./sample";
import { TemplateEditor } from "./TemplateEditor";
import { SPECIFICATIONS } from "./texts";

const D = SPECIFICATIONS.detail;

/** The specification detail screen (spec 1 §2): template editor, document upload and context object, sample output. */
export function Workbench({
  specification: s,
  doc,
  canWrite,
  help,
  kept,
  sample,
}: {
  specification: Pick<Specification, "id" | "name" | "template" | "updatedAt">;
  doc: Documentation | null;
  canWrite: boolean;
  help: { open: boolean; tab: HelpTab; q: string };
  /** The document at the page's `?document=` (loader), until an action answers. */
  kept: Pick<Sample, "document" | "contextObject"> & { error: string | null } | null;
  sample: Sample | undefined;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" ? String(navigation.formData?.get("intent") ?? "") : "";
  const template = sample?.template || s.template;
  const document = sample ? sample.document : (kept?.document ?? null);
  const contextObject = sample ? sample.contextObject : (kept?.contextObject ?? null);
  const uploadError = sample ? sample.uploadError : (kept?.error ?? null);
  const contextFields = doc?.contextObject.fields.map((f) => f.name) ?? [];
  return (
    <>
      <Toast toast={toastOf(sample)} />
      <div className="page-header">
        <h1>{s.name}</h1>
        <Link to={`/specifications/${s.id}/edit`} className="btn btn-secondary">
          {SPECIFICATIONS.edit}
        </Link>
      </div>
      <div className="spec-layout">
        <Form
          method="post"
          encType="multipart/form-data"
          className="spec-workbench"
          // Posts keep the document in the address: a reload shows it again.
          action={document ? `?${new URLSearchParams({ document: document.fileId })}` : undefined}
        >
          <section aria-labelledby="editor-heading" className="panel">
            <h2 id="editor-heading">{D.editor}</h2>
            <TemplateEditor
              id="template"
              name="template"
              key={s.updatedAt}
              defaultValue={template}
              readOnly={!canWrite}
              label={SPECIFICATIONS.labels.template}
              helpers={doc?.helperFunctions ?? []}
              contextFields={contextFields}
              describedBy={sample?.templateError ? "template-error" : undefined}
            />
            {sample?.templateError ? (
              <p id="template-error" className="field-error" role="alert">
                {sample.templateError}
              </p>
            ) : null}
            {canWrite ? (
              <button type="submit" name="intent" value="save" className="btn btn-primary">
                {busy === "save" ? "Saving…" : SPECIFICATIONS.save}
              </button>
            ) : (
              <p className="muted">{SPECIFICATIONS.readOnlyNote}</p>
            )}
          </section>

          <section aria-labelledby="context-heading" className="panel">
            <h2 id="context-heading">{D.contextObject}</h2>
            <div className="field">
              <label htmlFor="document">{D.document}</label>
              <input
                id="document"
                name="document"
                type="file"
                accept=".docx,application/vnd.openxmlformats-officedocument.wordprocessingml.document"
                aria-describedby="upload-status"
              />
            </div>
            <div className="form-actions">
              <button type="submit" name="intent" value="upload" className="btn btn-secondary">
                {busy === "upload" ? "Uploading…" : D.upload}
              </button>
              <button type="submit" name="intent" value="run" className="btn btn-primary">
                {busy === "run" ? "Running…" : D.run}
              </button>
            </div>
            <div id="upload-status" aria-live="polite">
              {uploadError ? (
                <p className="field-error" role="alert">
                  {uploadError}
                </p>
              ) : null}
              <p className="muted">
                {document ? (
                  <>
                    {D.currentDocument}{" "}
                    {/* The upload itself, streamed back from the server (app/routes/files.$id.tsx). */}
                    <a href={`/files/${encodeURIComponent(document.fileId)}`} download={document.name}>
                      {document.name}
                    </a>
                  </>
                ) : (
                  D.noDocument
                )}
              </p>
            </div>
            {document ? (
              <>
                <input type="hidden" name="documentId" value={document.fileId} />
                <input type="hidden" name="documentName" value={document.name} />
              </>
            ) : null}
            {contextObject ? (
              <pre className="json-view" tabIndex={0} aria-label={D.contextObject} data-testid="context-object">
                {JSON.stringify(contextObject, null, 2)}
              </pre>
            ) : (
              <p className="muted">{D.noContext}</p>
            )}
          </section>
        </Form>

        <section aria-labelledby="output-heading" className="panel">
          <h2 id="output-heading">{D.sampleOutput}</h2>
          <div aria-live="polite" data-testid="sample-output">
            {sample?.outputError ? (
              <p className="field-error" role="alert">
                {sample.outputError}
              </p>
            ) : sample?.output !== null && sample?.output !== undefined ? (
              <pre className="sample-output" tabIndex={0}>
                {sample.output}
              </pre>
            ) : (
              <p className="muted">{D.noOutput}</p>
            )}
          </div>
          <h2 id="json-heading">{D.json}</h2>
          {sample?.result ? (
            <pre className="json-view" tabIndex={0} aria-labelledby="json-heading" data-testid="json-view">
              {JSON.stringify(sample.result, null, 2)}
            </pre>
          ) : (
            <p className="muted">—</p>
          )}
        </section>
        <HelpPanel doc={doc} open={help.open} tab={help.tab} q={help.q} />
      </div>
    </>
  );
}
