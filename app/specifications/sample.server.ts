import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { MAX_DOCUMENT_BYTES, joinParagraphs, type DocumentInput } from "../../upstream/contract/nlp";
import type { Specification } from "../../upstream/contract/specifications";
import { notFound, requireRoute } from "../auth/guard.server";
import { failureToast } from "../lib/actions.server";
import { fileField, readForm, textOf } from "../lib/form.server";
import { isUpstreamError, type Api } from "../lib/upstream.server";
import type { ToastData } from "../ui/toast";
import type { HelpTab } from "./HelpPanel";
import { generator, specifications } from "./specifications.server";
import type { Sample } from "./sample";
import { SPECIFICATIONS } from "./texts";

const D = SPECIFICATIONS.detail;

/** The upload rule of the workbench: one .docx of at most MAX_DOCUMENT_BYTES. */
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
 * The specification workbench's action (spec 1 §2): `save` the template (with `may.write`), `upload` a .docx (the
 * context object), `run` the template against it (the sample output and its JSON).
 */
export async function workbenchAction(args: ActionFunctionArgs) {
  const { api, may } = await requireRoute(args);
  const form = await readForm(args.request);
  const sample = emptySample(textOf(form, "intent"), textOf(form, "template"));
  const spec = await specifications.getOr404(api, args.params.id ?? "");
  const posted = { name: textOf(form, "documentName"), content: textOf(form, "documentContent") };
  sample.document = posted.name && posted.content ? posted : null;

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
    sample.document = { name: upload.file.name, content: Buffer.from(await upload.file.arrayBuffer()).toString("base64") };
  }

  if (sample.intent === "run" || sample.intent === "upload") {
    if (!sample.document) return answer({ ...sample, outputError: D.runNeeds });
    return answer(await runSample(api, spec, sample, sample.document));
  }
  return answer(sample);
}

/** The context object of `document` (upload and run) and, for `run`, the generated output. */
async function runSample(api: Api, spec: Specification, sample: Sample, document: DocumentInput): Promise<Sample> {
  const body = sample.template || spec.template;
  const params = await generator.params(api, body).then((p) => p.params, () => []);
  const templates = [{ name: spec.name, body, params, claims: [] }];
  const uploading = sample.intent === "upload";
  try {
    sample.contextObject = await generator.contextObject(api, uploading ? templates : [], document);
  } catch (error) {
    sample.uploadError = isUpstreamError(error) && error.status < 500 ? error.message : D.outputFailed;
    sample.toast = failureToast(SPECIFICATIONS.toasts.contextFailed, error);
    if (uploading) sample.document = null;
    return sample;
  }
  if (uploading) return sample;
  try {
    const result = await generator.generate(api, templates, document);
    const out = joinParagraphs(result.paragraphs);
    return { ...sample, result, output: out === "" ? D.emptyOutput : out };
  } catch (error) {
    sample.outputError = isUpstreamError(error) && error.status < 500 ? error.message : D.outputFailed;
    sample.toast = failureToast(SPECIFICATIONS.toasts.sampleFailed, error);
    return sample;
  }
}

/** The workbench's loader: the specification (or the not-found view), the generator's help, the help panel's state. */
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
  return json({ specification, doc, may, help: { open: help === "functions" || help === "context", tab, q: url.searchParams.get("hq") ?? "" } });
}
