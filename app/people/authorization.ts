import { z } from "zod";
import { AUTHORIZATION_MESSAGES, CUSTOMER_NUMBER, REGISTRATION_NUMBER } from "../../upstream/contract/authorization";
import { splitTags } from "../ui/tag-input";

export const registrationProblem = (n: string) =>
  REGISTRATION_NUMBER.test(n) ? null : AUTHORIZATION_MESSAGES.registrationNumber(n);
export const customerProblem = (n: string) => (CUSTOMER_NUMBER.test(n) ? null : AUTHORIZATION_MESSAGES.customerNumber(n));

const numbers = (problem: (n: string) => string | null) =>
  z
    .string()
    .optional()
    .transform((v) => splitTags(v))
    .superRefine((list, ctx) => {
      for (const n of list) {
        const message = problem(n);
        if (message) ctx.addIssue({ code: "custom", message });
      }
    });

/** The authorization form: two tag fields of numbers, each checked for its format. */
export const AuthorizationSchema = z.object({
  registrationNumbers: numbers(registrationProblem),
  customerNumbers: numbers(customerProblem),
});
