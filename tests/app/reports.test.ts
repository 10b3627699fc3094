import { describe, expect, it } from "vitest";
import { REPORTS } from "~/reports/texts";
import { appAsAdmin, uniq } from "../helpers/app";

const { app, admin } = appAsAdmin();
const V = REPORTS.validation;

describe("reports screens", () => {
  it("list the built-in reports; edit ('Edit report', identifier read-only), required fields, organizations, back to /reports", async () => {
    const list = await (await admin.get("/reports")).text();
    expect(list).toContain(REPORTS.listTitle);
    expect(list).toContain("Pending office actions");
    const edit = await (await admin.get("/reports/report-pending-office-actions/edit")).text();
    expect(edit).toContain(REPORTS.editTitle);
    expect(edit).toMatch(/<input[^>]*value="pending-office-actions"[^>]*readOnly=""|<input[^>]*readOnly=""[^>]*value="pending-office-actions"/i);
    const bad = await admin.post("/reports/report-pending-office-actions/edit?_data=routes%2F_app.reports.%24id.edit", { intent: "save", identifier: "", name: " ", description: "" });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: Record<string, string[]> }).error).toEqual({
      identifier: [V.identifierRequired],
      name: [V.nameRequired],
      description: [V.descriptionRequired],
    });
    const org = (await (await app.adminApi("POST", "/api/organizations", { name: `Org ${uniq()}` })).json()) as { id: string; name: string };
    const ok = await admin.post("/reports/report-pending-office-actions/edit", {
      intent: "save",
      identifier: "pending-office-actions",
      name: "Pending office actions",
      description: "Awaiting a response",
      organizations: org.id,
    });
    expect(ok.headers.get("Location")).toBe("/reports");
    const after = await (await admin.get("/reports")).text();
    expect(after).toContain(REPORTS.toasts.updated);
    expect(after).toContain(org.name);
  });

  it("'Update failed' with the server's message (an organization deleted meanwhile)", async () => {
    const org = (await (await app.adminApi("POST", "/api/organizations", { name: `Gone ${uniq()}` })).json()) as { id: string };
    await app.adminApi("DELETE", `/api/organizations/${org.id}`);
    const r = await admin.post("/reports/report-annuities-due/edit", {
      intent: "save",
      identifier: "annuities-due",
      name: "Annuities",
      description: "Due",
      organizations: org.id,
    });
    expect(r.status).toBe(400);
    const html = await r.text();
    expect(html).toContain(REPORTS.toasts.updateFailed);
    expect(html).toContain(`Unknown organization id &quot;${org.id}&quot;`);
    expect(html).toContain(REPORTS.inline.saveFailed);
  });

  it("forms.read views read-only; saving needs forms; without forms.read, not found", async () => {
    const email = `reader-${uniq()}@test.local`;
    await app.createUser(email, ["forms.read"]);
    const reader = app.browser();
    await reader.signIn(email, "secret-123");
    expect(await (await reader.get("/reports/report-docketing/edit")).text()).toContain(REPORTS.readOnlyNote);
    expect((await reader.post("/reports/report-docketing/edit", { intent: "save", identifier: "docketing", name: "x", description: "y" })).status).toBe(404);
    const other = `none-${uniq()}@test.local`;
    await app.createUser(other, ["templates"]);
    const nobody = app.browser();
    await nobody.signIn(other, "secret-123");
    expect((await nobody.get("/reports")).status).toBe(404);
  });
});
