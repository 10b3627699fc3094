import { describe, expect, it } from "vitest";
import { ORGANIZATIONS } from "~/organizations/texts";
import { SPECIFICATIONS } from "~/specifications/texts";
import { patentDocx } from "../fixtures/docx";
import { ADMIN, appAsAdmin, uniq } from "../helpers/app";

const { app, admin } = appAsAdmin();

const V = SPECIFICATIONS.validation;

async function create(name: string, type = "claims"): Promise<string> {
  const r = await admin.post("/specifications/create", { intent: "save", name, type, description: "d", tags: "EP; claims", template: "{{title}}\n\n{{#each (independentClaims claims)}}{{claimNumber}}. {{preamble}}\n{{/each}}" });
  expect(r.status).toBe(302);
  return r.headers.get("Location")!.split("/").pop()!;
}


describe("specifications", () => {
  it("create: §5 messages, then redirect to the detail page with the toast", async () => {
    const bad = await admin.post("/specifications/create?_data=routes%2F_app.specifications.create", { intent: "save", name: " ab ", template: " " });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: Record<string, string[]> }).error).toEqual({ name: [V.nameShort], type: [V.typeRequired], template: [V.templateRequired] });
    const id = await create(`Spec ${uniq()}`);
    const html = await (await admin.get(`/specifications/${id}`)).text();
    expect(html).toContain(SPECIFICATIONS.toasts.created);
    expect(html).toContain(SPECIFICATIONS.detail.upload);
  });

  it("upload a .docx builds the context object; Run shows the output; other files get a clear message", async () => {
    const id = await create(`Run ${uniq()}`);
    const docx = new File([new Uint8Array(await patentDocx())], "widget.docx");
    const up = await admin.postMultipart(`/specifications/${id}?_data=routes%2F_app.specifications.%24id._index`, { intent: "upload", template: "{{title}}", document: docx });
    expect(up.status).toBe(200);
    const upData = (await up.json()) as { contextObject: Record<string, { claims: unknown[] }>; document: { name: string; fileId: string } };
    expect(upData.contextObject["widget.docx"]!.claims).toHaveLength(5);
    const run = await admin.postMultipart(`/specifications/${id}?_data=routes%2F_app.specifications.%24id._index`, {
      intent: "run",
      template: "{{title}}\n\n{{join (independentClaims claims) \", \" \"claimNumber\"}}",
      documentId: upData.document.fileId,
    });
    const runData = (await run.json()) as { output: string; result: { paragraphs: unknown[] } };
    expect(runData.output).toBe("Spring-loaded widget\n\n1, 4");
    expect(runData.result.paragraphs).toHaveLength(2);
    const emptyRun = await admin.postMultipart(`/specifications/${id}?_data=routes%2F_app.specifications.%24id._index`, { intent: "run", template: "{{#if nothing}}x{{/if}}", documentId: upData.document.fileId });
    expect(((await emptyRun.json()) as { output: string }).output).toBe(SPECIFICATIONS.detail.emptyOutput);
    const pdf = await admin.postMultipart(`/specifications/${id}`, { intent: "upload", template: "x", document: new File(["%PDF"], "a.pdf") });
    expect(pdf.status).toBe(400);
    expect(await pdf.text()).toContain(SPECIFICATIONS.detail.docxOnly);
    const noDoc = await admin.postMultipart(`/specifications/${id}`, { intent: "run", template: "x" });
    expect(await noDoc.text()).toContain(SPECIFICATIONS.detail.runNeeds);
  });

  it("read-only users see a read-only editor and cannot save (404)", async () => {
    const id = await create(`Read ${uniq()}`);
    const email = `reader-${uniq()}@test.local`;
    await app.createUser(email, ["specifications.read"]);
    const reader = app.browser();
    await reader.signIn(email, "secret-123");
    const html = await (await reader.get(`/specifications/${id}`)).text();
    expect(html).toMatch(/<textarea[^>]*readOnly=""|<textarea[^>]*readonly=""/i);
    expect(html).toContain(SPECIFICATIONS.readOnlyNote);
    const save = await reader.postMultipart(`/specifications/${id}`, { intent: "save", template: "changed" });
    expect(save.status).toBe(404);
    const edit = await reader.post(`/specifications/${id}/edit`, { intent: "delete", confirmed: "yes" });
    expect(edit.status).toBe(404);
  });

  it("edit, delete with confirmation; the type filter is remembered", async () => {
    const name = `Flow ${uniq()}`;
    const id = await create(name, "flowchart");
    const saved = await admin.post(`/specifications/${id}/edit`, { intent: "save", name: `${name} 2`, type: "flowchart", template: "x", tags: "a; b" });
    expect(saved.headers.get("Location")).toBe(`/specifications/${id}`);
    const b = app.browser();
    await b.signIn(ADMIN.email, ADMIN.password);
    const filtered = await b.get("/specifications?filtered=1&type=abstract");
    expect(filtered.headers.getSetCookie().some((c) => c.startsWith("prefs="))).toBe(true);
    expect(await filtered.text()).not.toContain(name);
    const again = await (await b.get("/specifications")).text();
    expect(again).not.toContain(name);
    expect(again).toMatch(/<input(?=[^>]*value="abstract")(?=[^>]*checked)[^>]*>/);
    expect(again).not.toMatch(/<input(?=[^>]*value="flowchart")(?=[^>]*checked)[^>]*>/);
    expect(await (await admin.get("/specifications")).text()).toContain(`${name} 2`);
    const ask = await admin.post(`/specifications/${id}/edit`, { intent: "delete" });
    expect(await ask.text()).toContain(SPECIFICATIONS.confirmDelete.title);
    const del = await admin.post(`/specifications/${id}/edit`, { intent: "delete", confirmed: "yes" });
    expect(del.headers.get("Location")).toBe("/specifications");
  });

  it("tag suggestions through the resource route", async () => {
    await create(`Tags ${uniq()}`);
    const r = await admin.get("/specifications/suggest?q=e");
    expect(await r.json()).toContain("EP");
  });
});

describe("organizations", () => {
  it("create (trimmed, required), edit, delete", async () => {
    const bad = await admin.post("/organizations/new", { name: "  " });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain(ORGANIZATIONS.validation.nameRequired);
    const name = `Org ${uniq()}`;
    const ok = await admin.post("/organizations/new", { name: `  ${name} ` });
    expect(ok.headers.get("Location")).toBe("/organizations");
    const list = await (await admin.get(`/organizations?q=${encodeURIComponent(name)}`)).text();
    expect(list).toContain(`>${name}<`);
    const id = /\/organizations\/([^/"]+)\/edit/.exec(list)![1]!;
    const upd = await admin.post(`/organizations/${id}/edit`, { intent: "update", name: `${name} B` });
    expect(upd.headers.get("Location")).toBe("/organizations");
    const del = await admin.post(`/organizations/${id}/edit`, { intent: "delete", confirmed: "yes" });
    expect(del.headers.get("Location")).toBe("/organizations");
  });
});
