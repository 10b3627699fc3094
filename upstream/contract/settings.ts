import { z } from "zod";

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

/** PUT /api/settings/users/{key} */
export const SettingPut = z.object({
  key: z.string(),
  value: SettingValue,
  secured: z.boolean().optional().default(false),
  owner: z.string(),
});
export type SettingPut = z.input<typeof SettingPut>;

/** Key characters allowed (spec 1 §5): letters, digits, hyphen, dot, underscore and tilde. */
export const SETTING_KEY = /^[A-Za-z0-9\-._~]+$/;

/** Strips every character other than letters, digits, hyphen, dot, underscore and tilde (spec 1 §5). */
export const stripSettingKey = (key: string) => key.replace(/[^A-Za-z0-9\-._~]/g, "");
