import type { LoaderFunctionArgs } from "@remix-run/node";
import { ListQuery } from "../../upstream/contract/common";
import { can } from "../../upstream/contract/permissions";
import { requireRoute } from "../auth/guard.server";
import { formatDateTime } from "../lib/format";
import { resolveSort } from "../lib/prefs.server";
import { fullName } from "./names";
import { authorizations } from "./authorization.server";
import { users } from "./users.server";

const PAGE_SIZE = 25;

/** The /people list: one page of users for the URL's search, sort (remembered) and page. */
export async function loadPeopleList(args: LoaderFunctionArgs) {
  const { api, identity, timeZone } = await requireRoute(args);
  const url = new URL(args.request.url);
  const { sort, setCookie } = await resolveSort(args.request, args.context, "people");
  const query = ListQuery.safeParse({
    q: url.searchParams.get("q") ?? undefined,
    page: url.searchParams.get("page") ?? undefined,
    sort,
    pageSize: PAGE_SIZE,
  });
  const q = query.success ? query.data : ListQuery.parse({ sort, pageSize: PAGE_SIZE });
  const [page, auths] = await Promise.all([
    users.list(api, q),
    // The Registration/Customer Number(s) columns come from the portfolio authorization, matched by email.
    authorizations.list(api).catch(() => []),
  ]);
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
        updatedAt: formatDateTime(u.updatedAt, timeZone),
      })),
      canCreate: can(identity.permissions, "users"),
    },
  };
}
