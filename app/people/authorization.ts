import { z } from "zod";
import { AUTHORIZATION_MESSAGES, CUSTOMER_NUMBER, REGISTRATION_NUMBER } from "@contract/authorization";
import { LIMIT_MESSAGES, LIST_LIMITS } from "@contract/limits";
import { splitTags } from "~/ui/tag-input";

export const registrationProblem = (n: string) =>
  REGISTRATION_NUMBER.test(n) ? null : AUTHORIZATION_MESSAGES.registrationNumber(n);
export const customerProblem = (n: string) => (CUSTOMER_NUMBER.test(n) ? null : AUTHORIZATION_MESSAGES.customerNumber(n));

const numbers = (problem: (n: string) => string | null, things: string) =>
  z
    .string()
    .optional()
    .transform((v) => splitTags(v))
    .superRefine((list, ctx) => {
      if (list.length > LIST_LIMITS.authorizationNumbers) {
        ctx.addIssue({ code: "custom", message: LIMIT_MESSAGES.tooMany(things, LIST_LIMITS.authorizationNumbers) });
        return;
      }
      for (const n of list) {
        const message = problem(n);
        if (message) ctx.addIssue({ code: "custom", message });
      }
    });

/** The authorization form: two tag fields of numbers, each checked for its format. */
export const AuthorizationSchema = z.object({
  registrationNumbers: numbers(registrationProblem, "registration numbers"),
  customerNumbers: numbers(customerProblem, "customer numbers"),
});
