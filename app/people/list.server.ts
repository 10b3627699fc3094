import type { LoaderFunctionArgs } from "@remix-run/node";
import { can } from "@contract/permissions";
import { requireRoute } from "~/auth/guard.server";
import { formatDateTime } from "~/lib/format";
import { listQueryOf, loadPage } from "~/lib/list.server";
import { fullName } from "~/auth/names";
import { authorizations } from "./authorization.server";
import { users } from "./users.server";


/** The /people list: one page of users for the URL's search, sort (remembered) and page. */
export async function loadPeopleList(args: LoaderFunctionArgs) {
  const { api, identity, timeZone } = await requireRoute(args);
  const { query: q, setCookie } = await listQueryOf(args.request, args.context, "people");
  const page = await loadPage(q, (query) => users.list(api, query));
  // The Registration/Customer Number(s) columns come from the portfolio authorization, matched by email: this page's
  // rows only, not every user's authorization to fill 25 rows.
  const auths = await authorizations.listFor(api, page.items.map((u) => u.email)).catch(() => []);
  const byEmail = new Map(auths.map((a) => [a.email.toLowerCase(), a]));
  return {
    setCookie,
    data: {
      q: q.q,
      sort: q.sort,
      page: page.page,
      pageSize: page.pageSize,
      total: page.total,
      rows: page.items.map((u) => ({
        id: u.id,
        email: u.email,
        fullName: fullName(u),
        isBot: u.isBot,
        registrationNumbers: byEmail.get(u.email.toLowerCase())?.registrationNumbers ?? [],
        customerNumbers: byEmail.get(u.email.toLowerCase())?.customerNumbers ?? [],
        createdAt: formatDateTime(u.createdAt, timeZone),
        createdBy: u.createdBy,
        updatedAt: formatDateTime(u.updatedAt, timeZone),
        updatedBy: u.updatedBy,
      })),
      canCreate: can(identity.permissions, "users"),
    },
  };
}
