import { describe, expect, it } from "vitest";
import { REINDEX } from "~/portfolio/reindex-texts";
import { appAsAdmin, browserWith, refusingUpstream, unescapeHtml } from "../helpers/app";

const { app, admin } = appAsAdmin();
const { refuse } = refusingUpstream(app);

describe("Reindex portfolio screen", () => {
  it("is linked from the portfolio; says none ran, starts one with a plain POST, shows it completed", async () => {
    expect(unescapeHtml(await (await admin.get("/portfolio")).text())).toMatch(/href="\/portfolio\/reindex"[^>]*>Reindex portfolio/);
    const first = unescapeHtml(await (await admin.get("/portfolio/reindex")).text());
    expect(first).toContain(`<h1>${REINDEX.title}</h1>`);
    expect(first).toContain(REINDEX.never);
    const started = await admin.post("/portfolio/reindex", { intent: "reindex" });
    expect(started.status).toBe(302);
    expect(started.headers.get("Location")).toBe("/portfolio/reindex");
    // The embedded engine's reindex of a small portfolio ends at once; ask until it says so.
    let html = "";
    for (let i = 0; i < 50; i++) {
      html = unescapeHtml(await (await admin.get("/portfolio/reindex")).text());
      if (html.includes("Completed on")) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(html).toMatch(/Completed on [A-Z][a-z]+ \d{1,2}, \d{4}, .*applications indexed\./);
    expect(html).not.toContain('http-equiv="refresh"');
  });

  it("while it runs: the count, a progress bar, and a page that refreshes itself without JavaScript", async () => {
    const real = app.context.upstream;
    app.context.upstream = async (p, init) =>
      (init?.method ?? "GET") === "GET" && p.split("?")[0] === "/api/applications/reindex"
        ? Response.json({ id: "j1", status: "running", processed: 1200, total: 5000, error: null, startedAt: new Date().toISOString(), finishedAt: null })
        : real(p, init);
    try {
      const html = unescapeHtml(await (await admin.get("/portfolio/reindex")).text());
      expect(html).toContain(REINDEX.running(1200, 5000));
      expect(html).toContain("Reindexing: 1,200 of 5,000 applications.");
      expect(html).toMatch(/<noscript><meta http-equiv="refresh" content="2"\/><\/noscript>/);
      expect(html).toMatch(/<progress[^>]*max="5000"[^>]*value="1200"/);
    } finally {
      app.context.upstream = real;
    }
  });

  it("a refusal (an import being written) is 'Reindex failed' with the server's reason", async () => {
    refuse("POST", /^\/api\/applications\/reindex$/, 409, "An import is being written. Try again when it is done.");
    const res = await admin.post("/portfolio/reindex", { intent: "reindex" });
    expect(res.status).toBe(409);
    const html = unescapeHtml(await res.text());
    expect(html).toContain(REINDEX.toasts.failed);
    expect(html).toContain("An import is being written.");
  });

  it("needs portfolio.write: a reader gets 404 for the page and the POST, and no link", async () => {
    const reader = await browserWith(app, ["portfolio.read"]);
    expect((await reader.get("/portfolio/reindex")).status).toBe(404);
    expect((await reader.post("/portfolio/reindex", { intent: "reindex" })).status).toBe(404);
    expect(await (await reader.get("/portfolio")).text()).not.toContain('href="/portfolio/reindex"');
    const writer = await browserWith(app, ["portfolio"]);
    expect((await writer.get("/portfolio/reindex")).status).toBe(200);
  });
});
