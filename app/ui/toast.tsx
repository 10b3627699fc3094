import { useEffect, useId, useState } from "react";
import { useHydrated } from "./hydrated";

export type ToastData = {
  message: string;
  description?: string;
  type: "info" | "success" | "error" | "warning";
  /**
   * How long it stays (ms), when not its type's default (a sync's result stays 10 s: it is long enough to need
   * reading).
   */
  duration?: number;
};

/** Success toasts stay 3 s, errors 5 s (spec 1 §9). */
const TOAST_TIMEOUT_MS: Record<ToastData["type"], number> = {
  success: 3000,
  info: 3000,
  error: 5000,
  warning: 5000,
};

/** A dismissal timer this late (ms) ran after a long task: the page could not respond meanwhile. */
const TOAST_LATE_MS = 500;
/** Then the toast stays this much longer (ms), counted from when the page responds again. */
const TOAST_AFTER_BUSY_MS = 1500;

/**
 * The toast's title as the first sentence of its text: a full stop is added when the title has no final punctuation
 * and a description follows ("Team already exists" + "Please, try again later…" reads "Team already exists. Please,
 * try again later…").
 */
export function toastTitle(toast: Pick<ToastData, "message" | "description">): string {
  const title = toast.message.trim();
  if (!toast.description?.trim() || /[.!?…:]$/.test(title)) return title;
  return `${title}.`;
}

/** Sentences joined with a space, a full stop added to any that lacks final punctuation ("A", "B." -> "A. B."). */
export function joinSentences(...parts: Array<string | null | undefined>): string {
  const kept = parts.map((p) => p?.trim() ?? "").filter(Boolean);
  return kept.map((p, i) => (i < kept.length - 1 && !/[.!?…:]$/.test(p) ? `${p}.` : p)).join(" ");
}

/**
 * A toast's description as sentences: failure toasts put the server's message before the spec's "Please, try again
 * later…" (lib/actions.server `failureToast`); a message without its own full stop gets one.
 */
function toastDescription(description: string | undefined): string {
  return (description ?? "").trim().replace(/([^\s.!?…:])\s+(?=Please, )/g, "$1. ");
}

/** The whole text of a toast, as it reads (and as a screen reader announces it). */
export function toastText(toast: Pick<ToastData, "message" | "description">): string {
  return joinSentences(toast.message, toastDescription(toast.description));
}

/**
 * One toast. With JavaScript it floats over the top right, dismisses itself after its timeout (longer if the page was
 * too busy to respond when the time ran out: docs/decisions/toast-time.md) and has a close button. Without JavaScript
 * it is a banner in the page flow (it pushes the page down, covering nothing) with a close control that needs no
 * script: a visually hidden checkbox whose label is the ✕ (CSS hides the banner once it is checked). Errors are
 * announced assertively.
 */
export function Toast({ toast }: { toast: ToastData | null | undefined }) {
  const [hidden, setHidden] = useState(false);
  const hydrated = useHydrated();
  const toggleId = `toast-dismiss-${useId().replace(/:/g, "")}`;
  useEffect(() => {
    setHidden(false);
    if (!toast) return;
    let timer = 0;
    const arm = (ms: number) => {
      const due = performance.now() + ms;
      timer = window.setTimeout(() => {
        // Late: the page was too busy to run the timer (a long task, such as a heavy script loading), so the toast's
        // time ran out while nothing else could happen on the page either. It stays a while once the page responds.
        if (performance.now() - due > TOAST_LATE_MS) arm(TOAST_AFTER_BUSY_MS);
        else setHidden(true);
      }, ms);
    };
    arm(toast.duration ?? TOAST_TIMEOUT_MS[toast.type]);
    return () => window.clearTimeout(timer);
  }, [toast]);
  if (!toast || hidden) return null;
  const urgent = toast.type === "error" || toast.type === "warning";
  const description = toastDescription(toast.description);
  const body = (
    <div
      className={`toast toast-${toast.type}${hydrated ? " toast-floating" : " toast-banner"}`}
      role={urgent ? "alert" : "status"}
      aria-live={urgent ? "assertive" : "polite"}
      data-testid="toast"
    >
      <p className="toast-body">
        <strong className="toast-title">{toastTitle(toast)}</strong>
        {description ? <span className="toast-description"> {description}</span> : null}
      </p>
      {hydrated ? (
        <button type="button" className="toast-close" onClick={() => setHidden(true)} aria-label="Dismiss" title="Dismiss">
          ×
        </button>
      ) : (
        <label htmlFor={toggleId} className="toast-close" title="Dismiss">
          <span aria-hidden="true">×</span>
          <span className="visually-hidden">Dismiss</span>
        </label>
      )}
    </div>
  );
  if (hydrated) return body;
  return (
    <div className="toast-slot">
      <input type="checkbox" id={toggleId} className="toast-dismiss visually-hidden" />
      {body}
    </div>
  );
}

/** Where toasts stack. */
export function ToastRegion({ toasts }: { toasts: Array<ToastData | null | undefined> }) {
  const hydrated = useHydrated();
  if (!toasts.some(Boolean)) return null;
  return (
    <div className={hydrated ? "toast-region" : "toast-region toast-region-static"}>
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
