import { z } from "zod";
import { MIN_PASSWORD_LENGTH } from "@contract/people";
import { LIMIT_MESSAGES, LIST_LIMITS, TEXT_LIMITS, limitText } from "@contract/common";
import { splitTags } from "~/ui/tag-input";
import { PEOPLE } from "./texts";

const V = PEOPLE.validation;
const L = PEOPLE.labels;

/** A required, trimmed text (spec 1 §5: names and email are trimmed on submit). */
const requiredText = (message: string) =>
  z.string({ required_error: message }).trim().min(1, message);

/** Bounded like the contract's: "First name must be at most 200 characters.", no control characters. */
const firstName = limitText(requiredText(V.firstNameRequired), L.firstName, TEXT_LIMITS.name);
const lastName = limitText(requiredText(V.lastNameRequired), L.lastName, TEXT_LIMITS.name);
const organizations = z
  .array(z.string().max(TEXT_LIMITS.id))
  .max(LIST_LIMITS.organizations, LIMIT_MESSAGES.tooMany("organizations", LIST_LIMITS.organizations))
  .default([]);
const isBot = z.boolean().default(false);
const script = limitText(z.string(), L.script, TEXT_LIMITS.scriptKey).optional();
const scriptKey = limitText(z.string(), L.version, TEXT_LIMITS.scriptKey).optional();
const email = z.string().email();
/** A password as the forms take it: required, at least 6 characters (spec 1 §5), at most TEXT_LIMITS.password. */
const password = limitText(
  z.string({ required_error: V.passwordRequired }).min(1, V.passwordRequired).min(MIN_PASSWORD_LENGTH, V.passwordShort),
  L.password,
  TEXT_LIMITS.password,
);

/** Assistants (spec 1 §2): one text field of emails separated by ";", each well-formed. */
const assistantsField = z
  .string()
  .optional()
  .transform((v) => splitTags(v))
  .superRefine((list, ctx) => {
    if (list.length > LIST_LIMITS.members) {
      ctx.addIssue({ code: "custom", message: LIMIT_MESSAGES.tooMany("assistants", LIST_LIMITS.members) });
      return;
    }
    const long = list.find((e) => e.length > TEXT_LIMITS.email);
    if (long !== undefined) {
      ctx.addIssue({ code: "custom", message: LIMIT_MESSAGES.tooLong(L.email, TEXT_LIMITS.email) });
      return;
    }
    const bad = list.find((e) => !email.safeParse(e).success);
    if (bad !== undefined) ctx.addIssue({ code: "custom", message: PEOPLE.assistantInvalid(bad) });
  });

/** The new-user form (spec 1 §5 New user). Shared by the browser (instant feedback) and the action. */
export const NewUserSchema = z.object({
  firstName,
  lastName,
  email: limitText(requiredText(V.emailRequired), L.email, TEXT_LIMITS.email).pipe(z.string().email(V.emailInvalid)),
  password,
  organizations,
  isBot,
  script,
  scriptKey,
  assistants: assistantsField,
});

/** The edit-user form (spec 1 §5 Edit user: first and last name required). */
export const EditUserSchema = z.object({
  firstName,
  lastName,
  organizations,
  isBot,
  script,
  scriptKey,
  assistants: assistantsField,
});

/** Password randomisation (spec 1 §5): a random base-36 string, from the platform's CSPRNG. */
export function randomPassword(length = 12): string {
  const bytes = new Uint8Array(length);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => (b % 36).toString(36)).join("");
}

/** Change password (spec 1 §5): required, at least 6 characters. */
export const ChangePasswordSchema = z.object({ password });

/** The bot fields' values to send: the chosen version's key for a bot, nothing otherwise. */
export const scriptKeyFor = (v: { isBot: boolean; scriptKey?: string }) => (v.isBot && v.scriptKey ? v.scriptKey : null);
