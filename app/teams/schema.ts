import { z } from "zod";
import { TEAMS } from "./texts";

const V = TEAMS.validation;

/** New team (spec 1 §5): name required, trimmed. */
export const NewTeamSchema = z.object({
  name: z.string({ required_error: V.nameRequired }).trim().min(1, V.nameRequired),
});

/** Add team member (spec 1 §5): required, well-formed, not already a member. */
export function memberSchema(members: readonly string[]) {
  const taken = new Set(members.map((m) => m.toLowerCase()));
  return z.object({
    email: z
      .string({ required_error: V.emailRequired })
      .trim()
      .min(1, V.emailRequired)
      .pipe(z.string().email(V.emailInvalid))
      .refine((e) => !taken.has(e.toLowerCase()), V.emailTaken),
  });
}
