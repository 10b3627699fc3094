import { describe, expect, test } from "vitest";
import { EMAIL_CONNECTOR_MESSAGES, MaintenanceSettings } from "@contract/email-connector";
import { harness, message } from "./helpers";
import { tokenWith } from "./token-with";

const PATH = "/api/ms-graph-email-connector/settings";

describe("/api/ms-graph-email-connector/settings", () => {
  test("off and empty before a save; save checks, lower-cases and deduplicates the addresses", async () => {
    const h = await harness();
    const t = h.adminToken;
    expect(MaintenanceSettings.parse(await (await h.call("GET", PATH, { token: t })).json())).toEqual({
      fastLaneCheckUpdates: false,
      fastLaneEmails: [],
      updatedAt: null,
      updatedBy: null,
    });
    const saved = await h.call("POST", PATH, {
      token: t,
      body: { fastLaneCheckUpdates: true, fastLaneEmails: ["Ann@Example.com", " ann@example.com ", "bob@example.org"] },
    });
    expect(saved.status).toBe(200);
    expect(MaintenanceSettings.parse(await saved.json())).toMatchObject({
      fastLaneCheckUpdates: true,
      fastLaneEmails: ["ann@example.com", "bob@example.org"],
      updatedBy: "admin@example.com",
    });
    expect(MaintenanceSettings.parse(await (await h.call("GET", PATH, { token: t })).json()).fastLaneEmails).toEqual(["ann@example.com", "bob@example.org"]);
    const bad = await h.call("POST", PATH, { token: t, body: { fastLaneCheckUpdates: true, fastLaneEmails: ["ok@example.com", "not an email"] } });
    expect(bad.status).toBe(400);
    expect(await message(bad)).toContain(EMAIL_CONNECTOR_MESSAGES.badEmail("not an email"));
    const many = Array.from({ length: 501 }, (_, i) => `p${i}@example.com`);
    expect(await message(await h.call("POST", PATH, { token: t, body: { fastLaneCheckUpdates: false, fastLaneEmails: many } }))).toContain(EMAIL_CONNECTOR_MESSAGES.tooMany);
    expect((await h.call("POST", PATH, { token: t, body: { fastLaneEmails: [] } })).status).toBe(400);
  });

  test("administration.read reads, administration saves", async () => {
    const h = await harness();
    const reader = await tokenWith(h, "reader@example.com", ["administration.read"]);
    expect((await h.call("GET", PATH, { token: reader })).status).toBe(200);
    expect((await h.call("POST", PATH, { token: reader, body: { fastLaneCheckUpdates: true, fastLaneEmails: [] } })).status).toBe(403);
    const none = await tokenWith(h, "none@example.com", ["messages"]);
    expect((await h.call("GET", PATH, { token: none })).status).toBe(403);
  });
});
