import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { MAX_DOCUMENT_BYTES, joinParagraphs } from "@contract/nlp";
import type { Specification } from "@contract/specifications";
import { notFound, requireRoute } from "~/auth/guard.server";
import { failureToast, reasonOf } from "~/lib/actions.server";
import { files } from "~/lib/files.server";
import { fileField, readForm, textOf } from "~/lib/form.server";
import { isUpstreamError, type Api } from "~/lib/upstream.server";
import type { ToastData } from "~/ui/toast";
import type { HelpTab } from "./HelpPanel";
import { generator, specifications } from "./specifications.server";
import type { KeptDocument, Sample } from "./sample";
import { SPECIFICATIONS } from "./texts";

const D = SPECIFICATIONS.detail;

/** The upload rule of the workbench (and of a chain's context document): one .docx of at most MAX_DOCUMENT_BYTES. */
export const DOCUMENT_UPLOAD = {
  maxBytes: MAX_DOCUMENT_BYTES,
  tooLarge: D.tooLarge,
  missing: D.noFile,
  name: /\.docx$/i,
  wrongType: D.docxOnly,
} as const;

const emptySample = (intent: string, template: string): Sample => ({
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
});

const answer = (sample: Sample, status?: number) =>
  json(sample, { status: status ?? (sample.outputError || sample.uploadError || sample.templateError ? 400 : 200) });

/**
 * The specification workbench's action (spec 1 §2): `save` the template (with `may.write`), `upload` a .docx (kept on
 * the server: POST /api/files; the context object), `run` the template against it (the sample output and its JSON).
 * After the upload the page names the document by its id (hidden `documentId`, and `?document=` in the URL so a
 * reload keeps it): Run posts that id, never the bytes again.
 */
export async function workbenchAction(args: ActionFunctionArgs) {
  const { api, may } = await requireRoute(args);
  const form = await readForm(args.request);
  const sample = emptySample(textOf(form, "intent"), textOf(form, "template"));
  const spec = await specifications.getOr404(api, args.params.id ?? "");
  const fileId = textOf(form, "documentId") || new URL(args.request.url).searchParams.get("document") || "";
  sample.document = fileId ? { fileId, name: textOf(form, "documentName") } : null;

  if (sample.intent === "save") {
    if (!may.write) throw notFound();
    if (!sample.template.trim()) return answer({ ...sample, templateError: SPECIFICATIONS.validation.templateRequired });
    try {
      await specifications.update(api, spec.id, { template: sample.template });
      sample.toast = { type: "success", message: SPECIFICATIONS.toasts.updated };
    } catch (error) {
      sample.templateError = SPECIFICATIONS.inline.saveFailed;
      sample.toast = failureToast(SPECIFICATIONS.toasts.updateFailed, error);
    }
  }

  if (sample.intent === "upload") {
    const upload = fileField(form, "document", DOCUMENT_UPLOAD);
    if (upload.error !== null) {
      const tooLarge = upload.reason === "tooLarge";
      const toast: ToastData | null = tooLarge
        ? { type: "error", message: SPECIFICATIONS.toasts.contextFailed, description: upload.error }
        : null;
      // A click without a file keeps the document already uploaded; a refused file replaces it with nothing.
      const document = upload.reason === "missing" ? sample.document : null;
      return answer({ ...sample, document, uploadError: upload.error, toast }, tooLarge ? 413 : 400);
    }
    try {
      const stored = await files.upload(api, upload.file);
      sample.document = { fileId: stored.id, name: stored.name };
    } catch (error) {
      const uploadError = isUpstreamError(error) && error.status < 500 ? error.message : D.outputFailed;
      const toast = failureToast(SPECIFICATIONS.toasts.contextFailed, error);
      return answer({ ...sample, document: null, uploadError, toast });
    }
  }

  if (sample.intent !== "run" && sample.intent !== "upload") return answer(sample);
  if (!sample.document) return answer({ ...sample, outputError: D.runNeeds });
  const uploaded = sample.intent === "upload" ? sample.document.fileId : null;
  const done = await runSample(api, spec, sample, sample.document);
  if (uploaded && done.document === null) await files.discard(api, uploaded);
  // An upload with the saved template: show it at its own address (reload-safe, nothing to post again). With
  // unsaved template changes the answer keeps them; the form's next post goes to that address.
  if (sample.intent === "upload" && done.document && !done.uploadError && (!sample.template || sample.template === spec.template)) {
    return redirect(documentUrl(spec.id, done.document.fileId));
  }
  return answer(done);
}

