import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALL_PERMISSIONS, can } from "@contract/permissions";
import { navigationFor, ROUTES, matchRoute } from "~/lib/routes";
import { officePackage } from "../fixtures/office";
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
let messageId = "";
let ruleId = "";
let milestoneId = "";
let workflowId = "";
let templateId = "";

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
  // Rules, e-mail connector, reports, messages.
  "/rules": () => "/rules",
  "/rules/create": () => "/rules/create",
  "/rules/:id/edit": () => `/rules/${ruleId}/edit`,
  "/emails-connector": () => "/emails-connector",
  "/reports": () => "/reports",
  "/reports/:id/edit": () => "/reports/report-docketing/edit",
  "/messages": () => "/messages",
  "/messages/create": () => "/messages/create",
  "/messages/:id/edit": () => `/messages/${messageId}/edit`,
  // Queue dashboards.
  "/uspto": () => "/uspto",
  "/uspto/configuration": () => "/uspto/configuration",
  "/fip": () => "/fip",
  // Workflows and the docket.
  "/workflows": () => "/workflows",
  "/workflows/new": () => "/workflows/new",
  "/workflows/:id": () => `/workflows/${workflowId}`,
  "/workflows/:id/edit": () => `/workflows/${workflowId}/edit`,
  "/workflows/:id/export": () => `/workflows/${workflowId}/export`,
  "/workflows/:id/milestones": () => `/workflows/${workflowId}/milestones`,
  "/workflows/:id/milestones/new": () => `/workflows/${workflowId}/milestones/new`,
  "/workflows/:id/milestones/:milestoneId": () => `/workflows/${workflowId}/milestones/${templateId}`,
  "/workflows/:id/milestones/:milestoneId/export": () => `/workflows/${workflowId}/milestones/${templateId}/export`,
  "/workflows/:id/milestones/:milestoneId/revisions/:revision": () => `/workflows/${workflowId}/milestones/${templateId}/revisions/1`,
  "/workflows/:id/milestones/:milestoneId/compare": () => `/workflows/${workflowId}/milestones/${templateId}/compare?to=1`,
  "/milestones": () => "/milestones",
  "/milestones/:id": () => `/milestones/${milestoneId}`,
  "/processing": () => "/processing",
  "/forms": () => "/forms",
  "/forms/create": () => "/forms/create",
  "/forms/:id/edit": () => `/forms/${sample.forms}/edit`,
  "/documents/word": () => "/documents/word",
  "/documents/word/create": () => "/documents/word/create",
  "/documents/word/:id/edit": () => `/documents/word/${sample.word}/edit`,
  "/documents/visio": () => "/documents/visio",
  "/documents/visio/create": () => "/documents/visio/create",
  "/documents/visio/:id/edit": () => `/documents/visio/${sample.visio}/edit`,
  "/shapes": () => "/shapes",
  "/shapes/:id/edit": () => `/shapes/${sample.shape}/edit`,
  "/drawings": () => "/drawings",
  "/drawings/create": () => "/drawings/create",
  "/drawings/:id/edit": () => `/drawings/${sample.drawing}/edit`,
  "/administration/template-storage": () => "/administration/template-storage",
  "/administration": () => "/administration",
  "/models": () => "/models",
  "/models/:id": () => `/models/${sample.model}`,
  "/sttservices": () => "/sttservices",
  "/sttservices/:id": () => `/sttservices/${sample.sttService}`,
  "/portfolio/reindex": () => "/portfolio/reindex",
  "/chains": () => "/chains",
  "/chains/create": () => "/chains/create",
  "/chains/:id": () => `/chains/${sample.chain}`,
  "/chains/:id/edit": () => `/chains/${sample.chain}/edit`,
  // Prompt chains' own pages: the Context tab's and Run's posts (a GET goes back to the chain), a run and its events,
  // export, import, compare and the version view.
  "/chains/:id/context": () => `/chains/${sample.chain}/context`,
  "/chains/:id/runs": () => `/chains/${sample.runChain}/runs`,
  "/chains/:id/runs/:run": () => `/chains/${sample.runChain}/runs/${sample.run}`,
  "/chains/:id/runs/:run/events": () => `/chains/${sample.runChain}/runs/${sample.run}/events`,
  "/chains/:id/export": () => `/chains/${sample.chain}/export`,
  "/chains/:id/export/download": () => `/chains/${sample.chain}/export/download`,
  "/chains/:id/import": () => `/chains/${sample.chain}/import`,
  "/chains/:id/compare": () => `/chains/${sample.chain}/compare?to=1`,
  "/chains/:id/versions/:version": () => `/chains/${sample.chain}/versions/1`,
  "/library": () => "/library",
  "/library/drawings/:id/download": () => `/library/drawings/${sample.drawing}/download`,
  "/library/categories": () => "/library/categories",
  "/portfolio": () => "/portfolio",
  "/portfolio/add": () => "/portfolio/add",
  "/portfolio/csv": () => "/portfolio/csv",
  "/portfolio/:id": () => "/portfolio/ROUTE-1",
  "/portfolio/import": () => "/portfolio/import",
  "/portfolio/import/sample.csv": () => "/portfolio/import/sample.csv",
  "/portfolio/import/:job/rejected.csv": () => `/portfolio/import/${importJobId}/rejected.csv`,
  "/categorization": () => "/categorization",
  "/applications": () => "/applications",
  "/applications/installer": () => "/applications/installer",
};
/** Template and form records (made with real files). */
const sample = { forms: "", word: "", visio: "", drawing: "", shape: "", model: "", sttService: "", chain: "", runChain: "", run: "" };

