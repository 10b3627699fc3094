import { describe, expect, it } from "vitest";
import { FORM_MESSAGES } from "@contract/forms";
import { TEMPLATE_MESSAGES, splitFileName } from "@contract/templates";
import { masterSvg } from "../../upstream/src/templates/shapes";
import { largeDotx, modelXml, officePackage, pdf } from "../fixtures/office";
import { harness, message } from "./helpers";
import { bytesOf, sendMultipart, withPermissions, type Json } from "./templates-helpers";

describe("names from files (spec 2 §5)", () => {
  it("takes everything after the first dot as the extension, the rest trimmed as the name", () => {
    expect(splitFileName(" Patent Letter .v2.dotx")).toEqual({ name: "Patent Letter", ext: "v2.dotx" });
    expect(splitFileName("C:\\fakepath\\Claims.dotx")).toEqual({ name: "Claims", ext: "dotx" });
    expect(splitFileName("README")).toEqual({ name: "README", ext: "" });
  });
});

describe("Word templates (/api/docs/word)", () => {
  it("creates from a real .dotx, reads docProps, serves the bytes back, replaces and deletes the file with its record", async () => {
    const h = await harness();
    const dotx = await officePackage("dotx", { core: { title: "Letter", author: "Ann Lee", modified: "2024-03-01T10:00:00Z" } });
    const res = await sendMultipart(h, "POST", "/api/docs/word/", { description: "  A letter  ", tags: ["a"], isStyleMaster: true }, {
      fileTemplate: { name: "Office Letter.v1.dotx", bytes: dotx },
    });
    expect(res.status).toBe(201);
    const item = (await res.json()) as Record<string, Json>;
    expect(item).toMatchObject({ name: "Office Letter", ext: "v1.dotx", description: "A letter", isStyleMaster: true, isPublic: false });
    expect(item.fileTemplate.properties).toEqual({ title: "Letter", author: "Ann Lee", modified: "2024-03-01T10:00:00.000Z" });
    expect(item.fileTemplate.key).toBeUndefined();
    expect(item.contentUrl).toBe(`/api/docs/word/${item.id}/files/fileTemplate`);
    const download = await h.call("GET", item.contentUrl, { token: h.adminToken });
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("application/vnd.openxmlformats-officedocument.wordprocessingml.template");
    expect(download.headers.get("content-disposition")).toContain('filename="Office Letter.v1.dotx"');
    expect((await bytesOf(download)).equals(dotx)).toBe(true);

    // A patch without a file keeps it; with one replaces it (name from the new file), the old bytes deleted.
    const kept = await h.call("PATCH", `/api/docs/word/${item.id}`, { token: h.adminToken, body: { isPublic: true } });
    expect(((await kept.json()) as Json).fileTemplate.sha256).toBe(item.fileTemplate.sha256);
    const next = await officePackage("dotx");
    const replaced = (await (await sendMultipart(h, "PATCH", `/api/docs/word/${item.id}`, {}, { fileTemplate: { name: "Memo.dotx", bytes: next } })).json()) as Json;
    expect(replaced).toMatchObject({ name: "Memo", ext: "dotx", isPublic: true });
    expect(replaced.fileTemplate.properties).toBeNull();
    expect((await bytesOf(await h.call("GET", replaced.contentUrl, { token: h.adminToken }))).equals(next)).toBe(true);

    expect((await h.call("DELETE", `/api/docs/word/${item.id}`, { token: h.adminToken })).status).toBe(204);
    expect((await h.call("GET", replaced.contentUrl, { token: h.adminToken })).status).toBe(404);
  });

  it("refuses a missing file, a wrong extension and a file that is not what it claims", async () => {
    const h = await harness();
    const missing = await sendMultipart(h, "POST", "/api/docs/word/", {}, {});
    expect(missing.status).toBe(400);
    expect(await message(missing)).toBe(`fileTemplate: ${TEMPLATE_MESSAGES.templateRequired}`);
    const docx = await officePackage("docx");
    const wrongExt = await sendMultipart(h, "POST", "/api/docs/word/", {}, { fileTemplate: { name: "a.docx", bytes: docx } });
    expect(await message(wrongExt)).toBe(`fileTemplate: ${TEMPLATE_MESSAGES.wrongType(["dotx"])}`);
    // A .docx renamed .dotx: the package's main part is a document, not a template.
    const renamed = await sendMultipart(h, "POST", "/api/docs/word/", {}, { fileTemplate: { name: "a.dotx", bytes: docx } });
    expect(renamed.status).toBe(400);
    expect(await message(renamed)).toBe("fileTemplate: The file is not a valid Word template (.dotx).");
    const notZip = await sendMultipart(h, "POST", "/api/docs/word/", {}, { fileTemplate: { name: "a.dotx", bytes: Buffer.from("hello") } });
    expect(notZip.status).toBe(400);
    const list = (await (await h.call("GET", "/api/docs/word/", { token: h.adminToken })).json()) as Json;
    expect(list.total).toBe(0);
    const files = await import("node:fs").then((fs) => fs.existsSync(`${h.dir}/files/records`) ? fs.readdirSync(`${h.dir}/files/records/word-templates`) : []);
    expect(files).toEqual([]);
  });

  it("checks permissions: templates.read reads, templates writes", async () => {
    const h = await harness();
    await withPermissions(h, "r@x.test", ["templates.read"]);
    const reader = await h.login("r@x.test", "secret1");
    const dotx = await officePackage("dotx");
    expect((await sendMultipart(h, "POST", "/api/docs/word/", {}, { fileTemplate: { name: "a.dotx", bytes: dotx } }, reader)).status).toBe(403);
    expect((await h.call("GET", "/api/docs/word/", { token: reader })).status).toBe(200);
  });

  it("takes a large file (the largest tried: 19 MB) and gives it back byte for byte", async () => {
    const h = await harness();
    const big = await largeDotx(19 * 1024 * 1024);
    const started = performance.now();
    const res = await sendMultipart(h, "POST", "/api/docs/word/", {}, { fileTemplate: { name: "Big.dotx", bytes: big } });
    const ms = performance.now() - started;
    expect(res.status).toBe(201);
    const item = (await res.json()) as Json;
    expect((await bytesOf(await h.call("GET", item.contentUrl, { token: h.adminToken }))).equals(big)).toBe(true);
    console.log(`upstream: ${(big.length / 1024 / 1024).toFixed(1)} MB .dotx stored in ${ms.toFixed(0)} ms`);
  }, 30_000);
});

