import { describe, expect, test } from "vitest";
import { REPORT_MESSAGES, Report, ReportPage } from "@contract/reports";
import { harness, message } from "./helpers";
import { tokenWith } from "./token-with";

describe("/api/reports", () => {
  test("the built-in reports are there; patch name, description, organizations (known ids only); no create or delete", async () => {
    const h = await harness();
    const t = h.adminToken;
    const page = ReportPage.parse(await (await h.call("GET", "/api/reports?pageSize=50", { token: t })).json());
    expect(page.total).toBeGreaterThanOrEqual(6);
    expect(page.items.map((r) => r.identifier)).toContain("docketing");
    const docketing = Report.parse(await (await h.call("GET", "/api/reports/report-docketing", { token: t })).json());
    expect(docketing).toMatchObject({ identifier: "docketing", type: "stream", organizations: [] });
    const org = (await (await h.call("POST", "/api/organizations", { token: t, body: { name: "Acme" } })).json()) as { id: string };
    const patched = await h.call("PATCH", "/api/reports/report-docketing", {
      token: t,
      body: { name: " Docketing (weekly) ", description: "Weekly", organizations: [org.id, org.id], identifier: "changed", type: "table" },
    });
    expect(patched.status).toBe(200);
    expect(Report.parse(await patched.json())).toMatchObject({ name: "Docketing (weekly)", description: "Weekly", organizations: [org.id], identifier: "docketing", type: "stream" });
    const unknown = await h.call("PATCH", "/api/reports/report-docketing", { token: t, body: { organizations: ["nope"] } });
    expect(unknown.status).toBe(400);
    expect(await message(unknown)).toBe('organizations: Unknown organization id "nope".');
    const blank = await h.call("PATCH", "/api/reports/report-docketing", { token: t, body: { name: " ", description: "" } });
    expect(blank.status).toBe(400);
    expect(await message(blank)).toContain(REPORT_MESSAGES.nameRequired);
    expect((await h.call("POST", "/api/reports", { token: t, body: { identifier: "x", name: "x", description: "x" } })).status).toBe(404);
    expect((await h.call("DELETE", "/api/reports/report-docketing", { token: t })).status).toBe(404);
    expect((await h.call("GET", "/api/reports/report-docketing", { token: t })).status).toBe(200);
    expect(await message(await h.call("GET", "/api/reports/nope", { token: t }))).toBe("Report not found.");
  });

  test("permissions: forms.read reads, forms changes", async () => {
    const h = await harness();
    const reader = await tokenWith(h, "reader@example.com", ["forms.read"]);
    expect((await h.call("GET", "/api/reports", { token: reader })).status).toBe(200);
    expect((await h.call("PATCH", "/api/reports/report-docketing", { token: reader, body: { name: "x" } })).status).toBe(403);
    const writer = await tokenWith(h, "writer@example.com", ["forms"]);
    expect((await h.call("PATCH", "/api/reports/report-docketing", { token: writer, body: { name: "x" } })).status).toBe(200);
    const none = await tokenWith(h, "none@example.com", ["templates"]);
    expect((await h.call("GET", "/api/reports", { token: none })).status).toBe(403);
  });
});
