import { z } from "zod";
import { TEXT_LIMITS, limitText } from "@contract/common";
import { TEAMS } from "./texts";

const V = TEAMS.validation;

/** New team (spec 1 §5): name required, trimmed; bounded like the contract's. */
export const NewTeamSchema = z.object({
  name: limitText(z.string({ required_error: V.nameRequired }).trim().min(1, V.nameRequired), TEAMS.labels.name, TEXT_LIMITS.name),
});

/** Add team member (spec 1 §5): required, well-formed, not already a member. */
export function memberSchema(members: readonly string[]) {
  const taken = new Set(members.map((m) => m.toLowerCase()));
  return z.object({
    email: limitText(
      z.string({ required_error: V.emailRequired }).trim().min(1, V.emailRequired),
      TEAMS.labels.email,
      TEXT_LIMITS.email,
    )
      .pipe(z.string().email(V.emailInvalid))
      .refine((e) => !taken.has(e.toLowerCase()), V.emailTaken),
  });
}
