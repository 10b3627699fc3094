import { useNavigation } from "@remix-run/react";
import { useEffect, useMemo, type FocusEvent, type KeyboardEvent, type SyntheticEvent } from "react";

/**
 * Controls that submit their GET form by themselves with JavaScript (filters, sort, page size, the portfolio
 * selector, the tag facet), for the keyboard as for the mouse:
 * - a select or radio moved by the keyboard (arrows, Home/End, Page keys, a letter) is the user still choosing: it
 *   commits on Enter (or Space for a radio) or on leaving it, not on every step; a pick with the mouse commits at once,
 *   as does a checkbox;
 * - focus comes back to the control once the new page is shown (the page remounts its controls with the new values,
 *   and a removed element takes focus with it to the body).
 */

const CHOOSING_KEYS = new Set(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "PageUp", "PageDown", "Home", "End"]);
/** A change this soon (ms) after a choosing key came from that key. */
const KEY_TO_CHANGE_MS = 1000;

type Choosing = { keyAt: number; pending: boolean };
const choosing = new WeakMap<Element, Choosing>();
const stateOf = (el: Element): Choosing => {
  let s = choosing.get(el);
  if (!s) choosing.set(el, (s = { keyAt: 0, pending: false }));
  return s;
};

/** The control to focus once the navigation an auto-submit started is over (a selector: the element is replaced). */
let focusAfter: string | null = null;

function selectorOf(el: Element | null): string | null {
  if (!(el instanceof HTMLElement)) return null;
  if (el.id) return `#${CSS.escape(el.id)}`;
  const name = el.getAttribute("name");
  if (!name) return null;
  const value = el instanceof HTMLInputElement && (el.type === "checkbox" || el.type === "radio") ? `[value="${CSS.escape(el.value)}"]` : "";
  return `${el.tagName.toLowerCase()}[name="${CSS.escape(name)}"]${value}`;
}

const isChoice = (el: EventTarget): el is HTMLSelectElement | HTMLInputElement =>
  el instanceof HTMLSelectElement || (el instanceof HTMLInputElement && (el.type === "radio" || el.type === "checkbox"));
const stepsByKeys = (el: Element) => el instanceof HTMLSelectElement || (el instanceof HTMLInputElement && el.type === "radio");

/**
 * The handlers of an auto-submitting control, or of a form or fieldset holding several (the events bubble; text
 * fields are left alone). `submit` sends the form; focus is put back on `focusTo` (the control, or where the user
 * went when leaving it committed the choice).
 */
export function useAutoSubmit(submit: (control: HTMLSelectElement | HTMLInputElement) => void) {
  return useMemo(() => {
    const commit = (control: HTMLSelectElement | HTMLInputElement, focusTo: Element | null) => {
      stateOf(control).pending = false;
      focusAfter = selectorOf(focusTo);
      submit(control);
    };
    return {
      onKeyDown(e: KeyboardEvent<HTMLElement>) {
        const el = e.target;
        if (!isChoice(el) || !stepsByKeys(el)) return;
        const s = stateOf(el);
        if (CHOOSING_KEYS.has(e.key) || (e.key.length === 1 && e.key !== " " && !e.ctrlKey && !e.metaKey && !e.altKey)) s.keyAt = Date.now();
        else if (s.pending && (e.key === "Enter" || (e.key === " " && el instanceof HTMLInputElement))) {
          e.preventDefault();
          commit(el, el);
        }
      },
      onChange(e: SyntheticEvent<HTMLElement>) {
        const el = e.target;
        if (!isChoice(el)) return;
        if (stepsByKeys(el) && Date.now() - stateOf(el).keyAt < KEY_TO_CHANGE_MS) stateOf(el).pending = true;
        else commit(el, el);
      },
      onBlur(e: FocusEvent<HTMLElement>) {
        const el = e.target;
        if (isChoice(el) && stateOf(el).pending) commit(el, e.relatedTarget);
      },
    };
  }, [submit]);
}

/** Puts focus back after an auto-submit's navigation (the app shell calls it once). */
export function useFocusAfterAutoSubmit() {
  const state = useNavigation().state;
  useEffect(() => {
    if (state !== "idle" || !focusAfter) return;
    const target = document.querySelector<HTMLElement>(focusAfter);
    focusAfter = null;
    target?.focus({ preventScroll: true });
  }, [state]);
}

/** The usual `submit`: the control's own form, as its submit button would send it. */
export const submitForm = (control: HTMLSelectElement | HTMLInputElement) => control.form?.requestSubmit();
