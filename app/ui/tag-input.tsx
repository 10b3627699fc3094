import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import { FieldErrors, useFirstError } from "./fields";
import { useHydrated } from "./hydrated";
import { useSuggestions } from "./suggestions";

/** Tag separator (spec 1 §9) and the suggestion debounce of tag inputs. */
const TAG_SEPARATOR = ";";
const TAG_SUGGEST_DEBOUNCE_MS = 25;
const MAX_SUGGESTIONS = 50;

/** Splits a submitted tag field: trims, drops empty parts and case-insensitive duplicates (first spelling wins). */
export function splitTags(value: string | null | undefined, separator = TAG_SEPARATOR): string[] {
  if (!value) return [];
  const seen = new Set<string>();
  const tags: string[] = [];
  for (const part of value.split(separator)) {
    const tag = part.trim();
    const key = tag.toLowerCase();
    if (tag && !seen.has(key)) {
      seen.add(key);
      tags.push(tag);
    }
  }
  return tags;
}

export const joinTags = (tags: readonly string[], separator = TAG_SEPARATOR) => tags.join(`${separator} `);

type TagInputProps = {
  /** The text input's id (the label points at it). */
  id: string;
  /** The form field: one text value, the tags joined by "; " — the same with and without JavaScript. */
  name: string;
  label: string;
  defaultValue: readonly string[];
  separator?: string;
  /** A resource route answering a JSON array of strings for `?q=`; asked only for non-empty text. */
  suggestUrl?: string;
  debounceMs?: number;
  /** A message for a tag that must not be added (shown at once with JavaScript; the server checks again). */
  validate?: (tag: string) => string | null;
  /** Server-side messages. */
  errors?: string[];
  /** Where the errors render (aria-describedby); defaults to `${id}-errors`. */
  errorId?: string;
  disabled?: boolean;
  hint?: ReactNode;
  placeholder?: string;
  /** Called with the tags whenever they change (with JavaScript): e.g. a page tracking unsaved changes. */
  onChange?: (tags: string[]) => void;
  /** The form the field belongs to when it sits outside it (the `form` attribute). */
  form?: string;
};

/**
 * A tag input. Without JavaScript it is a text field of tags separated by ";". With JavaScript the tags are chips
 * (each with a remove button), Enter or the separator adds what was typed, Backspace in the empty box removes the
 * last tag, and suggestions show as a listbox (arrow keys, Enter, Escape) — the ARIA combobox pattern.
 */
export function TagInput(props: TagInputProps) {
  const hydrated = useHydrated();
  const first = useFirstError(props.id, props.errors);
  if (hydrated) return <ChipInput {...props} />;
  const { id, name, label, defaultValue, separator = TAG_SEPARATOR, errors, disabled, hint, placeholder, form } = props;
  const errorId = props.errorId ?? `${id}-errors`;
  const hintId = `${id}-hint`;
  const describedBy = [hintId, errors?.length ? errorId : null].filter(Boolean).join(" ");
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        form={form}
        type="text"
        defaultValue={joinTags(defaultValue, separator)}
        disabled={disabled}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={describedBy}
        autoComplete="off"
        placeholder={placeholder}
        autoFocus={first}
      />
      <p id={hintId} className="field-hint">
        {hint ?? `Separate entries with "${separator}".`}
      </p>
      <FieldErrors id={errorId} errors={errors} />
    </div>
  );
}

/**
 * The problem of the text being typed, unless the form's errors already say it: the entry stays in the box (and in
 * the submitted value) until it is fixed, so the form's validation reports the same entry, and it must be said once.
 */
export function typedProblem(problem: string | null, errors: readonly string[] | undefined): string | null {
  return problem !== null && !errors?.includes(problem) ? problem : null;
}

