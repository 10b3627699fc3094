import { describe, expect, it } from "vitest";
import { RULES } from "~/rules/texts";
import { appAsAdmin, uniq } from "../helpers/app";

const { app, admin } = appAsAdmin();
const V = RULES.validation;
const DATA = "routes%2F_app.rules.create";

/** The form fields of a rule with one deadline (as the page posts them). */
const fields = (name: string, extra: Record<string, string> = {}) => ({
  intent: "save",
  name,
  jurisdiction: "US",
  trigger: "Office Action mailed",
  description: "",
  rollWeekends: "on",
  "deadlines[0].label": "Response",
  "deadlines[0].amount": "3",
  "deadlines[0].measure": "months",
  "deadlines[0].extension.times": "3",
  "deadlines[0].extension.amount": "1",
  "deadlines[0].extension.measure": "months",
  ...extra,
});

describe("rules screens", () => {
  it("create: required fields and amounts checked; then the list with 'Create completed'", async () => {
    const bad = await admin.post(`/rules/create?_data=${DATA}`, fields(" ", { trigger: "", "deadlines[0].label": "", "deadlines[0].amount": "2.5" }));
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: Record<string, string[]> }).error).toEqual({
      name: [V.nameRequired],
      trigger: [V.triggerRequired],
      "deadlines[0].label": [V.labelRequired],
      "deadlines[0].amount": [V.amount],
    });
    const name = `US OA ${uniq()}`;
    const ok = await admin.post("/rules/create", fields(name));
    expect(ok.headers.get("Location")).toBe("/rules");
    const list = await (await admin.get("/rules")).text();
    expect(list).toContain(RULES.toasts.created);
    expect(list).toContain(name);
    expect(list).toContain("Response: 3 Months");
  });

  it("deadline preview for a trigger date, without JavaScript; a bad date or an invalid rule says so", async () => {
    const r = await admin.post("/rules/create", { ...fields("P"), intent: "preview", triggerDate: "2024-11-30" });
    expect(r.status).toBe(200);
    const html = await r.text();
    expect(html).toContain(RULES.previewTitle);
    expect(html).toContain("2025-02-28"); // clamped to February's end
    expect(html).toContain("2025-03-31, 2025-04-30, 2025-05-30"); // 03-30 is a Sunday: rolled to Monday
    const noRoll = await (await admin.post("/rules/create", { ...fields("P"), rollWeekends: "", intent: "preview", triggerDate: "2024-11-30" })).text();
    expect(noRoll).toContain("2025-03-30, 2025-04-30, 2025-05-30");
    const badDate = await (await admin.post("/rules/create", { ...fields("P"), intent: "preview", triggerDate: "2023-02-29" })).text();
    expect(badDate).toContain(RULES.badTriggerDate);
    const invalid = await (await admin.post("/rules/create", { ...fields("P", { "deadlines[0].label": "" }), intent: "preview", triggerDate: "2024-01-01" })).text();
    expect(invalid).toContain(RULES.previewNeedsValidRule);
  });

  it("add and remove deadline rows without JavaScript (conform list intents answer 200 with the new rows)", async () => {
    const add = await admin.post(`/rules/create?_data=${DATA}`, {
      ...fields("Rows"),
      intent: "",
      __intent__: JSON.stringify({ type: "insert", payload: { name: "deadlines" } }),
    });
    expect(add.status).toBe(200);
    const reply = (await add.json()) as { initialValue: { deadlines: unknown[] } };
    expect(reply.initialValue.deadlines).toHaveLength(2);
  });

  it("clone, edit, delete with confirmation", async () => {
    const name = `EP ${uniq()}`;
    await admin.post("/rules/create", fields(name));
    const found = (await (await app.adminApi("GET", `/api/rules?q=${encodeURIComponent(name)}`)).json()) as { items: Array<{ id: string }> };
    const id = found.items[0]!.id;
    const clone = await admin.post("/rules", { intent: "clone", id });
    const to = clone.headers.get("Location")!;
    const page = await (await admin.get(to)).text();
    expect(page).toContain(RULES.toasts.cloned);
    expect(page).toContain(`${name} (copy)`);
    const saved = await admin.post(`/rules/${id}/edit`, fields(`${name} v2`));
    expect(saved.headers.get("Location")).toBe("/rules");
    expect(await (await admin.get("/rules")).text()).toContain(RULES.toasts.updated);
    const ask = await admin.post(`/rules/${id}/edit`, { intent: "delete" });
    expect(await ask.text()).toContain("This action can&#x27;t be undone.");
    const del = await admin.post(`/rules/${id}/edit`, { intent: "delete", confirmed: "yes" });
    expect(del.headers.get("Location")).toBe("/rules");
    const failed = await admin.post("/rules", { intent: "clone", id });
    expect(await failed.text()).toContain(RULES.toasts.cloneFailed);
  });

  it("permissions: templates.read views read-only; writes need templates", async () => {
    const name = `Perm ${uniq()}`;
    await admin.post("/rules/create", fields(name));
    const found = (await (await app.adminApi("GET", `/api/rules?q=${encodeURIComponent(name)}`)).json()) as { items: Array<{ id: string }> };
    const id = found.items[0]!.id;
    const email = `reader-${uniq()}@test.local`;
    await app.createUser(email, ["templates.read"]);
    const reader = app.browser();
    await reader.signIn(email, "secret-123");
    const list = await (await reader.get("/rules")).text();
    expect(list).not.toContain(RULES.addNew);
    expect(list).not.toContain('value="clone"');
    expect(await (await reader.get(`/rules/${id}/edit`)).text()).toContain(RULES.readOnlyNote);
    expect((await reader.get("/rules/create")).status).toBe(404);
    expect((await reader.post("/rules", { intent: "clone", id })).status).toBe(404);
    expect((await reader.post(`/rules/${id}/edit`, fields("x"))).status).toBe(404);
  });
});
