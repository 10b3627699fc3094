import { TEAM_FILTERS, TeamFilter, type Team } from "@contract/teams";
import type { ListFilter, ListSource } from "~/kit/resource-routes.server";
import { stampsOf } from "~/kit/resource-routes.server";
import { teams } from "./teams.server";

/** Teams list shows at most 3 members, then "N more..." (spec 1 §9). */
const MEMBERS_SHOWN = 3;

/** The /teams list for the kit's `listLoader`: the `show` filter becomes the upstream's `assistants=`. */
export const teamList: ListSource<Team> = {
  definition: { name: "teams" },
  list: (api, query, extra) => teams.list(api, query, TeamFilter.catch("teams").parse(extra.show)),
};

/** The all / assistants / teams filter (spec 1 §2, §9): one choice, default teams, from the URL only. */
export const TEAM_LIST_FILTERS = {
  show: { param: "show", options: TEAM_FILTERS, single: { fallback: "teams" } },
} satisfies Record<string, ListFilter>;

/** A team as its list row shows it. */
export const teamRow = (t: Team, timeZone: string) => ({
  id: t.id,
  name: t.name,
  members: t.members.slice(0, MEMBERS_SHOWN),
  more: Math.max(0, t.members.length - MEMBERS_SHOWN),
  ...stampsOf(t, timeZone),
});
