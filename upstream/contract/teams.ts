import { z } from "zod";
import { Audit, FIELD_MESSAGES, LIST_LIMITS, TEXT_LIMITS, boundedList, boundedText, pageOf } from "./common";
import { USER_MESSAGES } from "./people-constants";

/** The teams' messages: the upstream's answers (400 after the field's name, 404, 409) and the team forms' (spec 1 §5, §8). */
export const TEAM_MESSAGES = {
  notFound: "Team not found.",
  nameRequired: FIELD_MESSAGES.nameRequired,
  exists: "Team already exists",
  emailRequired: FIELD_MESSAGES.emailRequired,
  emailInvalid: "Email is not well-formed",
  emailTaken: "Email should be unique",
  notMember: "Not a member of this team.",
  userNotFound: USER_MESSAGES.userNotFound,
  noAssistantsTeam: "This user has no assistants team.",
} as const;

/** A team (spec 1 §3). `members` are emails, in the order they were added. */
export const Team = z
  .object({
    id: z.string(),
    name: z.string(),
    members: z.array(z.string()),
    assistantsTeam: z.boolean(),
  })
  .merge(Audit);
export type Team = z.infer<typeof Team>;

/** GET /api/auth/teams?q=&sort=&page=&pageSize=&assistants=true|false (absent: every team) */
export const TeamPage = pageOf(Team);
export type TeamPage = z.infer<typeof TeamPage>;

/** POST /api/auth/teams/ */
export const TeamCreate = z.object({
  name: boundedText("Name", TEXT_LIMITS.name),
  members: boundedList(boundedText("Member", TEXT_LIMITS.email), "members", LIST_LIMITS.members).optional().default([]),
  assistantsTeam: z.boolean().optional().default(false),
});
export type TeamCreate = z.input<typeof TeamCreate>;

/** POST /api/auth/teams/{teamId}/members */
export const MemberAdd = z.object({ email: boundedText("Email", TEXT_LIMITS.email) });

/** The team list filter (spec 1 §2, §9): all / assistants / teams, default teams. */
export const TEAM_FILTERS = ["all", "assistants", "teams"] as const;
export const TeamFilter = z.enum(TEAM_FILTERS);
export type TeamFilter = z.infer<typeof TeamFilter>;

/** The name of a user's assistants team (spec 1 §3): "{local part of the email} assistants". */
export function assistantsTeamName(email: string): string {
  const at = email.indexOf("@");
  return `${at >= 0 ? email.slice(0, at) : email} assistants`;
}
