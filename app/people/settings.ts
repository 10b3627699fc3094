import { LIMIT_MESSAGES, TEXT_LIMITS, hasForbiddenCharacters } from "@contract/limits";
import { stripSettingKey } from "@contract/settings";
import { PEOPLE } from "./texts";

const S = PEOPLE.settings;

/** What stands in for a secured value in the browser: secured values are never sent back in clear. */
export const MASK = "\u2022".repeat(8);

/** One row of the settings screen (spec 1 §3 User setting, with the client-side "saved" marker). */
export type SettingRow = {
  key: string;
  /** Text; for an object value its JSON (read-only); for a saved secured value the MASK. */
  value: string;
  secured: boolean;
  saved: boolean;
  object: boolean;
};

export type RowErrors = { key?: string; value?: string };

export const emptyRow = (): SettingRow => ({ key: "", value: "", secured: false, saved: false, object: false });

/**
 * Spec 1 §5: key and value required, keys unique ("Key \"<key>\" already exists." on every repeat); both bounded
 * like the contract's (upstream/contract/limits.ts).
 */
export function validateRows(rows: readonly SettingRow[]): RowErrors[] {
  const seen = new Set<string>();
  return rows.map((row) => {
    const errors: RowErrors = {};
    if (!row.key) errors.key = S.keyRequired;
    else if (seen.has(row.key)) errors.key = S.duplicate(row.key);
    else if (row.key.length > TEXT_LIMITS.settingKey) errors.key = LIMIT_MESSAGES.tooLong(S.key, TEXT_LIMITS.settingKey);
    if (row.key) seen.add(row.key);
    if (!row.object && row.value.trim() === "") errors.value = S.valueRequired;
    else if (!row.object && row.value.length > TEXT_LIMITS.settingValue) {
      errors.value = LIMIT_MESSAGES.tooLong(S.value, TEXT_LIMITS.settingValue);
    } else if (!row.object && hasForbiddenCharacters(row.value, true)) errors.value = LIMIT_MESSAGES.badCharacters(S.value);
    return errors;
  });
}

export const hasErrors = (errors: readonly RowErrors[]) => errors.some((e) => e.key || e.value);
export const hasDuplicates = (rows: readonly SettingRow[]) => new Set(rows.map((r) => r.key).filter(Boolean)).size !== rows.filter((r) => r.key).length;

/** The rows as the form posts them: `rows` (count), `key.i`, `value.i`, `secured.i`, `saved.i`, `object.i`. */
export function rowsFromForm(form: FormData): SettingRow[] {
  const count = Math.min(Number(form.get("rows")) || 0, 500);
  const text = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" ? v : "";
  };
  return Array.from({ length: count }, (_, i) => ({
    key: stripSettingKey(text(`key.${i}`)),
    value: text(`value.${i}`),
    secured: form.get(`secured.${i}`) === "on",
    saved: text(`saved.${i}`) === "1",
    object: text(`object.${i}`) === "1",
  }));
}

export { stripSettingKey };
