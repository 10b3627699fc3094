import { describe, expect, it } from "vitest";
import { CONVERTER_MESSAGES } from "@contract/converters";
import { TEXT_FROM_FILE } from "~/ui/text-from-file";
import { chainsOf, draftVersionOf } from "../helpers/chains";
import { appAsAdmin, unescapeHtml, uniq } from "../helpers/app";

/**
 * A prompt link's "Load text from a file" (spec 3 §5; the converters' shared widget) on the chain page, without
 * JavaScript: a file of the text list is read on the server and shown for review under its link; "Use this text"
 * posts the link's form and the text joins its last user message in the draft; another type is refused with the
 * spec's warning, nothing changed.
 */
const { app, admin } = appAsAdmin();
const { create: chain, draft: draftOf } = chainsOf(app);


describe("chain page: load text from a file into a prompt link", () => {
  it("reads a .txt for review under its link, 'Use this text' adds it to the last user message; a .png is refused", async () => {
    const c = await chain({ name: `Files ${uniq()}` });
    const version = async () => draftVersionOf(await (await admin.get(`/chains/${c.id}`)).text());
    expect((await admin.post(`/chains/${c.id}?index`, { draftVersion: await version(), intent: "add", type: "prompt" })).status).toBe(302);
    const link = (await draftOf(c.id)).data.template.chain[0]!;

    const notes = "Claim 1 recites a spring-loaded widget.\nThe examiner cites D1.";
    const read = await admin.postMultipart(`/chains/${c.id}?index`, {
      intent: TEXT_FROM_FILE.intent,
      link: link.id,
      [TEXT_FROM_FILE.field]: new File([notes], "office-action.txt", { type: "text/plain" }),
    });
    expect(read.status).toBe(200);
    const page = unescapeHtml(await read.text());
    expect(page).toContain("Text from office-action.txt");
    expect(page).toContain(notes);
    // The review is under this link: its textarea posts with the link's own form.
    expect(page).toMatch(new RegExp(`<textarea[^>]*name="${TEXT_FROM_FILE.textField}"[^>]*form="link-form-${link.id}"`));

    const before = (await draftOf(c.id)).data.template.chain[0]!;
    const used = await admin.post(`/chains/${c.id}?index`, {
      draftVersion: await version(),
      link: link.id,
      intent: TEXT_FROM_FILE.useIntent,
      name: before.name,
      model: "",
      temperature: "0.7",
      max_tokens: "",
      content: before.type === "prompt" ? before.messages.map((m) => m.content) : [],
      [TEXT_FROM_FILE.textField]: notes,
    });
    expect(used.status).toBe(302);
    const after = (await draftOf(c.id)).data.template.chain[0]!;
    expect(after.type === "prompt" && after.messages.at(-1)).toEqual({ role: "user", content: expect.stringContaining(notes) as unknown });
    expect(after.type === "prompt" && after.messages.length).toBe(before.type === "prompt" ? before.messages.length : -1);

    // Past the 1 MB of other pages: the page takes a file the converters take (the guard's limit for this route).
    const big = "A widget with a spring. ".repeat(100_000);
    const large = await admin.postMultipart(`/chains/${c.id}?index`, {
      intent: TEXT_FROM_FILE.intent,
      link: link.id,
      [TEXT_FROM_FILE.field]: new File([big], "specification.txt", { type: "text/plain" }),
    });
    expect(large.status).toBe(200);
    expect(unescapeHtml(await large.text())).toContain("Text from specification.txt");

    const refused = await admin.postMultipart(`/chains/${c.id}?index`, {
      intent: TEXT_FROM_FILE.intent,
      link: link.id,
      [TEXT_FROM_FILE.field]: new File([new Uint8Array([137, 80, 78, 71])], "scan.png", { type: "image/png" }),
    });
    expect(refused.status).toBe(200);
    expect(unescapeHtml(await refused.text())).toContain(CONVERTER_MESSAGES.invalidTextFile);
    expect((await draftOf(c.id)).data.template.chain[0]).toEqual(after);
  });
});