describe("Visio templates and shapes", () => {
  it("makes the masters of a .vstx its shapes with SVG thumbnails, keeps edits across a replaced file, deletes them with it", async () => {
    const h = await harness();
    const vstx = await officePackage("vstx", { masters: [{ id: 1, name: "Box" }, { id: 2, name: "Circle", geometry: "ellipse" }] });
    const item = (await (await sendMultipart(h, "POST", "/api/docs/visio/", {}, { fileTemplate: { name: "Flow.vstx", bytes: vstx } })).json()) as Json;
    expect(item).toMatchObject({ name: "Flow", ext: "vstx" });
    const shapes = (await (await h.call("GET", "/api/shapes/?sort=name", { token: h.adminToken })).json()) as Json;
    expect(shapes.items.map((s: Json) => [s.name, s.templateName])).toEqual([["Box", "Flow"], ["Circle", "Flow"]]);
    const box = shapes.items[0];
    const thumb = await h.call("GET", box.thumbnailUrl, { token: h.adminToken });
    expect(thumb.headers.get("content-type")).toBe("image/svg+xml");
    expect(await thumb.text()).toMatch(/^<svg[^>]*><path d="M-?[\d.]+ -?[\d.]+L/);
    expect((await h.call("PATCH", `/api/shapes/${box.id}`, { token: h.adminToken, body: { name: "Process", tags: ["flow"] } })).status).toBe(200);
    expect((await h.call("POST", "/api/shapes/", { token: h.adminToken, body: { name: "x" } })).status).toBe(404);

    const next = await officePackage("vstx", { masters: [{ id: 1, name: "Box", geometry: "triangle" }] });
    await sendMultipart(h, "PATCH", `/api/docs/visio/${item.id}`, {}, { fileTemplate: { name: "Flow.vstx", bytes: next } });
    const after = (await (await h.call("GET", "/api/shapes/", { token: h.adminToken })).json()) as Json;
    expect(after.items.map((s: Json) => [s.id, s.name, s.tags])).toEqual([[box.id, "Process", ["flow"]]]);

    await h.call("DELETE", `/api/docs/visio/${item.id}`, { token: h.adminToken });
    expect(((await (await h.call("GET", "/api/shapes/", { token: h.adminToken })).json()) as Json).total).toBe(0);
  });

  it("refuses a .vsdx renamed .vstx and a zip bomb", async () => {
    const h = await harness();
    const vsdx = await officePackage("vsdx");
    const res = await sendMultipart(h, "POST", "/api/docs/visio/", {}, { fileTemplate: { name: "a.vstx", bytes: vsdx } });
    expect(await message(res)).toBe("fileTemplate: The file is not a valid Visio template (.vstx).");
    const bomb = await officePackage("vstx", { extra: { "[Content_Types].xml": Buffer.alloc(20 * 1024 * 1024, 0x20) } });
    const refused = await sendMultipart(h, "POST", "/api/docs/visio/", {}, { fileTemplate: { name: "b.vstx", bytes: bomb } });
    expect(refused.status).toBe(413);
  });

  it("draws the geometry of a master as an SVG path (scaled viewBox, no text from the file)", async () => {
    const svg = await masterSvg(`<MasterContents><Shapes><Shape ID="1"><Cell N="Width" V="2"/><Cell N="Height" V="1"/><Section N="Geometry"><Row T="MoveTo"><Cell N="X" V="0"/><Cell N="Y" V="0"/></Row><Row T="LineTo"><Cell N="X" V="2"/><Cell N="Y" V="1"/></Row></Section></Shape></Shapes></MasterContents>`);
    expect(svg).toContain('d="M0 0L2 -1"');
    expect(svg).toContain('viewBox="-0.12 -1.12 2.24 1.24"');
    expect(await masterSvg("<MasterContents/>")).toContain("stroke-dasharray");
  });
});

describe("Drawings (/api/drawings)", () => {
  it("takes .vsdx or .vstx with a text template; writes need templates.write", async () => {
    const h = await harness();
    const vsdx = await officePackage("vsdx");
    const res = await sendMultipart(h, "POST", "/api/drawings/", { textTemplate: "{{title}}" }, { fileTemplate: { name: "Fig 1.vsdx", bytes: vsdx } });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ name: "Fig 1", ext: "vsdx", textTemplate: "{{title}}" });
    const dotx = await officePackage("dotx");
    const wrong = await sendMultipart(h, "POST", "/api/drawings/", {}, { fileTemplate: { name: "x.dotx", bytes: dotx } });
    expect(await message(wrong)).toBe(`fileTemplate: ${TEMPLATE_MESSAGES.wrongType(["vsdx", "vstx"])}`);
    await withPermissions(h, "t@x.test", ["templates.read"]);
    const reader = await h.login("t@x.test", "secret1");
    expect((await sendMultipart(h, "POST", "/api/drawings/", {}, { fileTemplate: { name: "F.vsdx", bytes: vsdx } }, reader)).status).toBe(403);
  });
});