/** Routes whose GET answers a redirect to the chain's page (their work is a post). */
const GOES_BACK = new Set(["/chains/:id/context", "/chains/:id/runs"]);
/** A run's id from the run page's address Run redirects to. */
const runOf = (location: string) => {
  const id = /^\/chains\/[^/]+\/runs\/([^/?#]+)$/.exec(location)?.[1];
  expect(id, `Run's redirect: ${location}`).toBeTruthy();
  return id!;
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
  const post = async (path: string, body: unknown) =>
    ((await (await app.context.upstream(path, { method: "POST", headers: authJson, body: JSON.stringify(body) })).json()) as { id: string }).id;
  messageId = await post("/api/messages", { name: "Route table message" });
  ruleId = await post("/api/rules", {
    name: "Route table rule",
    trigger: "Office Action mailed",
    deadlines: [{ label: "Response", amount: 3, measure: "months", extension: { times: 3, amount: 1, measure: "months" } }],
  });
  const withFiles = async (path: string, data: unknown, files: Record<string, [Buffer, string]>) => {
    const body = new FormData();
    body.set("data", JSON.stringify(data));
    for (const [field, [bytes, name]] of Object.entries(files)) body.set(field, new Blob([new Uint8Array(bytes)]), name);
    const res = await app.context.upstream(path, { method: "POST", headers: { Authorization: `Bearer ${await app.adminToken()}` }, body });
    return ((await res.json()) as { id: string }).id;
  };
  sample.word = await withFiles("/api/docs/word/", {}, { fileTemplate: [await officePackage("dotx"), "Route.dotx"] });
  sample.visio = await withFiles("/api/docs/visio/", {}, { fileTemplate: [await officePackage("vstx", { masters: [{ id: 1, name: "Box" }] }), "Route.vstx"] });
  sample.drawing = await withFiles("/api/drawings/", {}, { fileTemplate: [await officePackage("vsdx"), "Route.vsdx"] });
  sample.forms = await withFiles("/api/forms/", { type: "docx", fileNameTemplate: "x" }, { formFile: [await officePackage("docx"), "Route.docx"] });
  const shapes = await app.context.upstream("/api/shapes/", { headers: { Authorization: `Bearer ${await app.adminToken()}` } });
  sample.shape = ((await shapes.json()) as { items: { id: string }[] }).items[0]!.id;
  const aiConfig = JSON.stringify({ baseURL: "http://127.0.0.1:9/v1", apiKey: "sk-route-table", model: "m" });
  const aiRecord = async (path: string, body: Record<string, unknown>) =>
    ((await (await app.context.upstream(path, { method: "POST", headers: authJson, body: JSON.stringify(body) })).json()) as { id: string }).id;
  sample.model = await aiRecord("/api/v2/nlp/configurations", { name: "Route model", provider: "openai-compatible", capability: "chat", config: aiConfig });
  sample.sttService = await aiRecord("/api/v2/nlp/stt", { name: "Route service", sttProvider: "openai-compatible", config: aiConfig });
  sample.chain = await aiRecord("/api/prompts", { name: "Route table chain" });
  // A chain that runs without a model (one template link), and a run of the administrator's: the route table's
  // sample; a run is its starter's only, so the holder below starts one of their own.
  sample.runChain = await aiRecord("/api/prompts", {
    name: "Route table run chain",
    template: { chain: [{ id: "t", type: "template", name: "TEMPLATE 1", template: "Route table" }], options: {}, chat: null },
  });
  const admin = app.browser();
  await admin.signIn(ADMIN.email, ADMIN.password);
  sample.run = runOf((await admin.post(`/chains/${sample.runChain}/runs`, {})).headers.get("Location") ?? "");
  const csv = Buffer.from("id,title\nROUTE-1,Route table application\n").toString("base64");
  const job = await app.context.upstream("/api/applications/csv?wait=true", {
    method: "POST",
    headers: authJson,
    body: JSON.stringify({ csvFileData: csv }),
  });
  importJobId = ((await job.json()) as { id: string }).id;
  // A milestone: an active template (the wizard's first graph) of a workflow, an event, the engine's turn.
  const workflowsPath = "/api/workflows/v2/workflows";
  workflowId = await post(workflowsPath, { title: "Route table workflow", clientCodes: ["ROUTE-CODE"] });
  const created = { code: "portfolio.application.created" };
  templateId = await post(`${workflowsPath}/${workflowId}/milestones/draft/template`, { data: { title: "Route table template", events: [created] } });
  await app.context.upstream(`${workflowsPath}/${workflowId}/milestones/${templateId}/activate`, { method: "POST", headers: authJson });
  await post("/api/workflows/milestones", { ...created, reference: "ROUTE-M", clientCode: "ROUTE-CODE" });
  for (let i = 0; i < 200 && !milestoneId; i++) {
    const list = await app.context.upstream("/api/workflows/milestones?reference=ROUTE-M", { headers: authJson });
    milestoneId = ((await list.json()) as { items: { id: string }[] }).items[0]?.id ?? "";
    if (!milestoneId) await new Promise((r) => setTimeout(r, 50));
  }
  const installer = new FormData();
  installer.set("version", "1.0.0");
  installer.set("file", new File(["MZ"], "CrawlerSetup.exe"));
  await app.context.upstream("/api/application-crawler/installer", {
    method: "PUT",
    headers: { Authorization: `Bearer ${await app.adminToken()}` },
    body: installer,
  });
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
        // Pages show the not-found view; resource routes (downloads) answer a plain 404.
        if (refused.headers.get("Content-Type")?.includes("text/html")) expect(await refused.text()).toContain("Nothing here :(");
      }
      const holder = entry.permission ? [entry.permission] : [];
      await app.createUser(`with-${tag}@test.local`, holder);
      const withIt = app.browser();
      await withIt.signIn(`with-${tag}@test.local`, "secret-123");
      // An import's report is its importer's only: the holder imports a file of their own to read one.
      const ownRun = entry.path.startsWith("/chains/:id/runs/:run")
        ? runOf((await withIt.post(`/chains/${sample.runChain}/runs`, {})).headers.get("Location") ?? "")
        : "";
      const own = ownRun
        ? url.replace(sample.run, ownRun)
        : entry.path === "/portfolio/import/:job/rejected.csv"
          ? (await withIt.postMultipart("/portfolio/import", { file: new File(["id\n"], "own.csv", { type: "text/csv" }) })).headers
              .get("Location")!
              .replace(/^\/portfolio\/import\?job=(.+)$/, "/portfolio/import/$1/rejected.csv")
          : url;
      const shown = await withIt.get(own);
      // The Context tab's and Run's addresses take posts; a GET goes back to the chain's page.
      if (GOES_BACK.has(entry.path)) {
        expect(shown.status).toBe(302);
        expect(new URL(shown.headers.get("Location")!, "http://x").pathname).toBe(own.replace(/\/(context|runs)$/, ""));
        return;
      }
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
    // The library shows to everyone (spec 3 §2.1).
    expect(navigationFor([]).map((e) => e.label)).toEqual(["Overview", "Library"]);
    expect(navigationFor(["users.read"]).map((e) => e.label)).toEqual(["Overview", "People", "Teams", "Library"]);
    expect(navigationFor(["users"]).map((e) => e.label)).toEqual(["Overview", "People", "Teams", "Library"]);
    // Spec 1 §2: 'Content Chains' after specifications.
    expect(navigationFor(["specifications.read", "prompts.read", "templates.read"]).map((e) => e.label).slice(0, 4)).toEqual([
      "Overview",
      "Specifications",
      "Content Chains",
      "Rules",
    ]);
    // Spec 1 §2's order: rules, forms, then Word, Visio, shapes, drawings (templates.read).
    expect(navigationFor(["forms.read", "templates.read"]).map((e) => e.label)).toEqual([
      "Overview",
      "Rules",
      "Forms",
      "Word templates",
      "Visio templates",
      "Shapes",
      "Drawings",
      "Library",
    ]);
    // The spec 2 entries after the templates: messages, the dashboards, then the administration screens.
    const later = ["messages.read", "uspto.read", "docketing_tasks.read", "portfolio.read", "administration.read"];
    expect(navigationFor(later).map((e) => e.label)).toEqual(
      expect.arrayContaining(["Messages", "USPTO", "FIP", "Portfolio dashboard", "E-mail connector", "Template backup"]),
    );
    const labels = navigationFor(later).map((e) => e.label);
    const order = ["Messages", "USPTO", "FIP", "Portfolio dashboard", "E-mail connector", "Template backup"].map((l) => labels.indexOf(l));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    // Rules, messages, applications and e-mail connector entries, in spec 1 §2's order (Rules, Messages, Applications, E-mail connector).
    expect(navigationFor(["templates.read", "messages.read", "applications.read", "administration.read"]).map((e) => e.label)).toEqual([
      "Overview",
      "Rules",
      "Word templates",
      "Visio templates",
      "Shapes",
      "Drawings",
      "Messages",
      "Applications",
      "E-mail connector",
      "Administration",
      "Template backup",
      "Library",
    ]);
  });

  it("matches static segments before parameters", () => {
    expect(matchRoute("/people/new")?.permission).toBe("users");
    expect(matchRoute("/people/abc")?.permission).toBe("users.read");
    expect(matchRoute("/people/abc/def")).toBeUndefined();
  });
});
