import { CONVERTER_LIMITS, CONVERTER_MESSAGES, ConvertedText, OCR_POLL, OcrJob, OcrResults, UPLOAD_ACCEPT, accepts, extensionOf } from "@contract/converters";
import { fileField } from "~/lib/form.server";
import { isUpstreamError, type Api } from "~/lib/upstream.server";
import { TEXT_FROM_FILE, type TextFromFileState } from "./text-from-file";

/**
 * The server half of the "load text from a file" widget (text-from-file.tsx), for the page that mounts it: its action
 * calls `textFromFileAction` when the form's intent is `TEXT_FROM_FILE.intent`, its loader `textFromFilePoll` for an
 * OCR job named in the URL. A PDF without a text layer (a scan) is read by OCR: a job on the server, polled.
 */
export async function textFromFileAction(api: Api, form: FormData): Promise<TextFromFileState> {
  const field = fileField(form, TEXT_FROM_FILE.field, {
    maxBytes: CONVERTER_LIMITS.fileBytes,
    tooLarge: CONVERTER_MESSAGES.tooLarge,
    missing: CONVERTER_MESSAGES.required,
  });
  if (!field.file) return { status: "error", message: field.error };
  const file = field.file;
  if (!accepts(UPLOAD_ACCEPT.text, file.name)) return { status: "error", message: CONVERTER_MESSAGES.invalidTextFile };
  const body = new FormData();
  body.set("file", file, file.name);
  try {
    const converted = await api.post(ConvertedText, "/api/converters/office2txt", body);
    if (converted.text.trim() || extensionOf(file.name) !== ".pdf") return { status: "done", name: converted.name, text: converted.text };
    // No text layer: recognise the pages.
    const ocr = new FormData();
    ocr.set("files", file, file.name);
    const { jobId } = await api.post(OcrJob, "/api/hub-pdf/ocr", ocr);
    return { status: "ocr", jobId, name: converted.name, tries: 0 };
  } catch (error) {
    if (isUpstreamError(error) && error.status < 500) return { status: "error", message: error.message };
    return { status: "error", message: failureFor(file.name) };
  }
}

/** The §8 text for a file that could not be read, by its kind. */
function failureFor(name: string): string {
  const ext = extensionOf(name);
  if (ext === ".txt") return CONVERTER_MESSAGES.readTxt;
  if (ext === ".eml") return CONVERTER_MESSAGES.extractEml;
  return CONVERTER_MESSAGES.extractOffice;
}

/**
 * The state of the OCR job named by the URL (`ocrJob`, `ocrTry`, `ocrName`), or null when none is: pending (the
 * page polls again, up to `OCR_POLL.tries`), done with its text, or failed with the server's message.
 */
export async function textFromFilePoll(api: Api, url: URL): Promise<TextFromFileState | null> {
  const jobId = url.searchParams.get(TEXT_FROM_FILE.jobParam);
  if (!jobId) return null;
  const tries = Math.max(0, Math.min(OCR_POLL.tries, Number(url.searchParams.get(TEXT_FROM_FILE.tryParam)) || 0));
  const name = (url.searchParams.get(TEXT_FROM_FILE.nameParam) ?? "").slice(0, 255);
  try {
    const answer = await api.raw("GET", `/api/hub-pdf/results/${encodeURIComponent(jobId)}`);
    if (answer.status === 202) {
      return tries >= OCR_POLL.tries ? { status: "error", message: CONVERTER_MESSAGES.convertMany } : { status: "ocr", jobId, name, tries };
    }
    const results = OcrResults.parse(await answer.json());
    return { status: "done", name, text: results.map((r) => r.txtResults.join("\n\n")).join("\n\n") };
  } catch (error) {
    return { status: "error", message: isUpstreamError(error) && error.status < 500 ? error.message : CONVERTER_MESSAGES.convertMany };
  }
}
