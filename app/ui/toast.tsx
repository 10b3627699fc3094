import { useEffect, useState } from "react";
import { useHydrated } from "./hydrated";

export type ToastData = { message: string; description?: string; type: "info" | "success" | "error" | "warning" };

/** Success toasts stay 3 s, errors 5 s (spec 1 §9). */
export const TOAST_TIMEOUT_MS: Record<ToastData["type"], number> = {
  success: 3000,
  info: 3000,
  error: 5000,
  warning: 5000,
};

/**
 * One toast. Without JavaScript it is a banner at the top of the page; with it, it dismisses itself after its
 * timeout and has a close button. Errors are announced assertively.
 */
export function Toast({ toast }: { toast: ToastData | null | undefined }) {
  const [hidden, setHidden] = useState(false);
  const hydrated = useHydrated();
  useEffect(() => {
    setHidden(false);
    if (!toast) return;
    const timer = window.setTimeout(() => setHidden(true), TOAST_TIMEOUT_MS[toast.type]);
    return () => window.clearTimeout(timer);
  }, [toast]);
  if (!toast || hidden) return null;
  const urgent = toast.type === "error" || toast.type === "warning";
  return (
    <div
      className={`toast toast-${toast.type}`}
      role={urgent ? "alert" : "status"}
      aria-live={urgent ? "assertive" : "polite"}
      data-testid="toast"
    >
      <div className="toast-body">
        <strong className="toast-title">{toast.message}</strong>
        {toast.description ? <p className="toast-description">{toast.description}</p> : null}
      </div>
      {hydrated ? (
        <button type="button" className="toast-close" onClick={() => setHidden(true)} aria-label="Dismiss">
          ×
        </button>
      ) : null}
    </div>
  );
}

/** Where toasts stack. */
export function ToastRegion({ toasts }: { toasts: Array<ToastData | null | undefined> }) {
  return (
    <div className="toast-region">
      {toasts.map((t, i) => (t ? <Toast key={`${i}-${t.message}`} toast={t} /> : null))}
    </div>
  );
}

/** The toast an action answered with (see `failed` in lib/actions.server), if any. */
export function toastOf(data: unknown): ToastData | null {
  if (!data || typeof data !== "object" || !("toast" in data)) return null;
  const t = (data as { toast: unknown }).toast;
  if (!t || typeof t !== "object" || typeof (t as ToastData).message !== "string") return null;
  return t as ToastData;
}