/** The workbench's address with a kept document. */
const documentUrl = (id: string, fileId: string) =>
  `/specifications/${encodeURIComponent(id)}?${new URLSearchParams({ document: fileId })}`;

/** The templates sent to the generator: this specification with `body`, and the context names it reads. */
async function templatesOf(api: Api, spec: Specification, body: string) {
  const params = await generator.params(api, body).then((p) => p.params, () => []);
  return [{ name: spec.name, body, params, claims: [] }];
}

/** The context object of `document` (upload and run) and, for `run`, the generated output. */
async function runSample(api: Api, spec: Specification, sample: Sample, document: KeptDocument): Promise<Sample> {
  const templates = await templatesOf(api, spec, sample.template || spec.template);
  const uploading = sample.intent === "upload";
  const ref = { fileId: document.fileId };
  try {
    sample.contextObject = await generator.contextObject(api, uploading ? templates : [], ref);
    sample.document = { fileId: document.fileId, name: Object.keys(sample.contextObject)[0] ?? document.name };
  } catch (error) {
    sample.uploadError = isUpstreamError(error) && error.status < 500 ? error.message : D.outputFailed;
    sample.toast = failureToast(SPECIFICATIONS.toasts.contextFailed, error);
    if (uploading) sample.document = null;
    return sample;
  }
  if (uploading) return sample;
  try {
    const result = await generator.generate(api, templates, ref);
    const out = joinParagraphs(result.paragraphs);
    return { ...sample, result, output: out === "" ? D.emptyOutput : out };
  } catch (error) {
    sample.outputError = isUpstreamError(error) && error.status < 500 ? error.message : D.outputFailed;
    sample.toast = failureToast(SPECIFICATIONS.toasts.sampleFailed, error);
    return sample;
  }
}

/**
 * The workbench's loader: the specification (or the not-found view), the generator's help, the help panel's state,
 * and the document kept at `?document=` with its context object (recomputed: a reload shows what the upload showed).
 */
export async function workbenchLoader(args: LoaderFunctionArgs) {
  const { api, may } = await requireRoute(args);
  const url = new URL(args.request.url);
  const [specification, doc] = await Promise.all([
    specifications.getOr404(api, args.params.id ?? ""),
    // "If help loading fails, the failure is ignored" (spec 1 §8).
    generator.documentation(api).catch(() => null),
  ]);
  const help = url.searchParams.get("help");
  const tab: HelpTab = help === "context" ? "context" : "functions";
  const fileId = url.searchParams.get("document");
  const kept = fileId ? await keptDocument(api, specification, fileId) : null;
  return json({
    specification,
    doc,
    may,
    kept,
    help: { open: help === "functions" || help === "context", tab, q: url.searchParams.get("hq") ?? "" },
  });
}

/** The kept document and its context object; the reason instead when it is gone (expired, not this user's). */
async function keptDocument(api: Api, spec: Specification, fileId: string) {
  try {
    const contextObject = await generator.contextObject(api, await templatesOf(api, spec, spec.template), { fileId });
    const document: KeptDocument = { fileId, name: Object.keys(contextObject)[0] ?? "" };
    return { document, contextObject, error: null };
  } catch (error) {
    const reason = isUpstreamError(error, 404) ? D.documentGone : reasonOf(error);
    return { document: null, contextObject: null, error: reason };
  }
}
