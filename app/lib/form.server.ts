import { json } from "@remix-run/node";
import { readMultipart } from "../../upstream/src/lib/multipart";
import { FORM_TEXTS } from "./form-texts";

/**
 * The posted form, urlencoded or multipart, for every action. In the running server the request guard
 * (server/guard.ts) has already bounded the body by the route's limit, the number of fields, array indexes and names,
 * and re-serialised multipart bodies; anything that still cannot be parsed is the client's fault: a 400, never a 500.
 * A multipart body is read by the streaming reader (upstream/src/lib/multipart.ts), which gives the event loop a turn
 * every few hundred KB: `request.formData()` parses an upload in one go, and every other request waits meanwhile.
 */
export async function readForm(request: Request): Promise<FormData> {
  try {
    const contentType = request.headers.get("content-type");
    if (/^\s*multipart\/form-data\s*(;|$)/i.test(contentType ?? "")) return await readMultipart(request.body, contentType);
    return await request.formData();
  } catch {
    throw json({ message: FORM_TEXTS.unreadable }, { status: 400 });
  }
}

/** A file field: the File when one was chosen (non-empty, named), else null. */
function fileOf(form: FormData, name: string): File | null {
  const value = form.get(name);
  return value instanceof File && value.size > 0 && value.name ? value : null;
}

/**
 * Refuses (400, thrown) a post missing any of `names`: fields a form always sends, even empty, so that a forged or
 * truncated post cannot save "nothing" over real data by omission.
 */
export function requireFields(form: FormData, names: readonly string[]): void {
  if (!names.every((name) => form.has(name))) throw json({ message: FORM_TEXTS.incomplete }, { status: 400 });
}

/** A text field's value ("" when absent or a file). */
export function textOf(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}

/**
 * The rule of one upload field, per route: its size limit and the field messages. The request guard (server/guard.ts)
 * bounds the whole body before it is read; this answers what is wrong with the file as the field's message.
 */
export type UploadRule = {
  maxBytes: number;
  /** When the file is larger than `maxBytes`. */
  tooLarge: string;
  /** When no file was chosen. */
  missing: string;
  /** The file names taken (by extension), and the message for others. */
  name?: RegExp;
  wrongType?: string;
};

export type UploadField =
  | { file: File; error: null }
  | { file: null; error: string; reason: "missing" | "tooLarge" | "wrongType" };

/** The file of upload field `name` checked against its route's `rule`: the file, or the field's message. */
export function fileField(form: FormData, name: string, rule: UploadRule): UploadField {
  const file = fileOf(form, name);
  if (!file) return { file: null, error: rule.missing, reason: "missing" };
  if (file.size > rule.maxBytes) return { file: null, error: rule.tooLarge, reason: "tooLarge" };
  if (rule.name && !rule.name.test(file.name)) {
    return { file: null, error: rule.wrongType ?? rule.missing, reason: "wrongType" };
  }
  return { file, error: null };
}
