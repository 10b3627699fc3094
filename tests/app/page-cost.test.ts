/**
 * The per-request savings that change no behaviour, each pinned by what would break without it
 * (patches/ on @remix-run/router and @remix-run/server-runtime, app/lib/prefs.server.ts).
 */
import { createRequire } from "node:module";
import { createCookie } from "@remix-run/node";
import { jsx } from "react/jsx-runtime";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { readPrefs } from "~/lib/prefs.server";
import { AppLink } from "~/ui/app-link";

// The CommonJS builds the server runs (the patched files).
const require = createRequire(import.meta.url);
type Match = { params: Record<string, string>; pathname: string; pathnameBase: string; route: { id: string } };
type Route = { id: string; path?: string; index?: boolean; children?: Route[] };
const { createStaticHandler, json, matchRoutes } = require("@remix-run/router") as {
  matchRoutes: (routes: Route[], location: string, basename?: string) => Match[] | null;
  json: (data: unknown, init?: ResponseInit) => Response;
  createStaticHandler: (routes: Array<Route & { loader?: () => unknown }>) => {
    query: (request: Request) => Promise<{ loaderData: Record<string, unknown> } | Response>;
  };
};
const { callRouteLoader } = require("@remix-run/server-runtime/dist/data.js") as {
  callRouteLoader: (args: {
    loadContext: object;
    loader: (args: { request: Request }) => unknown;
    params: object;
    request: Request;
    routeId: string;
    singleFetch: boolean;
  }) => Promise<unknown>;
};

const tree = (): Route[] => [
  {
    id: "root",
    path: "",
    children: [
      { id: "index", index: true },
      { id: "people", path: "people", children: [{ id: "people-index", index: true }, { id: "person", path: ":id" }] },
      { id: "person-new", path: "people/new" },
      { id: "docs", path: "documents/:kind/*" },
    ],
  },
];
const ids = (matches: Match[] | null) => matches?.map((m) => `${m.route.id}${JSON.stringify(m.params)}`) ?? null;

describe("route matching remembered per path (patches/@remix-run+router)", () => {
  const paths = ["/", "/people", "/people/", "/people/new", "/people/42", "/documents/word/a/b", "/nowhere", "/people/42/x"];

  it("answers what a fresh match answers, first and second time, for matches and misses", () => {
    const routes = tree();
    for (const round of [1, 2]) {
      for (const p of paths) {
        // A new routes array has no memo: the full ranking and scan.
        expect(ids(matchRoutes(routes, p)), `${p}, round ${round}`).toEqual(ids(matchRoutes(tree(), p)));
      }
    }
    expect(ids(matchRoutes(routes, "/people/42"))).toEqual(['root{"id":"42"}', 'people{"id":"42"}', 'person{"id":"42"}']);
    expect(matchRoutes(routes, "/nowhere")).toBeNull();
  });

  it("builds new match objects every time: no caller shares another's", () => {
    const routes = tree();
    const a = matchRoutes(routes, "/people/7")!;
    const b = matchRoutes(routes, "/people/7")!;
    expect(b).not.toBe(a);
    expect(b[2]).not.toBe(a[2]);
    expect(b[2]!.params).not.toBe(a[2]!.params);
    a[2]!.params.id = "changed";
    expect(matchRoutes(routes, "/people/7")![2]!.params.id).toBe("7");
  });

  it("stays right past its bound (2,000 paths), with decoding and case as before", () => {
    const routes = tree();
    for (let i = 0; i < 2_500; i++) expect(matchRoutes(routes, `/people/${i}`)![2]!.params.id).toBe(String(i));
    expect(matchRoutes(routes, "/people/0")![2]!.params.id).toBe("0");
    expect(matchRoutes(routes, "/people/a%20b")![2]!.params.id).toBe("a b");
    expect(ids(matchRoutes(routes, "/PEOPLE/NEW"))).toEqual(ids(matchRoutes(tree(), "/PEOPLE/NEW")));
  });
});

