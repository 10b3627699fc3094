import { z } from "zod";
import { MIN_PASSWORD_LENGTH } from "../../upstream/contract/auth";
import { splitTags } from "../ui/tag-input";
import { PEOPLE } from "./texts";

const V = PEOPLE.validation;

/** A required, trimmed text (spec 1 §5: names and email are trimmed on submit). */
const requiredText = (message: string) =>
  z.string({ required_error: message }).trim().min(1, message);

const firstName = requiredText(V.firstNameRequired);
const lastName = requiredText(V.lastNameRequired);
const organizations = z.array(z.string()).default([]);
const isBot = z.boolean().default(false);
const script = z.string().optional();
const scriptKey = z.string().optional();
const email = z.string().email();

/** Assistants (spec 1 §2): one text field of emails separated by ";", each well-formed. */
export const assistantsField = z
  .string()
  .optional()
  .transform((v) => splitTags(v))
  .superRefine((list, ctx) => {
    const bad = list.find((e) => !email.safeParse(e).success);
    if (bad !== undefined) ctx.addIssue({ code: "custom", message: PEOPLE.assistantInvalid(bad) });
  });

/** The new-user form (spec 1 §5 New user). Shared by the browser (instant feedback) and the action. */
export const NewUserSchema = z.object({
  firstName,
  lastName,
  email: requiredText(V.emailRequired).pipe(z.string().email(V.emailInvalid)),
  password: z
    .string({ required_error: V.passwordRequired })
    .min(1, V.passwordRequired)
    .min(MIN_PASSWORD_LENGTH, V.passwordShort),
  organizations,
  isBot,
  script,
  scriptKey,
  assistants: assistantsField,
});
export type NewUser = z.infer<typeof NewUserSchema>;

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
export type EditUser = z.infer<typeof EditUserSchema>;

/** Password randomisation (spec 1 §5): a random base-36 string, from the platform's CSPRNG. */
export function randomPassword(length = 12): string {
  const bytes = new Uint8Array(length);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => (b % 36).toString(36)).join("");
}

/** Change password (spec 1 §5): required, at least 6 characters. */
export const ChangePasswordSchema = z.object({
  password: z
    .string({ required_error: V.passwordRequired })
    .min(1, V.passwordRequired)
    .min(MIN_PASSWORD_LENGTH, V.passwordShort),
});

/** The bot fields' values to send: the chosen version's key for a bot, nothing otherwise. */
export const scriptKeyFor = (v: { isBot: boolean; scriptKey?: string }) => (v.isBot && v.scriptKey ? v.scriptKey : null);
