import { createCookieSessionStorage, type AppLoadContext, type SessionStorage } from "@remix-run/node";
import { createToastUtilsWithCustomSession, type ToastMessage } from "remix-toast";

export { TRY_LATER } from "./form-texts";

type ToastUtils = ReturnType<typeof createToastUtilsWithCustomSession>;
const utils = new Map<string, ToastUtils>();

export function toasts(context: Pick<AppLoadContext, "sessionSecrets" | "cookieSecure">): ToastUtils {
  const key = `${context.cookieSecure}\n${context.sessionSecrets.join("\n")}`;
  let u = utils.get(key);
  if (!u) {
    const storage: SessionStorage = createCookieSessionStorage({
      cookie: {
        name: "toast",
        httpOnly: true,
        sameSite: "lax",
        path: "/",
        secure: context.cookieSecure,
        secrets: context.sessionSecrets,
      },
    });
    u = createToastUtilsWithCustomSession(storage);
    utils.set(key, u);
  }
  return u;
}

const HAS_TOAST_COOKIE = /(?:^|;\s*)toast=/;

/**
 * The flash toast of this request, if any, and the Set-Cookie that consumes it. Most pages carry none: then no cookie
 * is read, signed or written (remix-toast re-signs and sends its cookie on every page otherwise).
 */
export async function readToast(
  request: Request,
  context: Pick<AppLoadContext, "sessionSecrets" | "cookieSecure">,
): Promise<{ toast: ToastMessage | null; headers: Headers | null }> {
  if (!HAS_TOAST_COOKIE.test(request.headers.get("Cookie") ?? "")) return { toast: null, headers: null };
  const { toast, headers } = await toasts(context).getToast(request);
  return { toast: toast ?? null, headers };
}
