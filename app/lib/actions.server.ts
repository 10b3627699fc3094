import { json } from "@remix-run/node";
import type { ToastData } from "~/ui/toast";
import { TRY_LATER, toasts } from "./toast.server";
import { textOf } from "./form.server";
import { isUpstreamError } from "./upstream.server";

/**
 * A failed action that re-renders its page: the body (conform's reply, with everything typed) plus the failure toast,
 * shown at once with or without JavaScript. Successes redirect with a flash toast instead.
 */
export function failed<T extends object>(body: T, toast: ToastData, status: number) {
  return json({ ...body, toast }, { status });
}

/**
 * A Response caught by an action's try/catch is not a failure to show: the signed-in API throws the sign-in redirect
 * when the upstream answers 401 (session revoked), and the not-found answer. Rethrow it so Remix answers it.
 */
export function rethrowResponse(error: unknown): void {
  if (error instanceof Response) throw error;
}

/**
 * Whether the upstream's refusal says something the user should read: a 4xx (the request's problem), a 503 (the
 * server cannot write now and says why: its database was replaced, it is read-only, it is busy) or a 507 (the disk
 * is full). Any other failure is the generic try-later text.
 */
export function speaks(error: unknown): error is { status: number; message: string } {
  return isUpstreamError(error) && ((error.status >= 400 && error.status < 500) || error.status === 503 || error.status === 507);
}

/**
 * The spec's failure toast: a title and the server's message, or the generic try-later text (spec 1 §8). A caught
 * Response (see rethrowResponse) is thrown again instead.
 */
export function failureToast(title: string, error: unknown): ToastData {
  rethrowResponse(error);
  const description = speaks(error) ? `${error.message} ${TRY_LATER}` : TRY_LATER;
  return { type: "error", message: title, description };
}

/** The status to answer for a failed upstream call: its own 4xx, 503 or 507, else 502. */
export function statusOf(error: unknown): number {
  rethrowResponse(error);
  return speaks(error) ? error.status : 502;
}

export const intentOf = (form: FormData): string => textOf(form, "intent");

export const isConfirmed = (form: FormData) => form.get("confirmed") === "yes";

/** What an upstream failure says to the user: its own message for a 4xx, 503 or 507, else the try-later text. */
export function reasonOf(error: unknown): string {
  rethrowResponse(error);
  return speaks(error) ? error.message : TRY_LATER;
}

/**
 * A partial success (DESIGN.md): the main record was saved, a follow-up step was not. Redirects to `to`
 * with one warning toast saying both: `saved` as its title ("User updated"), `notSaved(reason)` as its text.
 */
export function partialSuccess(
  context: Parameters<typeof toasts>[0],
  to: string,
  saved: string,
  notSaved: (reason: string) => string,
  error: unknown,
) {
  return toasts(context).redirectWithWarning(to, { message: saved, description: notSaved(reasonOf(error)) });
}
