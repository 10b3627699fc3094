import type { LoaderFunctionArgs } from "@remix-run/node";
import { can } from "../../upstream/contract/permissions";
import { TeamFilter } from "../../upstream/contract/teams";
import { requireRoute } from "../auth/guard.server";
import { formatDateTime } from "../lib/format";
import { listQueryOf, loadPage } from "../lib/list.server";
import { teams } from "./teams.server";

/** Teams list shows at most 3 members, then "N more..." (spec 1 §9). */
export const MEMBERS_SHOWN = 3;

/** The /teams list: search, sort (remembered), page and the all / assistants / teams filter (default teams). */
export async function loadTeamList(args: LoaderFunctionArgs) {
  const { api, identity, timeZone } = await requireRoute(args);
  const url = new URL(args.request.url);
  const { query: q, setCookie } = await listQueryOf(args.request, args.context, "teams");
  const filter = TeamFilter.catch("teams").parse(url.searchParams.get("show") ?? "teams");
  const page = await loadPage(q, (query) => teams.list(api, query, filter));
  return {
    setCookie,
    data: {
      q: q.q,
      sort: q.sort,
      show: filter,
      page: page.page,
      pageSize: page.pageSize,
      total: page.total,
      rows: page.items.map((t) => ({
        id: t.id,
        name: t.name,
        assistantsTeam: t.assistantsTeam,
        members: t.members.slice(0, MEMBERS_SHOWN),
        more: Math.max(0, t.members.length - MEMBERS_SHOWN),
        createdAt: formatDateTime(t.createdAt, timeZone),
        createdBy: t.createdBy,
        updatedAt: formatDateTime(t.updatedAt, timeZone),
        updatedBy: t.updatedBy,
      })),
      canWrite: can(identity.permissions, "users.write"),
    },
  };
}
