import { describe, expect, it } from "vitest";
import { CATEGORIZATION as C } from "~/categorization/texts";
import { TRY_LATER } from "~/lib/toast.server";
import { appAsAdmin, refusingUpstream, uniq, unescapeHtml } from "../helpers/app";

/**
 * Spec 2 §8's 'Create query failed' and 'Update query failed' when the upstream refuses what passed the page's checks:
 * the toast with the server's message (a 4xx) or the try-later text (a 5xx), and nothing the user typed lost.
 */
const { app, admin } = appAsAdmin();
const { refuse, restore } = refusingUpstream(app);
const unescape = unescapeHtml;

describe("categorization's failure texts", () => {
  it("'Create query failed' with the try-later text when the upstream fails (no stack, no server message)", async () => {
    // A saved query exists, so the page the failure is shown on needs no create of its own.
    await app.adminApi("POST", "/api/categorization/queries", {});
    refuse("POST", /^\/api\/categorization\/queries\/?$/, 500, "SQLITE_FULL boom");
    const r = await admin.post("/categorization", { intent: "create" });
    expect(r.status).toBe(502);
    const html = unescape(await r.text());
    expect(html).toContain(C.toasts.createFailed);
    expect(html).toContain(TRY_LATER);
    expect(html).not.toContain("SQLITE_FULL");
  });

  it("'Update query failed' with the upstream's reason, the typed name, tags and JSON kept", async () => {
    const created = (await (await app.adminApi("POST", "/api/categorization/queries", {})).json()) as { id: string };
    const name = `Batteries ${uniq()}`;
    const text = JSON.stringify({ query: { query_string: { query: "battery", fields: ["title"] } } });
    refuse("PATCH", /^\/api\/categorization\/queries\//, 409, "The query was changed by someone else.");
    const r = await admin.post(`/categorization?query=${created.id}`, { intent: "save", queryId: created.id, name, tags: "energy-storage", text });
    expect(r.status).toBe(409);
    const html = unescape(await r.text());
    expect(html).toContain(C.toasts.updateFailed);
    expect(html).toContain("The query was changed by someone else.");
    expect(html).toContain(`value="${name}"`);
    expect(html).toContain("energy-storage");
    expect(html).toContain("battery");
    restore();
    // Nothing was saved.
    const saved = (await (await app.adminApi("GET", `/api/categorization/queries/${created.id}`)).json()) as { name: string };
    expect(saved.name).toBe("Untitled");
  });
});