describe("Forms (/api/forms, spec 2 §5)", () => {
  const data = { type: "xfa", fileNameTemplate: "{{matter}}.pdf" };
  it("requires type, form file, model file for the PDF types and the filename template", async () => {
    const h = await harness();
    const noType = await sendMultipart(h, "POST", "/api/forms/", { fileNameTemplate: "x" }, {});
    expect(await message(noType)).toBe(`type: ${FORM_MESSAGES.typeRequired}`);
    const noTemplate = await sendMultipart(h, "POST", "/api/forms/", { type: "docx" }, {});
    expect(await message(noTemplate)).toBe(`fileNameTemplate: ${FORM_MESSAGES.fileNameTemplateRequired}`);
    const noForm = await sendMultipart(h, "POST", "/api/forms/", data, {});
    expect(await message(noForm)).toBe(`formFile: ${FORM_MESSAGES.formFileRequired}`);
    const noModel = await sendMultipart(h, "POST", "/api/forms/", data, { formFile: { name: "F.pdf", bytes: pdf() } });
    expect(await message(noModel)).toBe(`modelFile: ${FORM_MESSAGES.modelFileRequired}`);
    const docxForXfa = await sendMultipart(h, "POST", "/api/forms/", data, { formFile: { name: "F.docx", bytes: await officePackage("docx") }, modelFile: { name: "m.xml", bytes: modelXml() } });
    expect(await message(docxForXfa)).toBe(`formFile: ${FORM_MESSAGES.formFileType(["pdf"])}`);
    const badModel = await sendMultipart(h, "POST", "/api/forms/", data, { formFile: { name: "F.pdf", bytes: pdf() }, modelFile: { name: "m.xfdf", bytes: modelXml() } });
    expect(await message(badModel)).toBe(`modelFile: ${FORM_MESSAGES.modelFileType(["xfa", "xml"])}`);
    const fakePdf = await sendMultipart(h, "POST", "/api/forms/", data, { formFile: { name: "F.pdf", bytes: Buffer.from("nope") }, modelFile: { name: "m.xml", bytes: modelXml() } });
    expect(await message(fakePdf)).toBe("formFile: The file is not a valid PDF file (.pdf).");
  });

  it("creates, downloads both files, needs a new form file when the type changes, drops the model for a Word type", async () => {
    const h = await harness();
    const formPdf = pdf("A");
    const model = modelXml("xfa");
    const res = await sendMultipart(h, "POST", "/api/forms/", { ...data, clients: ["ACME"], tags: ["t"] }, { formFile: { name: "IDS Form.pdf", bytes: formPdf }, modelFile: { name: "ids.xfa", bytes: model } });
    expect(res.status).toBe(201);
    const form = (await res.json()) as Json;
    expect(form).toMatchObject({ name: "IDS Form", type: "xfa", clients: ["ACME"] });
    expect((await bytesOf(await h.call("GET", form.formUrl, { token: h.adminToken }))).equals(formPdf)).toBe(true);
    expect((await bytesOf(await h.call("GET", form.modelUrl, { token: h.adminToken }))).equals(model)).toBe(true);
    const changed = await h.call("PATCH", `/api/forms/${form.id}`, { token: h.adminToken, body: { type: "docx" } });
    expect(await message(changed)).toBe(`formFile: ${FORM_MESSAGES.formFileRequired}`);
    const docm = await officePackage("docm");
    const word = (await (await sendMultipart(h, "PATCH", `/api/forms/${form.id}`, { type: "docm" }, { formFile: { name: "Letter.docm", bytes: docm } })).json()) as Json;
    expect(word).toMatchObject({ name: "Letter", type: "docm", modelFile: null, modelUrl: null });
    expect((await h.call("GET", form.modelUrl, { token: h.adminToken })).status).toBe(404);
    const back = await sendMultipart(h, "PATCH", `/api/forms/${form.id}`, { type: "xfdf" }, { formFile: { name: "F.pdf", bytes: pdf() } });
    expect(await message(back)).toBe(`modelFile: ${FORM_MESSAGES.modelFileRequired}`);
  });

  it("forms.read reads, forms writes", async () => {
    const h = await harness();
    await withPermissions(h, "f@x.test", ["forms.read"]);
    const reader = await h.login("f@x.test", "secret1");
    expect((await h.call("GET", "/api/forms/", { token: reader })).status).toBe(200);
    expect((await sendMultipart(h, "POST", "/api/forms/", { type: "docx", fileNameTemplate: "x" }, { formFile: { name: "a.docx", bytes: await officePackage("docx") } }, reader)).status).toBe(403);
  });
});
