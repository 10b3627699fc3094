import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALL_PERMISSIONS, can } from "../../upstream/contract/permissions";
import { navigationFor, ROUTES, matchRoute } from "../../app/lib/routes";
import { ADMIN, startApp, type TestApp } from "../helpers/app";

/**
 * Walks the route table: every guarded route answers the not-found view (404) to a user holding every permission
 * except the one it needs, and renders (200) for a user holding exactly that one.
 */
let app: TestApp;
let adminId: string;
let teamId: string;
let organizationId: string;
let importJobId = "";
let specificationId: string;

/** A URL for each table entry, with its parameters filled by real records. Add one for every new route. */
const samplePaths: Record<string, () => string> = {
  "/": () => "/",
  "/people": () => "/people",
  "/people/new": () => "/people/new",
  "/people/:id": () => `/people/${adminId}`,
  "/people/:id/change-password": () => `/people/${adminId}/change-password`,
  "/people/:id/permissions": () => `/people/${adminId}/permissions`,
  "/people/:id/authorization": () => `/people/${adminId}/authorization`,
  "/people/:id/user-settings": () => `/people/${adminId}/user-settings`,
  "/teams": () => "/teams",
  "/teams/new": () => "/teams/new",
  "/teams/:id": () => `/teams/${teamId}`,
  "/organizations": () => "/organizations",
  "/organizations/new": () => "/organizations/new",
  "/organizations/:id/edit": () => `/organizations/${organizationId}/edit`,
  "/specifications": () => "/specifications",
  "/specifications/create": () => "/specifications/create",
  "/specifications/:id": () => `/specifications/${specificationId}`,
  "/specifications/:id/edit": () => `/specifications/${specificationId}/edit`,
  "/portfolio": () => "/portfolio",
  "/portfolio/add": () => "/portfolio/add",
  "/portfolio/csv": () => "/portfolio/csv",
  "/portfolio/import": () => "/portfolio/import",
  "/portfolio/import/sample.csv": () => "/portfolio/import/sample.csv",
  "/portfolio/import/:job/rejected.csv": () => `/portfolio/import/${importJobId}/rejected.csv`,
  "/categorization": () => "/categorization",
};

beforeAll(async () => {
  app = await startApp();
  const r = await app.context.upstream(`/api/auth/users?q=${encodeURIComponent(ADMIN.email)}`, {
    headers: { Authorization: `Bearer ${await app.adminToken()}` },
  });
  adminId = ((await r.json()) as { items: Array<{ id: string }> }).items[0]!.id;
  const team = await app.context.upstream("/api/auth/teams", {
    method: "POST",
    headers: { Authorization: `Bearer ${await app.adminToken()}`, "Content-Type": "application/json" },
    body: JSON.stringify({ name: "Route table team" }),
  });
  teamId = ((await team.json()) as { id: string }).id;
  const authJson = { Authorization: `Bearer ${await app.adminToken()}`, "Content-Type": "application/json" };
  const organization = await app.context.upstream("/api/organizations", {
    method: "POST",
    headers: authJson,
    body: JSON.stringify({ name: "Route table organization" }),
  });
  organizationId = ((await organization.json()) as { id: string }).id;
  const specification = await app.context.upstream("/api/specifications", {
    method: "POST",
    headers: authJson,
    body: JSON.stringify({ name: "Route table specification", type: "abstract", template: "{{title}}" }),
  });
  specificationId = ((await specification.json()) as { id: string }).id;
  const csv = Buffer.from("id,title\nROUTE-1,Route table application\n").toString("base64");
  const job = await app.context.upstream("/api/applications/csv?wait=true", {
    method: "POST",
    headers: authJson,
    body: JSON.stringify({ csvFileData: csv }),
  });
  importJobId = ((await job.json()) as { id: string }).id;
});
afterAll(() => app.close());

describe("the route table", () => {
  it("has a sample URL for every entry", () => {
    expect(Object.keys(samplePaths).sort()).toEqual(ROUTES.map((r) => r.path).sort());
  });

  for (const entry of ROUTES) {
    it(`${entry.path} needs ${entry.permission ?? "only a signed-in user"}`, async () => {
      const url = samplePaths[entry.path]!();
      expect(matchRoute(new URL(url, "http://x").pathname)).toBe(entry);

      const tag = Math.random().toString(36).slice(2, 8);
      if (entry.permission) {
        const allBut = ALL_PERMISSIONS.filter((p) => !can([p], entry.permission!));
        await app.createUser(`without-${tag}@test.local`, allBut);
        const without = app.browser();
        await without.signIn(`without-${tag}@test.local`, "secret-123");
        const refused = await without.get(url);
        expect(refused.status).toBe(404);
        expect(await refused.text()).toContain("Nothing here :(");
      }
      const holder = entry.permission ? [entry.permission] : [];
      await app.createUser(`with-${tag}@test.local`, holder);
      const withIt = app.browser();
      await withIt.signIn(`with-${tag}@test.local`, "secret-123");
      const shown = await withIt.get(url);
      expect(shown.status).toBe(200);
      expect(await shown.text()).not.toContain("Nothing here :(");
    });
  }

  it("sends a signed-out visitor to sign in, remembering where they were going", async () => {
    const response = await app.browser().get("/people?q=x");
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/login?redirectTo=%2Fpeople%3Fq%3Dx");
  });

  it("answers 404 with the not-found view for unknown routes", async () => {
    const b = app.browser();
    await b.signIn(ADMIN.email, ADMIN.password);
    const response = await b.get("/no/such/screen");
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("Nothing here :(");
  });

  it("lists navigation entries by permission, in the spec's order", () => {
    expect(navigationFor([]).map((e) => e.label)).toEqual(["Overview"]);
    expect(navigationFor(["users.read"]).map((e) => e.label)).toEqual(["Overview", "People", "Teams"]);
    expect(navigationFor(["users"]).map((e) => e.label)).toEqual(["Overview", "People", "Teams"]);
  });

  it("matches static segments before parameters", () => {
    expect(matchRoute("/people/new")?.permission).toBe("users");
    expect(matchRoute("/people/abc")?.permission).toBe("users.read");
    expect(matchRoute("/people/abc/def")).toBeUndefined();
  });
});
