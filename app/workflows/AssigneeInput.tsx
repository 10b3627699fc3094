import { useEffect, useRef, useState, type InputHTMLAttributes } from "react";
import { useHydrated } from "~/ui/hydrated";
import { ASSIGNEE_SUGGEST_URL } from "./assignees";

/** How long typing pauses before the suggestions are asked for. */
const SUGGEST_DEBOUNCE_MS = 150;

/**
 * One assignee's e-mail (the docket's assignee filter). Without JavaScript it is the plain e-mail input it renders;
 * with it, the browser's own suggestion list (a `<datalist>`, keyboard and screen readers included) is filled from
 * ASSIGNEE_SUGGEST_URL as the user types, so a paralegal holding only docketing_tasks.read finds colleagues by name.
 */
export function AssigneeInput({ id, onInput, ...input }: InputHTMLAttributes<HTMLInputElement> & { id: string }) {
  const hydrated = useHydrated();
  const [options, setOptions] = useState<string[]>([]);
  const timer = useRef<number | undefined>(undefined);
  const request = useRef<AbortController | null>(null);
  useEffect(
    () => () => {
      window.clearTimeout(timer.current);
      request.current?.abort();
    },
    [],
  );

  function suggest(text: string) {
    window.clearTimeout(timer.current);
    request.current?.abort();
    const q = text.trim();
    if (q === "") return setOptions([]);
    timer.current = window.setTimeout(async () => {
      const controller = new AbortController();
      request.current = controller;
      try {
        const response = await fetch(`${ASSIGNEE_SUGGEST_URL}?q=${encodeURIComponent(q)}`, { signal: controller.signal, headers: { Accept: "application/json" } });
        const list: unknown = response.ok ? await response.json() : [];
        setOptions(Array.isArray(list) ? list.filter((s): s is string => typeof s === "string") : []);
      } catch {
        // Aborted by newer typing, or offline: the input works without suggestions.
      }
    }, SUGGEST_DEBOUNCE_MS);
  }

  const listId = `${id}-suggestions`;
  return (
    <>
      <input
        id={id}
        {...input}
        list={hydrated ? listId : undefined}
        onInput={(e) => {
          onInput?.(e);
          suggest(e.currentTarget.value);
        }}
      />
      {hydrated ? (
        <datalist id={listId}>
          {options.map((email) => (
            <option key={email} value={email} />
          ))}
        </datalist>
      ) : null}
    </>
  );
}
