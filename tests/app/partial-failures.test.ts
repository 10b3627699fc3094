import { describe, expect, it } from "vitest";
import { APPLICATION_CRAWLER } from "~/application-crawler/texts";
import { EMAIL_CONNECTOR } from "~/email-connector/texts";
import { TRY_LATER } from "~/lib/toast.server";
import { MESSAGES } from "~/messages/texts";
import { RULES } from "~/rules/texts";
import { appAsAdmin, refusingUpstream, uniq, unescapeHtml } from "../helpers/app";

/**
 * Spec 2 §8's failure texts on the messages, rules, reports and settings screens when the upstream refuses a change
 * that passed the page's checks: 'Create failed' / 'Update failed' / 'Delete failed' with the server's message (a 4xx)
 * or the try-later text (a 5xx), and the inline texts ('Failed to save a message...'). The upstream answers as told
 * for one method and path.
 */
const { app, admin } = appAsAdmin();
const { refuse, restore } = refusingUpstream(app);
const unescape = unescapeHtml;

describe("failure texts of the messages, rules, reports and settings screens", () => {
  it("messages: 'Create failed' with the server's message and 'Failed to save a message...'; 'Delete failed'", async () => {
    refuse("POST", /^\/api\/messages\/?$/, 409, "A message with this name exists.");
    const created = await admin.post("/messages/create", { intent: "save", name: `M ${uniq()}`, subject: "", body: "" });
    expect(created.status).toBe(409);
    const html = unescape(await created.text());
    expect(html).toContain(MESSAGES.toasts.createFailed);
    expect(html).toContain("A message with this name exists.");
    expect(html).toContain(MESSAGES.inline.saveFailed);
    restore();

    const id = ((await (await app.adminApi("POST", "/api/messages", { name: `M ${uniq()}` })).json()) as { id: string }).id;
    refuse("DELETE", /^\/api\/messages\//, 500, "boom");
    const deleted = await admin.post(`/messages/${id}/edit`, { intent: "delete", confirmed: "yes" });
    expect(deleted.status).toBe(502);
    const text = unescape(await deleted.text());
    expect(text).toContain(MESSAGES.toasts.deleteFailed);
    expect(text).toContain(TRY_LATER);
    expect(text).not.toContain("boom");
  });

  it("rules: 'Create failed', 'Update failed', 'Delete failed'", async () => {
    const form = {
      intent: "save",
      name: `R ${uniq()}`,
      jurisdiction: "",
      trigger: "Filing",
      description: "",
      "deadlines[0].label": "Response",
      "deadlines[0].amount": "3",
      "deadlines[0].measure": "months",
      "deadlines[0].extension.times": "0",
      "deadlines[0].extension.amount": "1",
      "deadlines[0].extension.measure": "months",
    };
    refuse("POST", /^\/api\/rules\/?$/, 400, "name: taken");
    expect(unescape(await (await admin.post("/rules/create", form)).text())).toContain(RULES.toasts.createFailed);
    restore();
    const id = ((await (await app.adminApi("POST", "/api/rules", { name: `R ${uniq()}`, trigger: "Filing", deadlines: [{ label: "Response", amount: 3, measure: "months", extension: { times: 0, amount: 1, measure: "months" } }] })).json()) as { id: string }).id;
    refuse("PATCH", /^\/api\/rules\//, 400, "deadlines: refused");
    const updated = unescape(await (await admin.post(`/rules/${id}/edit`, form)).text());
    expect(updated).toContain(RULES.toasts.updateFailed);
    expect(updated).toContain("deadlines: refused");
    restore();
    refuse("DELETE", /^\/api\/rules\//, 503, "down");
    expect(unescape(await (await admin.post(`/rules/${id}/edit`, { intent: "delete", confirmed: "yes" })).text())).toContain(RULES.toasts.deleteFailed);
  });

  it("e-mail connector and applications: 'Update failed' with the server's message", async () => {
    refuse("POST", /^\/api\/ms-graph-email-connector\/settings$/, 400, "fastLaneEmails: refused");
    const saved = unescape(await (await admin.post("/emails-connector", { fastLaneEmails: "a@example.com" })).text());
    expect(saved).toContain(EMAIL_CONNECTOR.toasts.updateFailed);
    expect(saved).toContain("fastLaneEmails: refused");
    expect(saved).toContain(EMAIL_CONNECTOR.inline.saveFailed);
    restore();
    refuse("PUT", /^\/api\/application-crawler\/installer$/, 413, "The installer must be at most 50 MB.");
    const uploaded = await admin.postMultipart("/applications", { intent: "upload", version: "1.0", file: new File(["MZ"], "Setup.exe") });
    expect(uploaded.status).toBe(413);
    const html = unescape(await uploaded.text());
    expect(html).toContain(APPLICATION_CRAWLER.toasts.updateFailed);
    expect(html).toContain("The installer must be at most 50 MB.");
  });
});
