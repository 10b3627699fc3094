import { z } from "zod";
import { LIMIT_MESSAGES, TEXT_LIMITS, boundedText, hasForbiddenCharacters } from "./common";

export * from "./settings-constants";

/** A setting value: text, or an object stored by other tools (read-only on the settings screen). */
export const SettingValue = z.union([z.string(), z.record(z.unknown()), z.array(z.unknown())]);
export type SettingValue = z.infer<typeof SettingValue>;

/** A user setting (spec 1 §3). */
export const UserSetting = z.object({
  key: z.string(),
  value: SettingValue,
  owner: z.string(),
  secured: z.boolean(),
});
export type UserSetting = z.infer<typeof UserSetting>;

/** GET /api/settings/users/{owner} — by key. */
export const UserSettings = z.array(UserSetting);

/** How deep an object value may nest (objects are stored by other tools; none nests deeper). */
const MAX_SETTING_DEPTH = 32;

/**
 * The problem of a setting value a client sends, or null: too deep, a string (or object key) with a control character
 * other than tab and newlines, or longer than TEXT_LIMITS.settingValue as JSON. Walks without recursion.
 */
function settingValueProblem(value: unknown): string | null {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (typeof v === "string") {
      if (hasForbiddenCharacters(v, true)) return LIMIT_MESSAGES.badCharacters("Value");
    } else if (v !== null && typeof v === "object") {
      if (depth >= MAX_SETTING_DEPTH) return `Value must nest at most ${MAX_SETTING_DEPTH} levels deep.`;
      for (const [k, inner] of Object.entries(v)) {
        if (hasForbiddenCharacters(k, true)) return LIMIT_MESSAGES.badCharacters("Value");
        stack.push([inner, depth + 1]);
      }
    }
  }
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > TEXT_LIMITS.settingValue ? LIMIT_MESSAGES.tooLong("Value", TEXT_LIMITS.settingValue) : null;
}

/** PUT /api/settings/users/{key} */
export const SettingPut = z.object({
  key: boundedText("Key", TEXT_LIMITS.settingKey),
  value: SettingValue.superRefine((value, ctx) => {
    const problem = settingValueProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  }),
  secured: z.boolean().optional().default(false),
  owner: boundedText("Owner", TEXT_LIMITS.email),
});
export type SettingPut = z.input<typeof SettingPut>;

/** Key characters allowed (spec 1 §5): letters, digits, hyphen, dot, underscore and tilde. */
export const SETTING_KEY = /^[A-Za-z0-9\-._~]+$/;

/** Strips every character other than letters, digits, hyphen, dot, underscore and tilde (spec 1 §5). */
export const stripSettingKey = (key: string) => key.replace(/[^A-Za-z0-9\-._~]/g, "");
