import { describe, expect, it } from "vitest";
import { DOCUMENT_SAVE_FAILED, DRAWINGS, SHAPES, VISIO_TEMPLATES, WORD_TEMPLATES } from "~/templates/texts";
import { TEMPLATE_MESSAGES } from "@contract/templates";
import { officePackage } from "../fixtures/office";
import { appAsAdmin, browserWith, uniq } from "../helpers/app";

const { app, admin } = appAsAdmin();

const file = (bytes: Buffer, name: string) => new File([new Uint8Array(bytes)], name);
const data = (route: string) => `?_data=${encodeURIComponent(route)}`;
/** Spec 2 §2's columns, each a header cell (a sortable one holds its sort link). */
const expectHeaders = (html: string) => {
  for (const header of ["Name", "Description", "Tags", "Last modification"]) expect(html).toMatch(new RegExp(`<th[^>]*>(<a [^>]*>)?${header}<`));
};
const idOf = (html: string, path: string) => new RegExp(`${path}/([0-9a-f-]{36})/edit`).exec(html)?.[1] ?? null;

describe("Word templates screens", () => {
  it("create: 'Template is required', wrong type, then upload, list with docProps, download byte for byte", async () => {
    const missing = await admin.postMultipart(`/documents/word/create${data("routes/_app.documents.word.create")}`, { intent: "save", description: "", tags: "" });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: Record<string, string[]> }).error.fileTemplate).toEqual([TEMPLATE_MESSAGES.templateRequired]);
    const wrong = await admin.postMultipart("/documents/word/create", { intent: "save", fileTemplate: file(Buffer.from("x"), "a.docx") });
    expect(await wrong.text()).toContain(TEMPLATE_MESSAGES.wrongType(["dotx"]));
    // A .docx renamed .dotx: only the upstream can tell; its message shows beside the file input with the inline text.
    const renamed = await admin.postMultipart("/documents/word/create", { intent: "save", fileTemplate: file(await officePackage("docx"), "a.dotx") });
    expect(renamed.status).toBe(400);
    const renamedHtml = await renamed.text();
    expect(renamedHtml).toContain("The file is not a valid Word template (.dotx).");
    expect(renamedHtml).toContain(DOCUMENT_SAVE_FAILED);
    expect(renamedHtml).toContain(WORD_TEMPLATES.toasts.createFailed);

    const name = `Letter ${uniq()}`;
    const dotx = await officePackage("dotx", { core: { title: "Office letter", author: "Ann Lee", modified: "2024-03-01T10:00:00Z" } });
    const created = await admin.postMultipart("/documents/word/create", {
      intent: "save",
      fileTemplate: file(dotx, `${name}.v2.dotx`),
      description: "  Letters  ",
      tags: "EP; letters",
      isStyleMaster: "on",
    });
    expect(created.status).toBe(302);
    expect(created.headers.get("Location")).toBe("/documents/word");
    const list = await (await admin.get(`/documents/word?q=${encodeURIComponent(name)}`)).text();
    expect(list).toContain(WORD_TEMPLATES.toasts.created);
    expect(list).toContain(name);
    expect(list).toContain("Title: Office letter · Author: Ann Lee");
    expect(list).toContain("Letters");
    expectHeaders(list);
    const id = idOf(list, "/documents/word")!;
    // Name and description trimmed (the name from "<name>.v2.dotx": everything after the first dot is the extension).
    const editHtml = await (await admin.get(`/documents/word/${id}/edit`)).text();
    expect(editHtml).toContain(`value="${name}"`);
    expect(editHtml).toMatch(/>Letters<\/textarea>/);
    const download = await admin.get(`/documents/word/${id}/file`);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-disposition")).toContain(`filename="${name}.v2.dotx"`);
    expect(download.headers.get("content-type")).toBe("application/vnd.openxmlformats-officedocument.wordprocessingml.template");
    expect(Buffer.from(await download.arrayBuffer()).equals(dotx)).toBe(true);

    // Edit without replacing the file keeps it; with a new file the name and bytes follow it.
    const edited = await admin.postMultipart(`/documents/word/${id}/edit`, { intent: "save", description: "Changed", tags: "EP", isPublic: "on" });
    expect(edited.status).toBe(302);
    expect(Buffer.from(await (await admin.get(`/documents/word/${id}/file`)).arrayBuffer()).equals(dotx)).toBe(true);
    const next = await officePackage("dotx");
    const replaced = await admin.postMultipart(`/documents/word/${id}/edit`, { intent: "save", description: "Changed", tags: "", fileTemplate: file(next, `Memo ${name}.dotx`) });
    expect(replaced.status).toBe(302);
    const editPage = await (await admin.get(`/documents/word/${id}/edit`)).text();
    expect(editPage).toContain(`value="Memo ${name}"`);
    expect(Buffer.from(await (await admin.get(`/documents/word/${id}/file`)).arrayBuffer()).equals(next)).toBe(true);

    // Delete: the confirmation first ('This action can't be undone.'), then gone with its file.
    const ask = await admin.postMultipart(`/documents/word/${id}/edit`, { intent: "delete" });
    expect(await ask.text()).toContain("This action can&#x27;t be undone.");
    const gone = await admin.postMultipart(`/documents/word/${id}/edit`, { intent: "delete", confirmed: "yes" });
    expect(gone.status).toBe(302);
    expect((await admin.get(`/documents/word/${id}/file`)).status).toBe(404);
    expect((await admin.get(`/documents/word/${id}/edit`)).status).toBe(404);
  });

  it("templates.read sees lists and downloads, without '+ new', Save or Delete; writes are refused", async () => {
    const dotx = await officePackage("dotx");
    const created = await admin.postMultipart("/documents/word/create", { intent: "save", fileTemplate: file(dotx, `Read ${uniq()}.dotx`) });
    expect(created.status).toBe(302);
    const reader = await browserWith(app, ["templates.read"]);
    const list = await (await reader.get("/documents/word")).text();
    expect(list).not.toContain(WORD_TEMPLATES.addNew);
    const id = idOf(list, "/documents/word")!;
    expect((await reader.get(`/documents/word/${id}/file`)).status).toBe(200);
    const edit = await (await reader.get(`/documents/word/${id}/edit`)).text();
    expect(edit).toContain(WORD_TEMPLATES.readOnlyNote);
    expect(edit).not.toContain(">Delete<");
    expect((await reader.get("/documents/word/create")).status).toBe(404);
    expect((await reader.postMultipart(`/documents/word/${id}/edit`, { intent: "save" })).status).toBe(404);
    const none = await browserWith(app, ["forms"]);
    expect((await none.get(`/documents/word/${id}/file`)).status).toBe(404);
  });
});

