import type { ListQueryInput } from "@contract/common";
import { Suggestions } from "@contract/people";
import { Team, TeamPage, assistantsTeamName, type TeamFilter } from "@contract/teams";
import { isUpstreamError, type Api } from "~/lib/upstream.server";

const enc = encodeURIComponent;

/** The teams part of the upstream contract (spec 1 §7). */
export const teams = {
  list: (api: Api, query: ListQueryInput, filter: TeamFilter) =>
    api.get(TeamPage, "/api/auth/teams", {
      ...query,
      assistants: filter === "all" ? undefined : filter === "assistants" ? "true" : "false",
    }),
  get: (api: Api, id: string) => api.get(Team, `/api/auth/teams/${enc(id)}`),
  create: (api: Api, body: { name: string; members?: string[]; assistantsTeam?: boolean }) =>
    api.post(Team, "/api/auth/teams/", body),
  remove: (api: Api, id: string) => api.send("DELETE", `/api/auth/teams/${enc(id)}`),
  addMember: (api: Api, id: string, email: string) => api.post(Team, `/api/auth/teams/${enc(id)}/members`, { email }),
  removeMember: (api: Api, id: string, email: string) =>
    api.send("DELETE", `/api/auth/teams/${enc(id)}/members/${enc(email)}`),
  /** The user's assistants team, or null when there is none (404). */
  assistantsOf: async (api: Api, userId: string) => {
    try {
      return await api.get(Team, `/api/auth/teams/assistants/${enc(userId)}`);
    } catch (error) {
      if (isUpstreamError(error, 404)) return null;
      throw error;
    }
  },
  suggestUsers: (api: Api, q: string) => api.get(Suggestions, "/api/auth/suggest/users", { q }),
};

const lower = (s: string) => s.trim().toLowerCase();

/**
 * Spec 1 §4 (Edit user save): ensure the user's assistants team "{local part} assistants" exists (create it if not),
 * then add and remove members by the difference between the old and the new assistants lists.
 */
export async function syncAssistants(
  api: Api,
  user: { id: string; email: string },
  wanted: readonly string[],
): Promise<void> {
  const next = [...new Set(wanted.map(lower).filter(Boolean))];
  let team = await teams.assistantsOf(api, user.id);
  if (!team) {
    if (next.length === 0) return;
    team = await teams.create(api, { name: assistantsTeamName(user.email), members: [], assistantsTeam: true });
  }
  const old = team.members.map(lower);
  for (const email of next) if (!old.includes(email)) await teams.addMember(api, team.id, email);
  for (const email of old) if (!next.includes(email)) await teams.removeMember(api, team.id, email);
}
