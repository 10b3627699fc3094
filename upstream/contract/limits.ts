/**
 * Bounds of every text field and list the upstream stores (hostile input is bounded before any work), defined once: the
 * upstream's contract schemas and the back office's form schemas both read them. No zod here, so a route module that
 * only needs a message (texts.ts) does not ship zod to the browser. The reasons are in docs/decisions/text-limits.md.
 */
import { ALL_PERMISSIONS } from "./permissions";

/** Maximum length (UTF-16 code units, as `String.length` and the browser's `maxlength` count them). */
export const TEXT_LIMITS = {
  /** First and last names; team, organization and specification names. */
  name: 200,
  /** RFC 5321's longest usable address. */
  email: 254,
  /** Passwords (hashed with scrypt; the bound keeps a sign-in cheap). */
  password: 1_000,
  /** Specification descriptions (the bound shipped with specifications; lowering it would lock existing records). */
  description: 5_000,
  /** One tag. */
  tag: 100,
  /** A specification's Handlebars template (the bound shipped with specifications; large generated templates). */
  template: 500_000,
  /** A record id sent by a client (ids are UUIDs). */
  id: 100,
  /** A bot's script key: `{script ≤ 100}/v{n}/{file ≤ 100}`. */
  scriptKey: 250,
  /** A user setting's key. */
  settingKey: 200,
  /** A user setting's value, as JSON text. */
  settingValue: 100_000,
  /** One registration or customer number (5 to 9 digits; room for spaces around them). */
  authorizationNumber: 20,
  /** The `q` search text of every list and suggestion query. */
  search: 200,
} as const;

/** Maximum number of items of every list a client sends. */
export const LIST_LIMITS = {
  /** Organizations of one user. */
  organizations: 200,
  /** Members of one team, and assistants of one user (they become the assistants team's members). */
  members: 1_000,
  /** Tags of one specification. */
  tags: 50,
  /** Registration numbers, and customer numbers, of one user. */
  authorizationNumbers: 200,
  /** Permissions of one user: at most every permission string there is. */
  permissions: ALL_PERMISSIONS.length,
  /** Model ids of one organization. */
  models: 200,
} as const;

/**
 * Control characters (C0, DEL, C1) refused in one-line fields: everything but tab. Newlines cannot be typed in a
 * one-line input; a NUL or an escape sequence in a name is an attack or a corrupt paste, never a name.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const ONE_LINE_FORBIDDEN = /[\u0000-\u0008\u000A-\u001F\u007F-\u009F]/;
/** In multi-line fields (descriptions, templates, setting values) tab, line feed and carriage return are allowed. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const MULTI_LINE_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

/** True when `value` holds a control character the field does not allow. */
export function hasForbiddenCharacters(value: string, multiline = false): boolean {
  return (multiline ? MULTI_LINE_FORBIDDEN : ONE_LINE_FORBIDDEN).test(value);
}

/** The messages of the bounds, for the upstream's 400 (after the field's name) and the forms. */
export const LIMIT_MESSAGES = {
  tooLong: (label: string, max: number) => `${label} must be at most ${max.toLocaleString("en-US")} characters.`,
  badCharacters: (label: string) => `${label} contains characters that are not allowed.`,
  tooMany: (things: string, max: number) => `At most ${max.toLocaleString("en-US")} ${things}.`,
} as const;

/**
 * Required-field messages that several domains share (spec 1 §5, spec 2 §5), for the upstream's 400 (after the field's
 * name) and the forms; each domain's messages point here instead of spelling them again.
 */
export const FIELD_MESSAGES = {
  nameRequired: "Name is required",
  emailRequired: "Email is required",
  typeRequired: "Type is required",
} as const;

/** Spec 2 §8's toasts of a collection's create, update and delete (each screen's texts.ts spreads them; the upstream's texts point here). */
export const SAVE_TOASTS = {
  created: "Create completed",
  updated: "Update completed",
  deleted: "Delete completed",
  createFailed: "Create failed",
  updateFailed: "Update failed",
  deleteFailed: "Delete failed",
} as const;

/** "Please, try again later or contact our development team." — added to most failure toasts (spec 1 §8, spec 3 §8). */
export const TRY_LATER = "Please, try again later or contact our development team.";
