import { type InputHTMLAttributes } from "react";
import { useHydrated } from "~/ui/hydrated";
import { useSuggestions } from "~/ui/suggestions";
import { ASSIGNEE_SUGGEST_URL } from "./assignees";

/** How long typing pauses before the suggestions are asked for. */
const SUGGEST_DEBOUNCE_MS = 150;

/**
 * One assignee's e-mail (the docket's assignee filter). Without JavaScript it is the plain e-mail input it renders;
 * with it, the browser's own suggestion list (a `<datalist>`, keyboard and screen readers included) is filled from
 * ASSIGNEE_SUGGEST_URL as the user types — each person's e-mail with their name — so a paralegal holding only
 * docketing_tasks.read finds colleagues by name.
 */
export function AssigneeInput({ id, onInput, ...input }: InputHTMLAttributes<HTMLInputElement> & { id: string }) {
  const hydrated = useHydrated();
  const { suggestions, suggest } = useSuggestions(ASSIGNEE_SUGGEST_URL, SUGGEST_DEBOUNCE_MS);
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
          {suggestions.map((s) => (
            <option key={s.value} value={s.value} label={s.label === s.value ? undefined : s.label} />
          ))}
        </datalist>
      ) : null}
    </>
  );
}
