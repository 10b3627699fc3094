import {
  CATEGORIZATION_LIMITS,
  CATEGORIZATION_MESSAGES,
  queryTextProblem,
} from "@contract/categorization-constants";
import { TagName } from "@contract/portfolio";

/** A tag's problem under the portfolio's rule (the contract's TagName, defined once): null when fine. */
const tagProblem = (tag: string) => {
  const parsed = TagName.safeParse(tag);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? null);
};

/** What the editor holds: the query's name, tags and JSON text. */
export type QueryValues = { name: string; tags: string[]; text: string };
export type QueryErrors = Partial<Record<keyof QueryValues, string[]>>;

/**
 * The editor's rules (spec 2 §5), one function for the browser and the action: Run and download need valid JSON;
 * Save and apply also a non-empty name and at least one tag (tags deduplicated when read).
 */
export function queryProblems(values: QueryValues, rule: "run" | "save"): QueryErrors {
  const errors: QueryErrors = {};
  const text = queryTextProblem(values.text);
  if (text) errors.text = [text];
  else if (values.text.length > CATEGORIZATION_LIMITS.text) errors.text = [`Query must be at most ${CATEGORIZATION_LIMITS.text} characters.`];
  if (rule === "save") {
    if (!values.name.trim()) errors.name = [CATEGORIZATION_MESSAGES.nameRequired];
    else if (values.name.trim().length > CATEGORIZATION_LIMITS.name) errors.name = [`Name must be at most ${CATEGORIZATION_LIMITS.name} characters.`];
    const tagErrors = values.tags.map((t) => tagProblem(t)).filter((p): p is string => p !== null);
    if (!values.tags.length) errors.tags = [CATEGORIZATION_MESSAGES.tagsRequired];
    else if (tagErrors.length) errors.tags = [tagErrors[0]!];
    else if (values.tags.length > CATEGORIZATION_LIMITS.tags) errors.tags = [`At most ${CATEGORIZATION_LIMITS.tags} tags.`];
  }
  return errors;
}

export const hasProblems = (errors: QueryErrors) => Object.values(errors).some((e) => e?.length);

/** Line endings as JSON.parse sees them equal: a posted textarea sends CRLF. */
const lines = (text: string) => text.replace(/\r\n?/g, "\n");

/** True when the editor's values differ from the saved query (spec 2 §4: dirty after any change). */
export function isDirty(values: QueryValues, saved: QueryValues): boolean {
  return (
    values.name.trim() !== saved.name ||
    lines(values.text) !== lines(saved.text) ||
    values.tags.length !== saved.tags.length ||
    values.tags.some((t, i) => t !== saved.tags[i])
  );
}
