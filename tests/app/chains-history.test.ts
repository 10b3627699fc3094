import { describe, expect, it } from "vitest";
import { History } from "@contract/chains";
import { CHAIN_MESSAGES } from "@contract/chains-constants";
import { CHAINS } from "~/chains/texts";
import { TEXT_FROM_FILE } from "~/ui/text-from-file";
import { chainsOf, draftVersionOf } from "../helpers/chains";
import { appAsAdmin, browserWith, unescapeHtml, uniq } from "../helpers/app";

/**
 * The chain page's header badge while the Dialog tab edits the draft, the History tab's comments (spec 3 §6 "edit
 * version comments", §7 PATCH /history/{id}), and a prompts.read holder: everything read, every write refused.
 */
const { app, admin } = appAsAdmin();
const { create: chain } = chainsOf(app);
const T = CHAINS.page;

const badge = `<span class="badge badge-draft">${T.draftBadge}</span>`;
const history = async (id: string) => History.parse(await (await app.adminApi("GET", `/api/prompts/${id}/history`)).json());

describe("chain page: the draft's badge and the versions' comments", () => {
  it("shows the DRAFT badge only while the Dialog tab edits a draft", async () => {
    const c = await chain({ name: `Badge ${uniq()}` });
    expect(await (await admin.get(`/chains/${c.id}`)).text()).not.toContain(badge);
    const page = await (await admin.get(`/chains/${c.id}`)).text();
    expect((await admin.post(`/chains/${c.id}?index`, { draftVersion: draftVersionOf(page), intent: "add", type: "template" })).status).toBe(302);
    expect(await (await admin.get(`/chains/${c.id}`)).text()).toContain(badge);
    expect(await (await admin.get(`/chains/${c.id}?tab=history`)).text()).not.toContain(badge);
  });

  it("a version's comment is edited in the History tab ('Update completed'); a bad one is refused with what was typed", async () => {
    const c = await chain({ name: `Comments ${uniq()}`, comment: "First cut" });
    expect((await app.adminApi("PATCH", `/api/prompts/${c.id}`, { description: "More", comment: "" })).status).toBe(200);
    let html = unescapeHtml(await (await admin.get(`/chains/${c.id}?tab=history`)).text());
    expect(html).toMatch(/<input id="comment-1" name="comment" placeholder="[^"]*" value="First cut"\/>/);
    expect(html).toMatch(/<input id="comment-2" name="comment" placeholder="[^"]*" value=""\/>/);
    expect(html).toContain(`>${T.commentOf("Revision 2")}</label>`);

    const saved = await admin.post(`/chains/${c.id}?tab=history&index`, { intent: "comment", version: "1", comment: "The first cut, described" });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe(`/chains/${c.id}?tab=history`);
    html = unescapeHtml(await (await admin.get(`/chains/${c.id}?tab=history`)).text());
    expect(html).toContain(CHAINS.toasts.updated);
    expect((await history(c.id)).map((e) => [e.version, e.comment])).toEqual([
      [2, ""],
      [1, "The first cut, described"],
    ]);

    const gone = await admin.post(`/chains/${c.id}?tab=history&index`, { intent: "comment", version: "9", comment: "Typed words" });
    expect(gone.status).toBe(400);
    html = unescapeHtml(await gone.text());
    expect(html).toContain(`<p class="form-error" role="alert">${CHAIN_MESSAGES.historyNotFound}</p>`);
    const long = "x".repeat(3_000);
    const tooLong = await admin.post(`/chains/${c.id}?tab=history&index`, { intent: "comment", version: "2", comment: long });
    expect(tooLong.status).toBe(400);
    expect(unescapeHtml(await tooLong.text())).toMatch(new RegExp(`<input id="comment-2" name="comment"[^>]*aria-invalid="true"[^>]*value="${long}"`));
    expect((await history(c.id))[0]!.comment).toBe("");
  });

  it("prompts.read alone: the History tab without forms, the Dialog read-only; every post of the page 404, nothing changed", async () => {
    const c = await chain({
      name: `Reader ${uniq()}`,
      comment: "Kept",
      template: { chain: [{ id: "p", type: "prompt", name: "PROMPT 1", messages: [{ role: "user", content: "Hi" }] }] },
    });
    const reader = await browserWith(app, ["prompts.read"]);
    const tab = unescapeHtml(await (await reader.get(`/chains/${c.id}?tab=history`)).text());
    expect(tab).toContain("Kept");
    expect(tab).not.toContain('name="comment"');
    const dialog = unescapeHtml(await (await reader.get(`/chains/${c.id}`)).text());
    expect(dialog).toContain(CHAINS.readOnlyNote);
    expect(dialog).not.toContain(CHAINS.editor.saveOptions);
    expect(dialog).not.toContain(CHAINS.editor.saveLink);
    const posts: Record<string, string | string[]>[] = [
      { intent: "add", type: "prompt" },
      { intent: "add", type: "chat" },
      { intent: "options", insertIn: "Claims", insertAt: "End" },
      { intent: "save", link: "p", name: "PROMPT 2", content: ["Changed"] },
      { intent: "addMessage", link: "p", name: "PROMPT 1", content: ["Hi"] },
      { intent: "deleteMessage", link: "p", name: "PROMPT 1", content: ["Hi"] },
      { intent: "removeImage:0:0", link: "p", name: "PROMPT 1", content: ["Hi"] },
      { intent: "removeFile:0", link: "p", name: "PROMPT 1" },
      { intent: "up", link: "p" },
      { intent: "down", link: "p" },
      { intent: "delete", link: "p" },
      { intent: "delete", link: "p", confirmed: "yes" },
      { intent: TEXT_FROM_FILE.intent, link: "p" },
      { intent: TEXT_FROM_FILE.useIntent, link: "p", name: "PROMPT 1", content: ["Hi"] },
      { intent: "comment", version: "1", comment: "Changed" },
    ];
    for (const fields of posts) {
      expect((await reader.post(`/chains/${c.id}?index`, { draftVersion: "0", ...fields })).status, JSON.stringify(fields)).toBe(404);
    }
    expect((await app.adminApi("GET", `/api/prompts/${c.id}/draft`)).status).toBe(404);
    expect((await history(c.id)).map((e) => e.comment)).toEqual(["Kept"]);
  });
});
