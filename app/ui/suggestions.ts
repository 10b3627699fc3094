import { useEffect, useRef, useState } from "react";
import { fetchJson } from "./fetch-json";

/** One suggestion: the value a field takes, and what the list shows (a person's name for their e-mail). */
export type Suggestion = { value: string; label: string };

/**
 * A suggestion route answers a JSON list of strings, or of `{ value, label }` (assignees: the e-mail and the name).
 * Anything else in the list is ignored.
 */
export function readSuggestions(list: unknown): Suggestion[] {
  if (!Array.isArray(list)) return [];
  const out: Suggestion[] = [];
  for (const item of list as unknown[]) {
    if (typeof item === "string") out.push({ value: item, label: item });
    else if (item && typeof item === "object" && typeof (item as Suggestion).value === "string") {
      const { value, label } = item as Partial<Suggestion> & { value: string };
      out.push({ value, label: typeof label === "string" && label.trim() !== "" ? label : value });
    }
  }
  return out;
}

/**
 * Suggestions from `url?q=` as the user types: asked `debounceMs` after typing pauses, the previous request aborted by
 * newer typing, nothing asked for empty text; an error or being offline is simply no suggestions.
 */
export function useSuggestions(url: string | undefined, debounceMs: number) {
  const [suggestions, setSuggestions] = useState<Suggestion[]>([]);
  const timer = useRef<number | undefined>(undefined);
  const request = useRef<AbortController | null>(null);
  useEffect(
    () => () => {
      window.clearTimeout(timer.current);
      request.current?.abort();
    },
    [],
  );
  const clear = () => setSuggestions([]);
  function suggest(text: string) {
    window.clearTimeout(timer.current);
    request.current?.abort();
    const q = text.trim();
    if (!url || q === "") return clear();
    timer.current = window.setTimeout(async () => {
      const controller = new AbortController();
      request.current = controller;
      try {
        setSuggestions(readSuggestions(await fetchJson<unknown>(`${url}${url.includes("?") ? "&" : "?"}q=${encodeURIComponent(q)}`, controller.signal)));
      } catch {
        // Aborted by newer typing (which asks again), or refused or offline: no suggestions.
        if (!controller.signal.aborted) setSuggestions([]);
      }
    }, debounceMs);
  }
  return { suggestions, suggest, clear };
}
