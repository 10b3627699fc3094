import { createCookieSessionStorage, type AppLoadContext, type SessionStorage } from "@remix-run/node";
import { createToastUtilsWithCustomSession } from "remix-toast";

/**
 * Toasts (spec 1 §8) travel in remix-toast's flash cookie, signed with our own secrets (its default secret is
 * public). Success toasts show 3 s, errors 5 s (spec 1 §9); without JavaScript they show as a banner.
 */
export const TOAST_MS = { success: 3000, error: 5000, info: 3000, warning: 5000 } as const;

/** "Please, try again later or contact our development team." — added to most failure toasts (spec 1 §8). */
export const TRY_LATER = "Please, try again later or contact our development team.";

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
