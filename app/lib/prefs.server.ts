import { createCookie, type AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { Sort } from "@contract/common";

/**
 * What the spec keeps in local storage (side panel, sort per list, filters) lives in this cookie instead, so the
 * server renders the right state with no flash and it works without JavaScript (DESIGN.md, Preferences).
 */
const Prefs = z.object({
  sidebar: z.enum(["expanded", "collapsed"]).catch("expanded"),
  sorts: z.record(Sort).catch({}),
  filters: z.record(z.array(z.string().max(100)).max(50)).catch({}),
  // Panel sizes (layout id → the first panel's share, per cent) and the categorization's selected query.
  panels: z.record(z.number().min(0).max(100)).catch({}),
  selectedQuery: z.string().max(100).nullable().catch(null),
});
export type Prefs = z.infer<typeof Prefs>;

const DEFAULTS: Prefs = Object.freeze({ sidebar: "expanded", sorts: {}, filters: {}, panels: {}, selectedQuery: null });

function prefsCookie(context: Pick<AppLoadContext, "cookieSecure">) {
  return createCookie("prefs", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: context.cookieSecure,
    maxAge: 60 * 60 * 24 * 365,
  });
}

/**
 * This request's preferences. Read once per request (the layout and the page both ask): the cookie's signature check
 * and parse showed in a list page's server profile; without the cookie, the defaults at once. The answer is
 * shared by the request's loaders: they copy before they change it.
 */
export function readPrefs(request: Request, context: Pick<AppLoadContext, "cookieSecure">): Promise<Prefs> {
  let prefs = perRequest.get(request);
  if (!prefs) perRequest.set(request, (prefs = parsePrefs(request, context)));
  return prefs;
}

const perRequest = new WeakMap<Request, Promise<Prefs>>();

async function parsePrefs(request: Request, context: Pick<AppLoadContext, "cookieSecure">): Promise<Prefs> {
  const header = request.headers.get("Cookie");
  if (!header?.includes("prefs=")) return DEFAULTS;
  try {
    const value: unknown = await prefsCookie(context).parse(header);
    const parsed = Prefs.safeParse(value ?? {});
    return parsed.success ? parsed.data : DEFAULTS;
  } catch {
    return DEFAULTS;
  }
}

export function writePrefs(prefs: Prefs, context: Pick<AppLoadContext, "cookieSecure">): Promise<string> {
  return prefsCookie(context).serialize(prefs);
}

/**
 * The sort of list `listId`: the URL's `sort` when valid (remembered for next time: a Set-Cookie is returned), else
 * the remembered one, else "name" (spec 1 §4).
 */
export async function resolveSort(
  request: Request,
  context: Pick<AppLoadContext, "cookieSecure">,
  listId: string,
): Promise<{ sort: Sort; setCookie: string | null }> {
  const prefs = await readPrefs(request, context);
  const fromUrl = Sort.safeParse(new URL(request.url).searchParams.get("sort"));
  if (fromUrl.success) {
    if (prefs.sorts[listId] === fromUrl.data) return { sort: fromUrl.data, setCookie: null };
    const next = { ...prefs, sorts: { ...prefs.sorts, [listId]: fromUrl.data } };
    return { sort: fromUrl.data, setCookie: await writePrefs(next, context) };
  }
  return { sort: prefs.sorts[listId] ?? "name", setCookie: null };
}
