import { describe, expect, it } from "vitest";
import { BACKUP } from "~/backup/texts";
import { FORMS } from "~/forms/texts";
import { FORM_MESSAGES } from "@contract/forms";
import { modelXml, officePackage, pdf } from "../fixtures/office";
import { appAsAdmin, browserWith, uniq } from "../helpers/app";

const { app, admin } = appAsAdmin();

const file = (bytes: Buffer, name: string) => new File([new Uint8Array(bytes)], name);
const errorsOf = async (res: Response) => ((await res.json()) as { error: Record<string, string[]> }).error;
const CREATE = `/forms/create?_data=${encodeURIComponent("routes/_app.forms.create")}`;
const bytes = async (res: Response) => Buffer.from(await res.arrayBuffer());

describe("forms screens (spec 2 §5, §8)", () => {
  it("create without JavaScript: the model file's hint names the PDF types before a type is chosen", async () => {
    const html = await (await admin.get("/forms/create")).text();
    expect(html).toContain(FORMS.modelFileHintUntyped);
    expect(html).not.toContain("{type}");
  });

  it("create: 'Form file is required' is said whatever the type, even with none chosen", async () => {
    expect(await errorsOf(await admin.postMultipart(CREATE, { intent: "save" }))).toMatchObject({
      type: [FORM_MESSAGES.typeRequired],
      formFile: [FORM_MESSAGES.formFileRequired],
    });
    const word = await errorsOf(await admin.postMultipart(CREATE, { intent: "save", type: "docm", fileNameTemplate: "x" }));
    expect(word).toEqual({ formFile: [FORM_MESSAGES.formFileRequired] });
    // Without JavaScript: the page answers with both messages.
    const html = await (await admin.postMultipart("/forms/create", { intent: "save" })).text();
    expect(html).toContain(FORM_MESSAGES.typeRequired);
    expect(html).toContain(FORM_MESSAGES.formFileRequired);
  });

  it("the model file's hint fits the type: no 'PDF types only' on a Word form", async () => {
    expect(FORMS.modelFileHint("xfah")).toBe("A .xfah or .xml file.");
    for (const type of ["docx", "docm"]) {
      expect(FORMS.modelFileHint(type)).toContain("Word forms have no model file");
      expect(FORMS.modelFileHint(type)).not.toContain(`.${type} or .xml`);
    }
    // An edit screen of a Word form, without JavaScript, shows the model field with that hint.
    const name = `Word ${uniq()}`;
    const created = await admin.postMultipart("/forms/create", { intent: "save", type: "docx", fileNameTemplate: "x", formFile: file(await officePackage("docx"), `${name}.docx`) });
    expect(created.status).toBe(302);
    const list = (await (await app.adminApi("GET", `/api/forms?q=${encodeURIComponent(name)}`)).json()) as { items: { id: string }[] };
    const id = list.items[0]!.id;
    const edit = await (await admin.get(`/forms/${id}/edit`)).text();
    expect(edit).toContain("Word forms have no model file: leave this empty.");
    expect(edit).not.toContain("PDF types only");
  });

  it("create: each rule's message", async () => {
    expect(await errorsOf(await admin.postMultipart(CREATE, { intent: "save" }))).toMatchObject({
      type: [FORM_MESSAGES.typeRequired],
      fileNameTemplate: [FORM_MESSAGES.fileNameTemplateRequired],
    });
    const xfa = await errorsOf(await admin.postMultipart(CREATE, { intent: "save", type: "xfa", fileNameTemplate: "x" }));
    expect(xfa).toEqual({ formFile: [FORM_MESSAGES.formFileRequired], modelFile: [FORM_MESSAGES.modelFileRequired] });
    const wrong = await errorsOf(
      await admin.postMultipart(CREATE, { intent: "save", type: "xfdf", fileNameTemplate: "x", formFile: file(await officePackage("docx"), "a.docx"), modelFile: file(modelXml(), "m.xfa") }),
    );
    expect(wrong).toEqual({ formFile: [FORM_MESSAGES.formFileType(["pdf"])], modelFile: [FORM_MESSAGES.modelFileType(["xfdf", "xml"])] });
    const word = await errorsOf(await admin.postMultipart(CREATE, { intent: "save", type: "docx", fileNameTemplate: "x", formFile: file(pdf(), "a.pdf") }));
    expect(word).toEqual({ formFile: [FORM_MESSAGES.formFileType(["docx", "docm"])] });
    // The name comes from the file: a file named only ".docx" has none.
    const nameless = await errorsOf(await admin.postMultipart(CREATE, { intent: "save", type: "docx", fileNameTemplate: "x", formFile: file(await officePackage("docx"), ".docx") }));
    expect(nameless).toEqual({ formFile: [FORM_MESSAGES.nameEmpty] });
    // What only the upstream sees: a .pdf that is not a PDF. 'Create failed' with the server's message, inline text.
    const fake = await admin.postMultipart("/forms/create", { intent: "save", type: "xfa", fileNameTemplate: "x", formFile: file(Buffer.from("nope"), "a.pdf"), modelFile: file(modelXml(), "m.xml") });
    expect(fake.status).toBe(400);
    const html = await fake.text();
    expect(html).toContain(FORMS.toasts.createFailed);
    expect(html).toContain("The file is not a valid PDF file (.pdf).");
    expect(html).toContain(FORMS.inline.saveFailed);
  });

  it("create, list, download form and model byte for byte, type change needs a new form file, delete 'Form deleted'", async () => {
    const name = `IDS ${uniq()}`;
    const formPdf = pdf(name);
    const model = modelXml("xfa");
    const org = (await (await app.adminApi("POST", "/api/organizations", { name: `Org ${uniq()}` })).json()) as { id: string };
    const created = await admin.postMultipart("/forms/create", {
      intent: "save",
      type: "xfa",
      fileNameTemplate: "{{matter}}.pdf",
      foreach: "inventors",
      clients: "ACME; Initech",
      organizations: org.id,
      tags: "uspto",
      formFile: file(formPdf, `${name}.pdf`),
      modelFile: file(model, "ids.xfa"),
    });
    expect(created.status).toBe(302);
    expect(created.headers.get("Location")).toBe("/forms");
    const list = await (await admin.get(`/forms?q=${encodeURIComponent(name)}`)).text();
    expect(list).toContain(FORMS.toasts.created);
    const id = /\/forms\/([0-9a-f-]{36})\/edit/.exec(list)![1]!;
    expect((await bytes(await admin.get(`/forms/${id}/files/formFile`))).equals(formPdf)).toBe(true);
    expect((await bytes(await admin.get(`/forms/${id}/files/modelFile`))).equals(model)).toBe(true);
    expect((await admin.get(`/forms/${id}/files/nothing`)).status).toBe(404);

    // Foreach, clients, organizations and tags as saved.
    const stored = (await (await app.adminApi("GET", `/api/forms/${id}`)).json()) as { foreach: string; clients: string[]; organizations: string[]; tags: string[] };
    expect(stored).toMatchObject({ foreach: "inventors", clients: ["ACME", "Initech"], organizations: [org.id], tags: ["uspto"] });
    expect(await (await admin.get(`/forms/${id}/edit`)).text()).toMatch(new RegExp(`value="${org.id}"[^>]*checked|checked[^>]*value="${org.id}"`));
    const unknown = await admin.postMultipart(`/forms/${id}/edit`, { intent: "save", type: "xfa", currentType: "xfa", hasModel: "yes", fileNameTemplate: "y", organizations: "no-such-org" });
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain("Unknown organization: no-such-org");
    const EDIT = `/forms/${id}/edit?_data=${encodeURIComponent("routes/_app.forms.$id.edit")}`;
    // Same type, no new files: kept.
    const kept = await admin.postMultipart(`/forms/${id}/edit`, { intent: "save", type: "xfa", currentType: "xfa", hasModel: "yes", fileNameTemplate: "y" });
    expect(kept.status).toBe(302);
    const changed = await errorsOf(await admin.postMultipart(EDIT, { intent: "save", type: "docx", currentType: "xfa", hasModel: "yes", fileNameTemplate: "y" }));
    expect(changed).toEqual({ formFile: [FORM_MESSAGES.formFileRequired] });
    // Forged hidden fields do not get around the rule: the upstream checks against the stored type.
    const forged = await admin.postMultipart(`/forms/${id}/edit`, { intent: "save", type: "docx", currentType: "docx", fileNameTemplate: "y" });
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain(FORM_MESSAGES.formFileRequired);
    // What only the upstream sees on edit: 'Update failed' with its message and the inline text.
    const fakeEdit = await admin.postMultipart(`/forms/${id}/edit`, { intent: "save", type: "xfa", currentType: "xfa", hasModel: "yes", fileNameTemplate: "y", formFile: file(Buffer.from("nope"), "b.pdf") });
    expect(fakeEdit.status).toBe(400);
    const fakeHtml = await fakeEdit.text();
    expect(fakeHtml).toContain(FORMS.toasts.updateFailed);
    expect(fakeHtml).toContain("The file is not a valid PDF file (.pdf).");
    expect(fakeHtml).toContain(FORMS.inline.saveFailed);
    const editScreen = await (await admin.get(`/forms/${id}/edit`)).text();
    expect(editScreen).toContain(`<h1>${FORMS.editTitle}</h1>`);
    expect(editScreen).toContain(">Delete</button>");
    const docx = await officePackage("docx");
    const toWord = await admin.postMultipart(`/forms/${id}/edit`, { intent: "save", type: "docx", currentType: "xfa", hasModel: "yes", fileNameTemplate: "y", formFile: file(docx, `Letter ${name}.docx`) });
    expect(toWord.status).toBe(302);
    const page = await (await admin.get(`/forms/${id}/edit`)).text();
    expect(page).toContain(`value="Letter ${name}"`);
    expect((await admin.get(`/forms/${id}/files/modelFile`)).status).toBe(404);

    expect(await (await admin.postMultipart(`/forms/${id}/edit`, { intent: "delete" })).text()).toContain("This action can&#x27;t be undone.");
    const deleted = await admin.postMultipart(`/forms/${id}/edit`, { intent: "delete", confirmed: "yes" });
    expect(deleted.headers.get("Location")).toBe("/forms");
    expect(await (await admin.get("/forms")).text()).toContain(FORMS.toasts.deleted);
    const again = await admin.postMultipart(`/forms/${id}/edit`, { intent: "delete", confirmed: "yes" });
    expect(await again.text()).toContain(FORMS.toasts.deleteFailed);
  });

  it("forms.read: list and edit screen read-only, no '+ new', no create", async () => {
    const reader = await browserWith(app, ["forms.read"]);
    const list = await (await reader.get("/forms")).text();
    expect(list).toContain(FORMS.listTitle);
    expect(list).not.toContain(FORMS.addNew);
    expect((await reader.get("/forms/create")).status).toBe(404);
  });
});

