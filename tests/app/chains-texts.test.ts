import { describe, expect, it } from "vitest";
import { CHAIN_LIMITS, CHAIN_MESSAGES } from "@contract/chains-constants";
import { VERSION_MESSAGES } from "@contract/versions";
import { CHAINS } from "~/chains/texts";
import { chainsOf, draftVersionOf } from "../helpers/chains";
import { appAsAdmin, unescapeHtml, uniq } from "../helpers/app";

/**
 * Spec 3 §8 "Library and chains", the chain page's Dialog tab: each text verbatim where the page says it. Where the
 * others are tested: 'Failed to save prompt…' and 'Delete Link' (chains-editor*.test.ts), 'Delete chain?', 'Content
 * chain deleted', 'Failed to content chain prompt' (chains.test.ts), the toolbar's and versions' texts
 * (chains-toolbar.test.ts), the context's and runs' (chains-context*, chains-runs*).
 */
const { app, admin } = appAsAdmin();
const { create: chain } = chainsOf(app);

describe("chain page: §8 texts of the Dialog tab", () => {
  it("the texts are the spec's", () => {
    expect(CHAINS.toasts.draftSaved).toBe("Draft saved");
    expect(CHAINS.toasts.updateFailed).toBe("Update failed");
    expect(CHAINS.toasts.updated).toBe("Update completed");
    expect(CHAINS.toasts.deleted).toBe("Content chain deleted");
    expect(CHAINS.toasts.deleteFailed).toBe("Failed to content chain prompt");
    expect(CHAINS.editor.deleteLink).toBe("Delete Link");
    expect(CHAINS.confirmDelete.title).toBe("Delete chain?");
    expect(CHAINS.confirmDelete.message()).toBe("This action can't be undone.");
    expect(CHAIN_MESSAGES.saveFailed).toBe("Failed to save prompt. Check your input and try again.");
    expect(VERSION_MESSAGES.overwriteDraft).toBe("Overwrite draft?");
  });

  it("'Draft saved' after an edit; a draft save refused by the server: 'Update failed' with its message", async () => {
    const c = await chain({ name: `Texts ${uniq()}` });
    const shown = draftVersionOf(await (await admin.get(`/chains/${c.id}`)).text());
    const saved = await admin.post(`/chains/${c.id}?index`, { draftVersion: shown, intent: "add", type: "template" });
    expect(saved.status).toBe(302);
    expect(unescapeHtml(await (await admin.get(saved.headers.get("location")!)).text())).toContain(CHAINS.toasts.draftSaved);
    // The page shown before that edit posts again: the draft moved on, nothing is overwritten unseen ('Overwrite draft?'
    // asks first: chains-toolbar.test.ts).
    const stale = await admin.post(`/chains/${c.id}?index`, { draftVersion: shown, intent: "add", type: "query" });
    expect(stale.status).toBe(409);
    expect(unescapeHtml(await stale.text())).toContain(`<h2 id="newer-draft-title">${VERSION_MESSAGES.overwriteDraft}</h2>`);
    // A save the server refuses with a message: 'Update failed' and that message (a draft past the upstream's body bound).
    const content = await chain({ name: `Texts ${uniq()}`, template: { chain: [{ id: "c", type: "content", name: "CONTENT 1", source: { type: "file", value: [] } }] } });
    const big = (name: string) => new File([new Uint8Array(CHAIN_LIMITS.fileBytes).fill(7)], name);
    const fields = { draftVersion: "0", link: "c", name: "CONTENT 1", sourceType: "file", intent: "save" };
    const refused = await admin.postMultipart(`/chains/${content.id}?index`, { ...fields, contentFile: [big("a.png"), big("b.png")] });
    expect(refused.status).toBe(409);
    expect(unescapeHtml(await refused.text())).toContain(`<p class="form-error" role="alert"><strong>${CHAINS.toasts.updateFailed}</strong> <!-- -->${CHAIN_MESSAGES.tooLarge}</p>`);
  });
});
