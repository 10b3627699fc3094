import { z } from "zod";
import { LIST_LIMITS, TEXT_LIMITS, boundedList, boundedText } from "./common";

/** A user's portfolio authorization (spec 1 §3), matched by email. `id` is the user's id. */
export const PairAuthorization = z.object({
  id: z.string(),
  email: z.string(),
  registrationNumbers: z.array(z.string()),
  customerNumbers: z.array(z.string()),
});
export type PairAuthorization = z.infer<typeof PairAuthorization>;

/** GET /api/pair-authorizator/users — every user with a stored authorization. */
export const PairAuthorizations = z.array(PairAuthorization);

/** At most this many emails in `?emails=` (a list page asks for its own rows: 25, at most 200). */
const MAX_AUTHORIZATION_EMAILS = 200;

/** `GET /api/pair-authorizator/users?emails=a@x,b@y`: only those users (absent: every user). */
export const AuthorizationEmailsQuery = z
  .string()
  .max(MAX_AUTHORIZATION_EMAILS * 256)
  .optional()
  .transform((v) => (v === undefined ? null : v.split(",").map((e) => e.trim().toLowerCase()).filter(Boolean)))
  .pipe(z.array(z.string()).max(MAX_AUTHORIZATION_EMAILS, `At most ${MAX_AUTHORIZATION_EMAILS} emails.`).nullable());

/** PUT /api/pair-authorizator/users/{id} */
const numbers = (label: string, things: string) =>
  boundedList(boundedText(label, TEXT_LIMITS.authorizationNumber), things, LIST_LIMITS.authorizationNumbers);
export const PairAuthorizationPut = z.object({
  registrationNumbers: numbers("Registration number", "registration numbers"),
  customerNumbers: numbers("Customer number", "customer numbers"),
});
export type PairAuthorizationPut = z.input<typeof PairAuthorizationPut>;

/** GET /api/pair-authorizator/practitioners — one entry per registration number, with the users holding it. */
const Practitioner = z.object({ registrationNumber: z.string(), emails: z.array(z.string()) });
export const Practitioners = z.array(Practitioner);

/** USPTO registration numbers: 5 or 6 digits. */
export const REGISTRATION_NUMBER = /^\d{5,6}$/;
/** USPTO customer numbers: 5 to 9 digits. */
export const CUSTOMER_NUMBER = /^\d{5,9}$/;

export const AUTHORIZATION_MESSAGES = {
  registrationNumber: (n: string) => `"${n}" is not a registration number (5 or 6 digits).`,
  customerNumber: (n: string) => `"${n}" is not a customer number (5 to 9 digits).`,
} as const;
