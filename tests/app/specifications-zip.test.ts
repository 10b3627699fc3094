import { describe, expect, it } from "vitest";
import { SPECIFICATIONS } from "~/specifications/texts";
import { type Browser, appAsAdmin, uniq } from "../helpers/app";
import { DOCUMENT_MESSAGES, MAX_PARAGRAPHS } from "../../upstream/src/nlp/docx";
import { CONTENT_TYPES, docxBomb, entry, writeZip } from "../helpers/zip";

/** A .docx zip bomb uploaded on the specification page is refused with its message, never a 500. */
const { app, admin } = appAsAdmin();

const TOO_LARGE = "The document is too large when uncompressed (over 10 MB).";

const upload = (b: Browser, url: string, file: File) =>
  b.postMultipart(url, { intent: "upload", template: "{{title}}", document: file });

describe("specification upload with a zip bomb", () => {
  it("POST /specifications/{id}: 4xx with the message inline and in the toast, fast, for a read-only user too", async () => {
    const created = await admin.post("/specifications/create", { intent: "save", name: `Bomb ${uniq()}`, type: "claims", description: "d", tags: "x", template: "{{title}}" });
    expect(created.status).toBe(302);
    const id = created.headers.get("Location")!.split("/").pop()!;
    const bomb = new File([new Uint8Array(await docxBomb(200 * 1024 * 1024))], "bomb.docx");

    const t0 = performance.now();
    const page = await upload(admin, `/specifications/${id}`, bomb);
    const ms = performance.now() - t0;
    expect(page.status).toBeGreaterThanOrEqual(400);
    expect(page.status).toBeLessThan(500);
    const html = await page.text();
    expect(html).toContain(TOO_LARGE);
    expect(ms).toBeLessThan(2_000);

    const data = await upload(admin, `/specifications/${id}?_data=routes%2F_app.specifications.%24id._index`, bomb);
    expect(data.status).toBe(400);
    const sample = (await data.json()) as { uploadError: string; document: unknown; toast: { message: string; description?: string } };
    expect(sample.uploadError).toBe(TOO_LARGE);
    expect(sample.document).toBeNull();
    expect(sample.toast.message).toBe(SPECIFICATIONS.toasts.contextFailed);

    // specifications.read is enough to reach the upload.
    const email = `bomb-reader-${uniq()}@test.local`;
    await app.createUser(email, ["specifications.read"]);
    const reader = app.browser();
    await reader.signIn(email, "secret-123");
    const asReader = await upload(reader, `/specifications/${id}`, bomb);
    expect(asReader.status).toBe(400);
    expect(await asReader.text()).toContain(TOO_LARGE);
  });

  it("a document of too many paragraphs: its message inline, the page still there", async () => {
    const created = await admin.post("/specifications/create", { intent: "save", name: `Long ${uniq()}`, type: "claims", description: "d", tags: "x", template: "{{title}}" });
    const id = created.headers.get("Location")!.split("/").pop()!;
    const body = `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${"<w:p/>".repeat(MAX_PARAGRAPHS + 1)}</w:body></w:document>`;
    const file = new File([new Uint8Array(writeZip([entry("[Content_Types].xml", CONTENT_TYPES), entry("word/document.xml", body)]))], "long.docx");
    const page = await upload(admin, `/specifications/${id}`, file);
    expect(page.status).toBeGreaterThanOrEqual(400);
    expect(page.status).toBeLessThan(500);
    const html = await page.text();
    expect(html).toContain(DOCUMENT_MESSAGES.tooManyParagraphs);
    expect(html).toContain("{{title}}");
  });
});
