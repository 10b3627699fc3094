import { describe, expect, it } from "vitest";
import { SPECIFICATIONS } from "~/specifications/texts";
import { patentDocx } from "../fixtures/docx";
import { appAsAdmin, uniq } from "../helpers/app";

/** The workbench's document is uploaded once, kept on the server, and survives a reload. */
const { app, admin } = appAsAdmin();

const D = SPECIFICATIONS.detail;
const TEMPLATE = "{{title}}";
const DATA = "_data=routes%2F_app.specifications.%24id._index";


describe("the specification's document", () => {
  it("is kept between steps: the upload lands on ?document=<id>, a reload shows it again, Run posts only its id", async () => {
    const created = await admin.post("/specifications/create", { intent: "save", name: `Doc ${uniq()}`, type: "claims", template: TEMPLATE });
    const id = created.headers.get("Location")!.split("/").pop()!;
    const docx = new File([new Uint8Array(await patentDocx())], "widget.docx");

    // Uploaded with the saved template: redirected to the page's address that names the stored document.
    const up = await admin.postMultipart(`/specifications/${id}`, { intent: "upload", template: TEMPLATE, document: docx });
    expect(up.status).toBe(302);
    const location = up.headers.get("Location")!;
    const fileId = new URL(location, "http://localhost").searchParams.get("document")!;
    expect(location).toBe(`/specifications/${id}?document=${encodeURIComponent(fileId)}`);

    // A reload (any GET of that address) recomputes the context object from the kept file.
    for (let i = 0; i < 2; i++) {
      const html = await (await admin.get(location)).text();
      expect(html).toContain(D.currentDocument);
      expect(html).toContain(`href="/files/${encodeURIComponent(fileId)}" download="widget.docx">widget.docx</a>`);
      expect(html).toContain('data-testid="context-object"');
      expect(html).toContain(`name="documentId" value="${fileId}"`);
      expect(html).not.toContain("documentContent");
    }

    // The link streams the upload back byte for byte, to its owner only.
    const back = await admin.get(`/files/${encodeURIComponent(fileId)}`);
    expect(back.status).toBe(200);
    expect(back.headers.get("content-disposition")).toContain("widget.docx");
    expect(back.headers.get("cache-control")).toBe("private, no-store");
    expect(Buffer.from(await back.arrayBuffer()).equals(Buffer.from(await docx.arrayBuffer()))).toBe(true);
    const otherEmail = `other-${uniq()}@test.local`;
    await app.createUser(otherEmail, ["specifications.read"]);
    const other = app.browser();
    await other.signIn(otherEmail, "secret-123");
    expect((await other.get(`/files/${encodeURIComponent(fileId)}`)).status).toBe(404);
    expect((await admin.get("/files/no-such-file")).status).toBe(404);

    // Run posts the id, no bytes, and gets the output.
    const run = await admin.postMultipart(`/specifications/${id}?document=${fileId}&${DATA}`, { intent: "run", template: TEMPLATE, documentId: fileId });
    const sample = (await run.json()) as { output: string; document: Record<string, unknown> };
    expect(sample.output).toBe("Spring-loaded widget");
    expect(sample.document).toEqual({ fileId, name: "widget.docx" });

    // The address alone is enough (a page opened from a bookmark posts no hidden field).
    const bare = await admin.postMultipart(`/specifications/${id}?document=${fileId}&${DATA}`, { intent: "run", template: TEMPLATE });
    expect(((await bare.json()) as { output: string }).output).toBe("Spring-loaded widget");
  });

  it("an upload with unsaved template changes answers in place (the changes kept); a gone document says so", async () => {
    const created = await admin.post("/specifications/create", { intent: "save", name: `Doc ${uniq()}`, type: "claims", template: TEMPLATE });
    const id = created.headers.get("Location")!.split("/").pop()!;
    const docx = new File([new Uint8Array(await patentDocx())], "widget.docx");
    const up = await admin.postMultipart(`/specifications/${id}`, { intent: "upload", template: "{{title}} changed", document: docx });
    expect(up.status).toBe(200);
    const html = await up.text();
    expect(html).toContain("{{title}} changed");
    expect(html).toMatch(/action="\/specifications\/[^"]+\?document=/);

    const gone = await (await admin.get(`/specifications/${id}?document=no-such-file`)).text();
    expect(gone).toContain(D.documentGone);
    expect(gone).toContain(D.noDocument);
  });
});
