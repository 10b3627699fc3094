import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { MAX_DOCUMENT_BYTES, joinParagraphs, type ContextObjectAnswer, type GenerateAnswer } from "../../upstream/contract/nlp";
import { can } from "../../upstream/contract/permissions";
import { requireRoute } from "~/auth/guard.server";
import { failureToast } from "~/lib/actions.server";
import { fileOf, readForm } from "~/lib/form.server";
import { isUpstreamError } from "~/lib/upstream.server";
import { HelpPanel, type HelpTab } from "~/specifications/HelpPanel";
import { specifications } from "~/specifications/specifications.server";
import { TemplateEditor } from "~/specifications/TemplateEditor";
import { SPECIFICATIONS } from "~/specifications/texts";
import { notFound } from "~/auth/guard.server";
import { Toast, toastOf, type ToastData } from "~/ui/toast";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.specification.name ?? "Specification"} · Backoffice` },
];

const D = SPECIFICATIONS.detail;
export async function loader(args: LoaderFunctionArgs) {
  const { api, identity } = await requireRoute(args);
  const url = new URL(args.request.url);
  const [specification, doc] = await Promise.all([
    specifications.getOr404(api, args.params.id ?? ""),
    // "If help loading fails, the failure is ignored" (spec 1 §8).
    specifications.documentation(api).catch(() => null),
  ]);
  const help = url.searchParams.get("help");
  return json({
    specification,
    doc,
    canWrite: can(identity.permissions, "specifications.write"),
    help: { open: help === "functions" || help === "context", tab: (help === "context" ? "context" : "functions") as HelpTab, q: url.searchParams.get("hq") ?? "" },
  });
}

type Sample = {
  intent: string;
  template: string;
  document: { name: string; content: string } | null;
  contextObject: ContextObjectAnswer | null;
  result: GenerateAnswer | null;
  output: string | null;
  outputError: string | null;
  uploadError: string | null;
  templateError: string | null;
  toast: ToastData | null;
};

const text = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === "string" ? v : "";
};

export async function action(args: ActionFunctionArgs) {
  const { api, identity } = await requireRoute(args);
  const id = args.params.id ?? "";
  const form = await readForm(args.request);
  const intent = text(form, "intent");
  const template = text(form, "template");
  const sample: Sample = empty(intent, template);
  const spec = await specifications.getOr404(api, id);
  const posted = { name: text(form, "documentName"), content: text(form, "documentContent") };
  sample.document = posted.name && posted.content ? posted : null;

  if (intent === "save") {
    if (!can(identity.permissions, "specifications.write")) throw notFound();
    if (!template.trim()) return json({ ...sample, templateError: SPECIFICATIONS.validation.templateRequired }, { status: 400 });
    try {
      await specifications.update(api, id, { template });
      sample.toast = { type: "success", message: SPECIFICATIONS.toasts.updated };
    } catch (error) {
      sample.templateError = SPECIFICATIONS.inline.saveFailed;
      sample.toast = failureToast(SPECIFICATIONS.toasts.updateFailed, error);
    }
  }

  if (intent === "upload") {
    const file = fileOf(form, "document");
    if (!file) return json({ ...sample, uploadError: D.noFile }, { status: 400 });
    if (file.size > MAX_DOCUMENT_BYTES) {
      const toast: ToastData = { type: "error", message: SPECIFICATIONS.toasts.contextFailed, description: D.tooLarge };
      return json({ ...sample, document: null, uploadError: D.tooLarge, toast }, { status: 413 });
    }
    if (!/\.docx$/i.test(file.name)) {
      sample.document = null;
      return json({ ...sample, uploadError: D.docxOnly }, { status: 400 });
    }
    sample.document = { name: file.name, content: Buffer.from(await file.arrayBuffer()).toString("base64") };
  }

  if ((intent === "upload" || intent === "run") && sample.document) {
    const params = await specifications.params(api, template || spec.template).then((p) => p.params, () => []);
    const templates = [{ name: spec.name, body: template || spec.template, params, claims: [] }];
    try {
      sample.contextObject = await specifications.contextObject(api, intent === "upload" ? templates : [], sample.document);
    } catch (error) {
      sample.uploadError = isUpstreamError(error) && error.status < 500 ? error.message : D.outputFailed;
      sample.toast = failureToast(SPECIFICATIONS.toasts.contextFailed, error);
      if (intent === "upload") sample.document = null;
      return json(sample, { status: 400 });
    }
    if (intent === "run") {
      try {
        sample.result = await specifications.generate(api, templates, sample.document);
        const out = joinParagraphs(sample.result.paragraphs);
        sample.output = out === "" ? D.emptyOutput : out;
      } catch (error) {
        sample.outputError = isUpstreamError(error) && error.status < 500 ? error.message : D.outputFailed;
        sample.toast = failureToast(SPECIFICATIONS.toasts.sampleFailed, error);
      }
    }
  } else if (intent === "run") {
    sample.outputError = D.runNeeds;
  }
  return json(sample, { status: sample.outputError || sample.uploadError || sample.templateError ? 400 : 200 });
}

function empty(intent: string, template: string): Sample {
  return {
    intent,
    template,
    document: null,
    contextObject: null,
    result: null,
    output: null,
    outputError: null,
    uploadError: null,
    templateError: null,
    toast: null,
  };
}

export default function SpecificationDetail() {
  const { specification: s, doc, canWrite, help } = useLoaderData<typeof loader>();
  const sample = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" ? String(navigation.formData?.get("intent") ?? "") : "";
  const template = sample?.template || s.template;
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
        <Form method="post" encType="multipart/form-data" className="spec-workbench">
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
              {sample?.uploadError ? (
                <p className="field-error" role="alert">
                  {sample.uploadError}
                </p>
              ) : null}
              <p className="muted">{sample?.document ? D.currentDocument(sample.document.name) : D.noDocument}</p>
            </div>
            {sample?.document ? (
              <>
                <input type="hidden" name="documentName" value={sample.document.name} />
                <input type="hidden" name="documentContent" value={sample.document.content} />
              </>
            ) : null}
            {sample?.contextObject ? (
              <pre className="json-view" tabIndex={0} aria-label={D.contextObject} data-testid="context-object">
                {JSON.stringify(sample.contextObject, null, 2)}
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
