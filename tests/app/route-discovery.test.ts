import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { appAsAdmin, pageScripts } from "../helpers/app";

/**
 * Lazy route discovery (less JavaScript on a list page): a page carries the manifest of its own routes inline
 * and does not import the whole route manifest (3.7 KB gzip for 80 routes); the browser asks /__manifest for the
 * routes its links lead to.
 */
const { admin } = appAsAdmin();

describe("route discovery", () => {
  it("a page imports no route manifest file", async () => {
    const r = await admin.get("/people");
    expect(r.status).toBe(200);
    const { module, preloads } = pageScripts(await r.text());
    expect(module).toContain("window.__remixManifest");
    // The inline manifest names its file ("url"), but nothing loads it: no import, no preload.
    expect(module).toMatch(/import \* as route0 from "\/build\/root-[A-Z0-9]+\.js"/);
    expect(module).not.toMatch(/import "\/build\/manifest-[A-Z0-9]+\.js"/);
    expect(preloads.length).toBeGreaterThan(3);
    expect(preloads.some((href) => href.startsWith("/build/manifest-"))).toBe(false);
  });

  it("/__manifest answers the routes of the paths asked for, and only those", async () => {
    const { module } = pageScripts(await (await admin.get("/people")).text());
    const version = /"version":\s*"([a-z0-9]+)"/.exec(module ?? "")?.[1];
    expect(version).toBeTruthy();
    const r = await admin.get(`/__manifest?version=${version}&p=${encodeURIComponent("/teams")}`);
    expect(r.status).toBe(200);
    const patches = (await r.json()) as Record<string, { path?: string }>;
    expect(Object.keys(patches)).toContain("routes/_app.teams._index");
    expect(Object.keys(patches)).not.toContain("routes/_app.portfolio._index");
  });

  it("a fetcher loads only its own page's route; another route's JSON is read with useJsonLoad or fetchJson", () => {
    // A fetcher's load is revalidated after any action by matching its path against the routes known then: one to a
    // route not yet discovered matched the catch-all, and the server's 403 replaced the page (the library's category
    // search, on a CI run; docs/decisions/lazy-route-discovery.md). The page's own route is always known.
    const files = (readdirSync("app", { recursive: true }) as string[]).filter((f) => /\.tsx?$/.test(f) && !/\.server\.tsx?$/.test(f));
    const offenders: string[] = [];
    for (const file of files) {
      const text = readFileSync(join("app", file), "utf8");
      for (const [, name] of text.matchAll(/const (\w+) = useFetcher\b/g)) {
        for (const line of text.split("\n").filter((l) => l.includes(`${name}.load(`))) {
          if (!line.includes("location.pathname")) offenders.push(`${file}: ${line.trim()}`);
        }
      }
    }
    expect(files.length).toBeGreaterThan(100);
    expect(offenders).toEqual([]);
  });
});
