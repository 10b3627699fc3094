import { json } from "@remix-run/node";
import { FORM_TEXTS } from "./form-texts";

/**
 * The posted form, urlencoded or multipart, for every action. In the running server the request guard
 * (server/guard.ts) has already bounded the body by the route's limit, the number of fields, array indexes and names,
 * and re-serialised multipart bodies; anything that still cannot be parsed is the client's fault: a 400, never a 500.
 */
export async function readForm(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw json({ message: FORM_TEXTS.unreadable }, { status: 400 });
  }
}

/** A file field: the File when one was chosen (non-empty, named), else null. */
export function fileOf(form: FormData, name: string): File | null {
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
