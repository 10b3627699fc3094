import { describe, expect, test } from "vitest";
import { RULE_MESSAGES, Rule, RulePage } from "@contract/rules";
import { harness, message } from "./helpers";
import { tokenWith } from "./token-with";

const deadline = { label: "Response", amount: 3, measure: "months", extension: { times: 3, amount: 1, measure: "months" } };

describe("/api/rules", () => {
  test("create, list with search, patch, clone, delete; 400 messages", async () => {
    const h = await harness();
    const t = h.adminToken;
    const r = await h.call("POST", "/api/rules", { token: t, body: { name: " US non-final OA ", jurisdiction: "US", trigger: "Office Action mailed", deadlines: [deadline] } });
    expect(r.status).toBe(201);
    const rule = Rule.parse(await r.json());
    expect(rule).toMatchObject({ name: "US non-final OA", jurisdiction: "US", description: "", rollWeekends: true, deadlines: [deadline] });
    await h.call("POST", "/api/rules", { token: t, body: { name: "EP search report", trigger: "Search report", deadlines: [deadline] } });
    const page = RulePage.parse(await (await h.call("GET", "/api/rules?q=office%20action", { token: t })).json());
    expect(page.items.map((x) => x.name)).toEqual(["US non-final OA"]);
    const patched = await h.call("PATCH", `/api/rules/${rule.id}`, { token: t, body: { rollWeekends: false } });
    expect(Rule.parse(await patched.json())).toMatchObject({ rollWeekends: false, deadlines: [deadline] });
    const copy = Rule.parse(await (await h.call("POST", `/api/rules/${rule.id}/clone`, { token: t })).json());
    expect(copy).toMatchObject({ name: "US non-final OA (copy)", deadlines: [deadline], rollWeekends: false });
    expect((await h.call("DELETE", `/api/rules/${rule.id}`, { token: t })).status).toBe(204);
    const gone = await h.call("GET", `/api/rules/${rule.id}`, { token: t });
    expect(await message(gone)).toBe("Rule not found.");
    const bad = await h.call("POST", "/api/rules", { token: t, body: { name: " ", trigger: "", deadlines: [] } });
    expect(bad.status).toBe(400);
    const text = await message(bad);
    expect(text).toContain(RULE_MESSAGES.nameRequired);
    const badAmount = await h.call("POST", "/api/rules", { token: t, body: { name: "x", trigger: "y", deadlines: [{ ...deadline, amount: 1.5, measure: "fortnights" }] } });
    expect(await message(badAmount)).toContain(RULE_MESSAGES.amount);
  });

  test("permissions: templates.read lists and reads; `templates` writes and clones", async () => {
    const h = await harness();
    const rule = Rule.parse(await (await h.call("POST", "/api/rules", { token: h.adminToken, body: { name: "R", trigger: "T", deadlines: [deadline] } })).json());
    const reader = await tokenWith(h, "reader@example.com", ["templates.read"]);
    expect((await h.call("GET", "/api/rules", { token: reader })).status).toBe(200);
    expect((await h.call("GET", `/api/rules/${rule.id}`, { token: reader })).status).toBe(200);
    expect((await h.call("POST", "/api/rules", { token: reader, body: { name: "R", trigger: "T", deadlines: [deadline] } })).status).toBe(403);
    expect((await h.call("POST", `/api/rules/${rule.id}/clone`, { token: reader })).status).toBe(403);
    expect((await h.call("PATCH", `/api/rules/${rule.id}`, { token: reader, body: { name: "X" } })).status).toBe(403);
    expect((await h.call("DELETE", `/api/rules/${rule.id}`, { token: reader })).status).toBe(403);
    const none = await tokenWith(h, "none@example.com", ["messages"]);
    expect((await h.call("GET", "/api/rules", { token: none })).status).toBe(403);
  });
});