describe("template backup screen", () => {
  it("export downloads the archive; import needs the file and the confirmation, says what it restored, refuses a bad archive", async () => {
    const created = await admin.postMultipart("/documents/word/create", { intent: "save", fileTemplate: file(await officePackage("dotx"), `Backup ${uniq()}.dotx`) });
    expect(created.status).toBe(302);
    const exported = await admin.get("/administration/template-storage/export");
    expect(exported.headers.get("content-type")).toBe("application/zip");
    const archive = await bytes(exported);
    const missing = await admin.postMultipart("/administration/template-storage", {});
    expect(missing.status).toBe(400);
    const missingHtml = await missing.text();
    expect(missingHtml).toContain(BACKUP.validation.fileRequired);
    expect(missingHtml).toContain(BACKUP.replaceRequired);
    const bad = await admin.postMultipart("/administration/template-storage", { file: file(Buffer.from("nope"), "b.zip"), replace: "yes" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain(BACKUP.validation.notBackup);
    const ok = await admin.postMultipart("/administration/template-storage", { file: file(archive, "b.zip"), replace: "yes" });
    expect(ok.status).toBe(302);
    const page = await (await admin.get("/administration/template-storage")).text();
    expect(page).toContain(BACKUP.toasts.imported);
    expect(page).toMatch(/Word templates: [1-9]\d*, Visio templates: \d+, Drawings: \d+, Shapes: \d+, Forms: \d+; \d+ files?/);

    const other = await browserWith(app, ["templates"]);
    expect((await other.get("/administration/template-storage")).status).toBe(404);
    expect((await other.get("/administration/template-storage/export")).status).toBe(404);
  });
});
