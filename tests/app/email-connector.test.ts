import { describe, expect, it } from "vitest";
import { EMAIL_CONNECTOR } from "~/email-connector/texts";
import { appAsAdmin, uniq } from "../helpers/app";

const { app, admin } = appAsAdmin();

describe("/emails-connector", () => {
  it("shows, validates and saves the fast-lane settings ('Update completed'), deduplicated", async () => {
    const page = await (await admin.get("/emails-connector")).text();
    expect(page).toContain(EMAIL_CONNECTOR.title);
    expect(page).toContain(EMAIL_CONNECTOR.labels.fastLaneCheckUpdates);
    const bad = await admin.post("/emails-connector?_data=routes%2F_app.emails-connector", { fastLaneCheckUpdates: "on", fastLaneEmails: "a@example.com; nope" });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: Record<string, string[]> }).error).toEqual({
      fastLaneEmails: [EMAIL_CONNECTOR.validation.badEmail("nope")],
    });
    const ok = await admin.post("/emails-connector", { fastLaneCheckUpdates: "on", fastLaneEmails: "A@example.com; a@example.com; b@example.com" });
    expect(ok.status).toBe(302);
    const after = await (await admin.get("/emails-connector")).text();
    expect(after).toContain(EMAIL_CONNECTOR.toasts.updated);
    expect(after).toContain("a@example.com; b@example.com");
    const stored = (await (await app.adminApi("GET", "/api/ms-graph-email-connector/settings")).json()) as { fastLaneCheckUpdates: boolean; fastLaneEmails: string[] };
    expect(stored).toMatchObject({ fastLaneCheckUpdates: true, fastLaneEmails: ["a@example.com", "b@example.com"] });
    await admin.post("/emails-connector", { fastLaneEmails: "" });
    expect(((await (await app.adminApi("GET", "/api/ms-graph-email-connector/settings")).json()) as { fastLaneCheckUpdates: boolean }).fastLaneCheckUpdates).toBe(false);
  });

  it("administration.read: read-only, Save refused (404); without it, not found", async () => {
    const email = `reader-${uniq()}@test.local`;
    await app.createUser(email, ["administration.read"]);
    const reader = app.browser();
    await reader.signIn(email, "secret-123");
    const page = await (await reader.get("/emails-connector")).text();
    expect(page).toContain(EMAIL_CONNECTOR.readOnlyNote);
    expect((await reader.post("/emails-connector", { fastLaneEmails: "" })).status).toBe(404);
    const other = `none-${uniq()}@test.local`;
    await app.createUser(other, ["messages"]);
    const nobody = app.browser();
    await nobody.signIn(other, "secret-123");
    expect((await nobody.get("/emails-connector")).status).toBe(404);
  });
});
