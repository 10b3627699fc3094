import { expect, it } from "vitest";
import { ATTACHMENT_CONVERSIONS, ATTACHMENT_MESSAGES, ATTACHMENT_PAGES, CHAIN_LIMITS } from "@contract/chains-constants";
import { CONVERTER_MESSAGES, UPLOAD_ACCEPT } from "@contract/converters";
import { CHAINS } from "~/chains/texts";
import { patentDocx } from "../fixtures/docx";
import { blankPdf, converterSuite, textPdf } from "../upstream/converters-files";
import { chainsOf, draftVersionOf } from "../helpers/chains";
import { appAsAdmin, unescapeHtml, uniq } from "../helpers/app";

/**
 * Office files and PDFs attached to a vision model's message (spec 3 §5 "Uploads: images accept .png, .jpeg, .jpg,
 * .docx, .pptx, .pptm, .vsdx, .pdf"): each page becomes an image attachment named after its file and page, through the
 * upstream's converters; a file that cannot be converted, or one past the page or image bound, is refused on its
 * message with everything typed kept. Real files made here; LibreOffice and poppler run as in production.
 */
const suite = converterSuite("chains-attachments.test.ts");

const { app, admin } = appAsAdmin();
const { create: chain, draft: draftOf, org, model } = chainsOf(app);
const E = CHAINS.editor;

const page = async (id: string) => unescapeHtml(await (await admin.get(`/chains/${id}`)).text());
const post = async (id: string, fields: Record<string, string | File | (string | File)[]>) =>
  admin.postMultipart(`/chains/${id}?index`, { draftVersion: draftVersionOf(await page(id)), ...fields });
const file = (name: string, bytes: Buffer) => new File([new Uint8Array(bytes)], name);

async function attachedTo(id: string) {
  const link = (await draftOf(id)).data.template.chain[0]!;
  if (link.type !== "prompt") throw new Error("a prompt link");
  return (link.messages[1]!.supplementals?.files ?? []).map((f) => [f.name, f.type]);
}

suite("chain editor: office files and PDFs on a message become page images", () => {
  it("a .pdf and a .docx give one image a page; a bad file, too many pages or images are refused with what was typed kept", async () => {
    const acme = await org(`Attach ${uniq()}`);
    const vision = await model(`vision-${uniq()}`, [acme], "chat-with-vision");
    const c = await chain({ name: `Attach ${uniq()}`, organizations: [acme] });
    expect((await post(c.id, { intent: "add", type: "prompt" })).status).toBe(302);
    const link = (await draftOf(c.id)).data.template.chain[0]!;
    const fields = { link: link.id, name: "PROMPT 1", temperature: "0.7", max_tokens: "", model: vision };
    const four = ["Be precise.", "Read the claims.", "Read.", "Which claim is broader?"];
    for (const n of [2, 3]) expect((await post(c.id, { ...fields, intent: "addMessage", content: four.slice(0, n) })).status).toBe(302);
    // The message's upload accepts the spec's list (one constant).
    expect(await page(c.id)).toContain(`accept="${UPLOAD_ACCEPT.images.join(",")}"`);

    const pdf = blankPdf(2);
    let started = Date.now();
    expect((await post(c.id, { ...fields, intent: "save", content: four, "image-1": file("claims.pdf", pdf) })).status).toBe(302);
    console.log(`a 2-page PDF attached: ${Date.now() - started} ms`);
    expect(await attachedTo(c.id)).toEqual([
      ["claims.pdf p. 1", "png"],
      ["claims.pdf p. 2", "png"],
    ]);
    started = Date.now();
    expect((await post(c.id, { ...fields, intent: "save", content: four, "image-1": file("spec.docx", await patentDocx({ pages: 1 })) })).status).toBe(302);
    console.log(`a .docx attached (LibreOffice, then poppler): ${Date.now() - started} ms`);
    const attached = await attachedTo(c.id);
    expect(attached.slice(0, 3)).toEqual([
      ["claims.pdf p. 1", "png"],
      ["claims.pdf p. 2", "png"],
      ["spec.docx p. 1", "png"],
    ]);
    expect(attached.every(([name]) => /^(claims\.pdf|spec\.docx) p\. \d+$/.test(name!))).toBe(true);
    const html = await page(c.id);
    expect(html).toContain("spec.docx p. 1");
    expect(html).toContain(`aria-label="${E.removeFile("claims.pdf p. 2")}"`);

    // A file that is no PDF: the §8 conversion text on the message, the words typed kept, nothing attached.
    const typed = ["Be precise.", "Typed words", "Read.", "Q"];
    const broken = await post(c.id, { ...fields, intent: "save", content: typed, "image-1": file("broken.pdf", Buffer.from("%PDF-1.4 nothing")) });
    expect(broken.status).toBe(400);
    const brokenHtml = unescapeHtml(await broken.text());
    expect(brokenHtml).toContain(CONVERTER_MESSAGES.convertMany);
    expect(brokenHtml).toContain("Typed words");
    // Stray bytes named .docx never reach LibreOffice: the office text.
    const stray = await post(c.id, { ...fields, intent: "save", content: typed, "image-1": file("notes.docx", Buffer.from("just text")) });
    expect(stray.status).toBe(400);
    expect(unescapeHtml(await stray.text())).toContain(CONVERTER_MESSAGES.convertOffice);

    // One post converts at most ATTACHMENT_CONVERSIONS files: past it, none is converted and each is refused.
    const files = Object.fromEntries(Array.from({ length: ATTACHMENT_CONVERSIONS + 1 }, (_, i) => [`image-${i}`, file(`part${i}.pdf`, blankPdf(1))]));
    const many = await post(c.id, { ...fields, intent: "save", content: typed, ...files });
    expect(many.status).toBe(400);
    expect(unescapeHtml(await many.text())).toContain(ATTACHMENT_MESSAGES.tooManyConversions(ATTACHMENT_CONVERSIONS));
    expect(await attachedTo(c.id)).toEqual(attached);

    // The page bound of one file, and the image bound of a message.
    const long = await post(c.id, { ...fields, intent: "save", content: typed, "image-1": file("long.pdf", blankPdf(ATTACHMENT_PAGES + 1)) });
    expect(long.status).toBe(400);
    expect(unescapeHtml(await long.text())).toContain(CONVERTER_MESSAGES.tooManyPages(ATTACHMENT_PAGES));
    for (let left = CHAIN_LIMITS.attachments - attached.length; left > 0; left -= ATTACHMENT_PAGES) {
      const pages = blankPdf(Math.min(left, ATTACHMENT_PAGES));
      expect((await post(c.id, { ...fields, intent: "save", content: four, "image-1": file("filler.pdf", pages) })).status).toBe(302);
    }
    const full = await post(c.id, { ...fields, intent: "save", content: typed, "image-1": file("more.pdf", textPdf(["One more page."])) });
    expect(full.status, "the message is full").toBe(400);
    expect(unescapeHtml(await full.text())).toContain(ATTACHMENT_MESSAGES.tooManyImages(CHAIN_LIMITS.attachments));
    expect(await attachedTo(c.id)).toHaveLength(CHAIN_LIMITS.attachments);
  }, 120_000);
});