describe("a loader's json answer read back (patches/@remix-run+router)", () => {
  it("is the value json() was given, neither parsed again from its text nor read from its body", async () => {
    const answers: Response[] = [];
    // A property that is undefined is as good as absent (what conform's replies hold).
    const value = { n: 1, list: ["a", "é"], nested: { ok: true, none: null, unset: undefined } };
    const loader = () => {
      const response = json(value, { headers: { "X-A": "1" } });
      answers.push(response);
      return response;
    };
    const handler = createStaticHandler([{ id: "root", path: "/", loader }]);
    const context = await handler.query(new Request("http://x.test/"));
    if (context instanceof Response) throw new Error("a response");
    expect(context.loaderData.root).toBe(value);
    expect(answers[0]!.bodyUsed).toBe(false);
    // The body still holds the text, for a data request.
    expect(await answers[0]!.json()).toEqual(value);
    // Any other JSON response is still read from its body.
    const other = () => new Response('{"x":2}', { headers: { "Content-Type": "application/json" } });
    const read = await createStaticHandler([{ id: "root", path: "/", loader: other }]).query(new Request("http://x.test/"));
    if (read instanceof Response) throw new Error("a response");
    expect(read.loaderData.root).toEqual({ x: 2 });
  });

  it("outside production, refuses a value that is not plain JSON: the page would render what the browser never gets", async () => {
    for (const bad of [{ when: new Date(0) }, { n: Number.NaN }, { list: [undefined] }, { f: () => 1 }, new Map()]) {
      const context = await createStaticHandler([{ id: "root", path: "/", loader: () => json(bad) }]).query(new Request("http://x.test/"));
      if (context instanceof Response) throw new Error("a response");
      expect(context.loaderData.root).toBeUndefined();
      expect(String((context as unknown as { errors: Record<string, Error> }).errors.root)).toMatch(/not plain JSON/);
    }
  });
});

describe("the router's isResponse (patches/@remix-run+router)", () => {
  /** A response whose body getter throws: @hono/node-server's lightweight Response builds a real one when read. */
  const unreadable = <R extends Response>(response: R): R =>
    Object.defineProperty(response, "body", {
      get() {
        throw new Error("the body was read");
      },
    });

  it("takes a loader's answer and a redirect for responses without reading their bodies", async () => {
    const data = await createStaticHandler([{ id: "root", path: "/", loader: () => unreadable(json({ n: 1 })) }]).query(
      new Request("http://x.test/"),
    );
    if (data instanceof Response) throw new Error("a response");
    expect(data.loaderData.root).toEqual({ n: 1 });
    const moved = unreadable(new Response(null, { status: 302, headers: { Location: "/elsewhere" } }));
    const redirect = await createStaticHandler([{ id: "root", path: "/", loader: () => moved }]).query(new Request("http://x.test/"));
    expect(redirect instanceof Response && redirect.status).toBe(302);
    expect((redirect as Response).headers.get("Location")).toBe("/elsewhere");
  });
});

describe("isResponse (patches/@remix-run+server-runtime)", () => {
  const { isResponse } = require("@remix-run/server-runtime/dist/responses.js") as { isResponse: (v: unknown) => boolean };

  it("knows a Response without reading its body (a lightweight Response would build a stream for it)", () => {
    class Probe extends Response {
      override get body(): Response["body"] {
        throw new Error("the body was read");
      }
    }
    expect(isResponse(new Probe("x"))).toBe(true);
    // Other values are judged as before.
    expect(isResponse({ status: 200, statusText: "", headers: {}, body: null })).toBe(true);
    expect(isResponse({ status: 200 })).toBe(false);
    expect(isResponse(null)).toBe(false);
  });
});