function ChipInput({
  id,
  name,
  label,
  defaultValue,
  separator = TAG_SEPARATOR,
  suggestUrl,
  debounceMs = TAG_SUGGEST_DEBOUNCE_MS,
  validate,
  errors,
  errorId = `${id}-errors`,
  disabled,
  hint,
  placeholder,
  onChange,
  form,
}: TagInputProps) {
  // The server-rendered text field may hold typed text the user changed before hydration: start from the defaults.
  const [tags, setTags] = useState<string[]>(() => [...defaultValue]);
  const [text, setText] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const asked = useSuggestions(suggestUrl, debounceMs);
  const [active, setActive] = useState(-1);
  const inputRef = useRef<HTMLInputElement>(null);
  const listId = useId();
  const problemId = `${id}-problem`;
  const hintId = `${id}-hint`;

  const changed = useRef(onChange);
  changed.current = onChange;
  const firstTags = useRef(true);
  useEffect(() => {
    if (firstTags.current) firstTags.current = false;
    else changed.current?.(tags);
  }, [tags]);

  const has = (tag: string) => tags.some((t) => t.toLowerCase() === tag.toLowerCase());
  const suggestions = asked.suggestions.filter((s) => !has(s.value)).slice(0, MAX_SUGGESTIONS);
  const open = suggestions.length > 0;

  function closeSuggestions() {
    asked.clear();
    setActive(-1);
  }

  function add(raw: string): boolean {
    const parts = splitTags(raw, separator);
    if (parts.length === 0) return true;
    const next = [...tags];
    for (const tag of parts) {
      const message = validate?.(tag) ?? null;
      if (message) {
        setProblem(message);
        return false;
      }
      if (!next.some((t) => t.toLowerCase() === tag.toLowerCase())) next.push(tag);
    }
    setTags(next);
    setProblem(null);
    return true;
  }

  function commitText() {
    if (add(text)) setText("");
    closeSuggestions();
  }

  function suggest(q: string) {
    setActive(-1);
    asked.suggest(q);
  }

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === "ArrowDown" && open) {
      e.preventDefault();
      setActive((a) => (a + 1) % suggestions.length);
    } else if (e.key === "ArrowUp" && open) {
      e.preventDefault();
      setActive((a) => (a <= 0 ? suggestions.length - 1 : a - 1));
    } else if (e.key === "Escape" && open) {
      e.preventDefault();
      closeSuggestions();
    } else if (e.key === "Enter" || e.key === separator || (e.key === "Tab" && active >= 0 && open)) {
      const chosen = open && active >= 0 ? suggestions[active]?.value : undefined;
      if (chosen !== undefined) {
        e.preventDefault();
        if (add(chosen)) setText("");
        closeSuggestions();
      } else if (text.trim() !== "") {
        e.preventDefault();
        commitText();
      } else if (e.key === separator) {
        e.preventDefault();
      }
    } else if (e.key === "Backspace" && text === "" && tags.length > 0) {
      setTags(tags.slice(0, -1));
    }
  }

  const typed = typedProblem(problem, errors);
  const describedBy = [hint ? hintId : null, typed ? problemId : null, errors?.length ? errorId : null]
    .filter(Boolean)
    .join(" ");

  return (
    <div className="field tag-input">
      <label htmlFor={id}>{label}</label>
      <input type="hidden" name={name} form={form} value={joinTags([...tags, ...splitTags(text, separator)], separator)} />
      <div className={`tag-box${disabled ? " is-disabled" : ""}`} onClick={() => inputRef.current?.focus()}>
        <ul className="tag-list" aria-label={label}>
          {tags.map((tag) => (
            <li key={tag} className="tag">
              <span>{tag}</span>
              {disabled ? null : (
                <button
                  type="button"
                  className="tag-remove"
                  aria-label={`Remove ${tag}`}
                  onClick={(e) => {
                    e.stopPropagation();
                    setTags(tags.filter((t) => t !== tag));
                    inputRef.current?.focus();
                  }}
                >
                  ×
                </button>
              )}
            </li>
          ))}
        </ul>
        <div className="tag-entry">
          <input
            ref={inputRef}
            id={id}
            type="text"
            value={text}
            disabled={disabled}
            placeholder={placeholder}
            autoComplete="off"
            role="combobox"
            aria-autocomplete="list"
            aria-expanded={open}
            aria-controls={listId}
            aria-activedescendant={open && active >= 0 ? `${listId}-${active}` : undefined}
            aria-invalid={typed || errors?.length ? true : undefined}
            aria-describedby={describedBy || undefined}
            onChange={(e) => {
              const value = e.currentTarget.value;
              if (value.includes(separator)) {
                const head = value.slice(0, value.lastIndexOf(separator));
                const tail = value.slice(value.lastIndexOf(separator) + 1);
                if (add(head)) setText(tail);
                else setText(value);
                closeSuggestions();
                return;
              }
              setText(value);
              setProblem(null);
              suggest(value);
            }}
            onKeyDown={onKeyDown}
            onBlur={() => {
              // Keep what was typed as a tag when leaving the box (unless a suggestion is being clicked).
              window.setTimeout(() => {
                if (document.activeElement !== inputRef.current && text.trim() !== "") commitText();
                else if (document.activeElement !== inputRef.current) closeSuggestions();
              }, 150);
            }}
          />
          <ul id={listId} role="listbox" className="tag-suggestions" hidden={!open} aria-label={`${label} suggestions`}>
            {suggestions.map((s, i) => (
              <li
                key={s.value}
                id={`${listId}-${i}`}
                role="option"
                aria-selected={i === active}
                className={i === active ? "is-active" : undefined}
                onMouseDown={(e) => {
                  e.preventDefault();
                  if (add(s.value)) setText("");
                  closeSuggestions();
                  inputRef.current?.focus();
                }}
              >
                {s.label === s.value ? (
                  s.value
                ) : (
                  <>
                    {s.label} <span className="tag-suggestion-value">{s.value}</span>
                  </>
                )}
              </li>
            ))}
          </ul>
        </div>
      </div>
      {hint ? (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      ) : null}
      {typed ? (
        <p id={problemId} className="field-error" role="alert">
          {typed}
        </p>
      ) : null}
      <FieldErrors id={errorId} errors={errors} />
    </div>
  );
}