describe("Visio templates, shapes and drawings screens", () => {
  it("a .vstx's masters become shapes with thumbnails; a shape is edited; drawings take .vsdx with a text template", async () => {
    const name = `Flow ${uniq()}`;
    const vstx = await officePackage("vstx", { masters: [{ id: 1, name: `Box ${name}` }] });
    const created = await admin.postMultipart("/documents/visio/create", { intent: "save", fileTemplate: file(vstx, `${name}.vstx`) });
    expect(created.status).toBe(302);
    const shapes = await (await admin.get(`/shapes?q=${encodeURIComponent(name)}`)).text();
    expect(shapes).toContain(`Box ${name}`);
    const shapeId = idOf(shapes, "/shapes")!;
    const thumb = await admin.get(`/shapes/${shapeId}/thumbnail`);
    expect(thumb.headers.get("content-type")).toBe("image/svg+xml");
    expect(await thumb.text()).toContain("<path");
    const saved = await admin.post(`/shapes/${shapeId}/edit`, { intent: "save", name: "Process step", description: "d", tags: "flow" });
    expect(saved.status).toBe(302);
    expect(await (await admin.get(`/shapes/${shapeId}/edit`)).text()).toContain('value="Process step"');
    const empty = await admin.post(`/shapes/${shapeId}/edit`, { intent: "save", name: " ", description: "", tags: "" });
    expect(await empty.text()).toContain("Name is required");

    const wrong = await admin.postMultipart("/documents/visio/create", { intent: "save", fileTemplate: file(await officePackage("vsdx"), "x.vstx") });
    const wrongHtml = await wrong.text();
    expect(wrongHtml).toContain("The file is not a valid Visio template (.vstx).");
    expect(wrongHtml).toContain(DOCUMENT_SAVE_FAILED);
    expect(wrongHtml).toContain(VISIO_TEMPLATES.toasts.createFailed);
    const visioList = await (await admin.get(`/documents/visio?q=${encodeURIComponent(name)}`)).text();
    expectHeaders(visioList);
    const visioId = idOf(visioList, "/documents/visio")!;
    expect(visioList).toContain(`aria-label="Download ${name}.vstx"`);
    expect(Buffer.from(await (await admin.get(`/documents/visio/${visioId}/file`)).arrayBuffer()).equals(vstx)).toBe(true);

    const drawing = await admin.postMultipart("/drawings/create", { intent: "save", fileTemplate: file(await officePackage("vsdx"), `Fig ${name}.vsdx`), textTemplate: "{{title}}" });
    expect(drawing.status).toBe(302);
    const drawingsList = await (await admin.get(`/drawings?q=${encodeURIComponent(name)}`)).text();
    const drawingId = idOf(drawingsList, "/drawings")!;
    const page = await (await admin.get(`/drawings/${drawingId}/edit`)).text();
    expect(page).toContain("{{title}}");
    const bad = await admin.postMultipart(`/drawings/${drawingId}/edit`, { intent: "save", fileTemplate: file(await officePackage("dotx"), "x.dotx"), textTemplate: "" });
    expect(await bad.text()).toContain(TEMPLATE_MESSAGES.wrongType(["vsdx", "vstx"]));
    // What only the upstream sees (a Word package renamed .vsdx): 'Update failed' with its message, the inline text.
    const fake = await admin.postMultipart(`/drawings/${drawingId}/edit`, { intent: "save", fileTemplate: file(await officePackage("dotx"), "x.vsdx"), textTemplate: "" });
    expect(fake.status).toBe(400);
    const fakeHtml = await fake.text();
    expect(fakeHtml).toContain(DRAWINGS.toasts.updateFailed);
    expect(fakeHtml).toContain("The file is not a valid Visio drawing (.vsdx).");
    expect(fakeHtml).toContain("Failed to save a drawing...");

    // Delete: confirmed first, done only once the upstream answered; a failed delete says so.
    expect(await (await admin.postMultipart(`/drawings/${drawingId}/edit`, { intent: "delete" })).text()).toContain("This action can&#x27;t be undone.");
    const gone = await admin.postMultipart(`/drawings/${drawingId}/edit`, { intent: "delete", confirmed: "yes" });
    expect(gone.headers.get("Location")).toBe("/drawings");
    expect(await (await admin.get("/drawings")).text()).toContain(DRAWINGS.toasts.deleted);
    const again = await admin.postMultipart(`/drawings/${drawingId}/edit`, { intent: "delete", confirmed: "yes" });
    const againHtml = await again.text();
    expect(againHtml).toContain(DRAWINGS.toasts.deleteFailed);
    expect(againHtml).toContain("Drawing not found.");

    // Shapes have no create screen; a shape deleted is confirmed first.
    expect((await admin.get("/shapes/create")).status).toBe(404);
    expect(await (await admin.post(`/shapes/${shapeId}/edit`, { intent: "delete" })).text()).toContain(SHAPES.confirmDelete.message("Process step").replaceAll("'", "&#x27;"));
  });

  it("drawings need templates.write to create, save and delete; templates.read reads them", async () => {
    const created = await admin.postMultipart("/drawings/create", { intent: "save", fileTemplate: file(await officePackage("vstx"), `Fig ${uniq()}.vstx`) });
    expect(created.status).toBe(302);
    const reader = await browserWith(app, ["templates.read"]);
    const list = await (await reader.get("/drawings")).text();
    expect(list).not.toContain(DRAWINGS.addNew);
    const id = idOf(list, "/drawings")!;
    expect((await reader.get(`/drawings/${id}/edit`)).status).toBe(200);
    expect((await reader.get(`/drawings/${id}/file`)).status).toBe(200);
    expect((await reader.get("/drawings/create")).status).toBe(404);
    expect((await reader.postMultipart(`/drawings/${id}/edit`, { intent: "delete", confirmed: "yes" })).status).toBe(404);
    expect((await admin.get(`/drawings/${id}/edit`)).status).toBe(200);
  });
});