describe("a loader's request (patches/@remix-run+server-runtime)", () => {
  const seen = async (url: string, singleFetch = false) => {
    const request = new Request(url);
    let got: Request | undefined;
    await callRouteLoader({
      loadContext: {},
      loader: ({ request: r }) => ((got = r), null),
      params: {},
      request,
      routeId: "r",
      singleFetch,
    });
    return { request, got: got! };
  };

  it("is the page request itself when there is nothing to strip (no copy per loader)", async () => {
    const { request, got } = await seen("http://x.test/people?q=ada&sort=name");
    expect(got).toBe(request);
    const single = await seen("http://x.test/people?q=ada", true);
    expect(single.got).toBe(single.request);
  });

  it("is still a copy without Remix's own parameters when they are there", async () => {
    const data = await seen("http://x.test/people?q=ada&_data=routes%2Fpeople");
    expect(data.got).not.toBe(data.request);
    expect(new URL(data.got.url).searchParams.has("_data")).toBe(false);
    expect(new URL(data.got.url).searchParams.get("q")).toBe("ada");
    const index = await seen("http://x.test/people?index&q=ada");
    expect(new URL(index.got.url).searchParams.has("index")).toBe(false);
    const routes = await seen("http://x.test/people?_routes=a", true);
    expect(new URL(routes.got.url).searchParams.has("_routes")).toBe(false);
  });
});

describe("cookie values (patches/@remix-run+server-runtime: the engine's escape and unescape)", () => {
  const value = { name: "Zoë — 東京 🚀 100% + a/b", n: 1 };
  // Written by Remix's own character loop before the patch: cookies already in browsers keep parsing.
  const written = "eyJuYW1lIjoiWm%2FDqyDigJQg5p2x5LqsIPCfmoAgMTAwJSArIGEvYiIsIm4iOjF9";

  it("writes and reads what Remix always did", async () => {
    const cookie = createCookie("prefs", { path: "/" });
    expect(await cookie.serialize(value)).toBe(`prefs=${written}; Path=/; SameSite=Lax`);
    expect(await cookie.parse(`prefs=${written}`)).toEqual(value);
    const signed = createCookie("s", { secrets: ["a-secret"] });
    expect(await signed.parse(await signed.serialize(value))).toEqual(value);
    expect(await signed.parse("s=tampered.value")).toBeNull();
  });
});

describe("AppLink", () => {
  it("renders as the plain link it always was", () => {
    const html = renderToString(jsx(AppLink, { to: "/people/1", className: "icon-button", title: "Edit", children: "x" }));
    expect(html).toBe('<a class="icon-button" title="Edit" href="/people/1" data-discover="true" data-app-link="">x</a>');
  });
});

describe("readPrefs once per request", () => {
  const context = { cookieSecure: false };
  const prefsCookie = createCookie("prefs", { path: "/" });

  it("parses the cookie once for all of a request's loaders", async () => {
    const value = await prefsCookie.serialize({ sidebar: "collapsed", sorts: { people: "newest" } });
    const request = new Request("http://x.test/people", { headers: { Cookie: value.split(";")[0]! } });
    const first = readPrefs(request, context);
    expect(readPrefs(request, context)).toBe(first);
    expect((await first).sidebar).toBe("collapsed");
    expect((await first).sorts).toEqual({ people: "newest" });
    // Another request with the same cookie reads it again.
    const other = new Request("http://x.test/people", { headers: { Cookie: value.split(";")[0]! } });
    expect(readPrefs(other, context)).not.toBe(first);
  });

  it("answers the defaults without a cookie, and for one that does not parse", async () => {
    const defaults = { sidebar: "expanded", sorts: {}, filters: {}, panels: {}, selectedQuery: null };
    expect(await readPrefs(new Request("http://x.test/"), context)).toEqual(defaults);
    const bad = new Request("http://x.test/", { headers: { Cookie: "prefs=%%%not-a-cookie" } });
    expect(await readPrefs(bad, context)).toEqual(defaults);
  });
});
