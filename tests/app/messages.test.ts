import { describe, expect, it } from "vitest";
import { MESSAGES } from "~/messages/texts";
import { ADMIN, appAsAdmin, uniq } from "../helpers/app";

const { app, admin } = appAsAdmin();
const V = MESSAGES.validation;
const DATA = { create: "routes%2F_app.messages.create", list: "routes%2F_app.messages._index" };

async function create(name: string, fields: Record<string, string> = {}): Promise<string> {
  const r = await app.adminApi("POST", "/api/messages", { name, ...fields });
  expect(r.status).toBe(201);
  return ((await r.json()) as { id: string }).id;
}

describe("messages screens", () => {
  it("create: 'Name is required' (trimmed), recipient validation, then the list with 'Create completed'", async () => {
    const bad = await admin.post(`/messages/create?_data=${DATA.create}`, {
      intent: "save",
      name: "   ",
      to: "ann@example.com; @clients.primary.work; nobody",
      cc: "@inventors.primary",
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: Record<string, string[]> }).error).toEqual({
      name: [V.nameRequired],
      to: [V.badRecipient("nobody")],
      cc: [V.badRecipient("@inventors.primary")],
    });
    // Markup around an @ and a dot is not an address: refused by the form, as by the upstream.
    const markup = await admin.post(`/messages/create?_data=${DATA.create}`, { intent: "save", name: "x", bcc: "<script>@x.com" });
    expect(markup.status).toBe(400);
    expect(((await markup.json()) as { error: Record<string, string[]> }).error).toEqual({ bcc: [V.badRecipient("<script>@x.com")] });
    const name = `Reminder ${uniq()}`;
    const ok = await admin.post("/messages/create", {
      intent: "save",
      name: ` ${name} `,
      description: "Sent a month before",
      tags: "OA; reminder",
      to: "@clients.primary.work; ann@example.com",
      cc: "",
      bcc: "@responsibleAttorneys",
      subject: "{{matter.number}}",
      body: "Dear {{client.name}}",
    });
    expect(ok.status).toBe(302);
    expect(ok.headers.get("Location")).toBe("/messages");
    const list = await (await admin.get("/messages")).text();
    expect(list).toContain(MESSAGES.toasts.created);
    expect(list).toContain(name);
    const found = (await (await app.adminApi("GET", `/api/messages?q=${encodeURIComponent(name)}`)).json()) as {
      items: Array<{ name: string; to: string[]; bcc: string[]; tags: string[] }>;
    };
    expect(found.items[0]).toMatchObject({ name, to: ["@clients.primary.work", "ann@example.com"], bcc: ["@responsibleAttorneys"], tags: ["OA", "reminder"] });
  });

  it("save refuses a body Handlebars cannot parse, under the field with line and column, everything typed kept", async () => {
    const body = "Dear {{client.name}},\n\n{{#if deadline}}\nDue {{deadline.dueDate}}\n";
    const name = `Broken ${uniq()}`;
    const data = await admin.post(`/messages/create?_data=${DATA.create}`, { intent: "save", name, subject: "Hi", body });
    expect(data.status).toBe(400);
    const reply = (await data.json()) as { error: Record<string, string[]>; initialValue: Record<string, string> };
    expect(reply.error).toEqual({ body: ["Line 3, column 1: {{#if}} is never closed (add {{/if}})."] });
    expect(reply.initialValue).toMatchObject({ name, subject: "Hi", body });
    // Without JavaScript: the page again, with the message and the text; no 'Create completed', nothing stored.
    const page = await admin.post("/messages/create", { intent: "save", name, body });
    expect(page.status).toBe(400);
    const html = await page.text();
    expect(html).toContain("Line 3, column 1: {{#if}} is never closed (add {{/if}}).");
    expect(html).toContain("{{#if deadline}}");
    expect(html).not.toContain(MESSAGES.toasts.created);
    const found = (await (await app.adminApi("GET", `/api/messages?q=${encodeURIComponent(name)}`)).json()) as { items: unknown[] };
    expect(found.items).toHaveLength(0);
  });

  it("preview renders subject and body server-side (no JavaScript needed), a template error shows before saving", async () => {
    const id = await create(`Preview ${uniq()}`);
    const ok = await admin.post(`/messages/${id}/edit`, { intent: "preview", name: "P", subject: "Due {{deadline.dueDate}}", body: "Hi {{client.name}}" });
    expect(ok.status).toBe(200);
    const html = await ok.text();
    expect(html).toContain("Due 2026-02-16");
    expect(html).toContain("Hi Acme Robotics Inc.");
    expect(html).toContain(MESSAGES.previewTitle);
    const broken = await admin.post(`/messages/${id}/edit`, { intent: "preview", name: "P", subject: "x", body: "{{#each inventors}}oops" });
    const text = await broken.text();
    expect(text).toContain(MESSAGES.previewFailed);
    expect(text).toContain("Body: Template error");
    // What was typed stays in the form.
    expect(text).toContain("{{#each inventors}}oops");
    const stored = (await (await app.adminApi("GET", `/api/messages/${id}`)).json()) as { body: string };
    expect(stored.body).toBe("");
  });

  it("clone from the list: 'Clone completed' on the copy's editor, its name told apart; 'Clone failed' when gone", async () => {
    const name = `Original ${uniq()}`;
    const id = await create(name, { subject: "S" } as Record<string, string>);
    const r = await admin.post("/messages", { intent: "clone", id });
    expect(r.status).toBe(302);
    const to = r.headers.get("Location")!;
    expect(to).toMatch(/^\/messages\/[^/]+\/edit$/);
    const page = await (await admin.get(to)).text();
    expect(page).toContain(MESSAGES.toasts.cloned);
    expect(page).toContain(`${name} (copy)`);
    await app.adminApi("DELETE", `/api/messages/${id}`);
    const failed = await admin.post("/messages", { intent: "clone", id });
    expect(failed.status).toBe(404);
    expect(await failed.text()).toContain(MESSAGES.toasts.cloneFailed);
  });

  it("edit, the save failure text, delete with confirmation", async () => {
    const name = `Edit ${uniq()}`;
    const id = await create(name);
    const saved = await admin.post(`/messages/${id}/edit`, { intent: "save", name: `${name} 2`, subject: "s", body: "b" });
    expect(saved.headers.get("Location")).toBe("/messages");
    expect(await (await admin.get("/messages")).text()).toContain(MESSAGES.toasts.updated);
    const tooLong = await admin.post(`/messages/${id}/edit`, { intent: "save", name: "n".repeat(201) });
    expect(tooLong.status).toBe(400);
    const ask = await admin.post(`/messages/${id}/edit`, { intent: "delete" });
    expect(await ask.text()).toContain("This action can&#x27;t be undone.");
    const del = await admin.post(`/messages/${id}/edit`, { intent: "delete", confirmed: "yes" });
    expect(del.headers.get("Location")).toBe("/messages");
    expect(await (await admin.get("/messages")).text()).toContain(MESSAGES.toasts.deleted);
    // Saving a message deleted meanwhile: the failure toast and the inline text, the form kept.
    const gone = await admin.post(`/messages/${id}/edit`, { intent: "save", name: "Again" });
    expect(gone.status).toBe(404);
    const goneHtml = await gone.text();
    expect(goneHtml).toContain(MESSAGES.inline.saveFailed);
    expect(goneHtml).toContain(MESSAGES.toasts.updateFailed);
  });

  it("permissions: messages.read lists and views (no + new, Clone, Save, Preview); writes are 404", async () => {
    const id = await create(`Perm ${uniq()}`);
    const email = `reader-${uniq()}@test.local`;
    await app.createUser(email, ["messages.read"]);
    const reader = app.browser();
    await reader.signIn(email, "secret-123");
    const list = await (await reader.get("/messages")).text();
    expect(list).toContain(MESSAGES.listTitle);
    expect(list).not.toContain(MESSAGES.addNew);
    expect(list).not.toContain('value="clone"');
    const edit = await (await reader.get(`/messages/${id}/edit`)).text();
    expect(edit).toContain(MESSAGES.readOnlyNote);
    expect(edit).not.toContain('value="preview"');
    expect((await reader.get("/messages/create")).status).toBe(404);
    expect((await reader.post("/messages", { intent: "clone", id })).status).toBe(404);
    expect((await reader.post(`/messages/${id}/edit`, { intent: "save", name: "x" })).status).toBe(404);
    const none = `none-${uniq()}@test.local`;
    await app.createUser(none, ["templates"]);
    const nobody = app.browser();
    await nobody.signIn(none, "secret-123");
    expect((await nobody.get("/messages")).status).toBe(404);
    expect((await nobody.get("/messages/recipients?q=cl")).status).toBe(404);
  });

  it("recipient suggestions for the tag input: people and variables", async () => {
    const r = await admin.get(`/messages/recipients?q=${encodeURIComponent(ADMIN.email.slice(0, 5))}`);
    const list = (await r.json()) as string[];
    expect(list).toContain(ADMIN.email);
    const vars = (await (await admin.get("/messages/recipients?q=%40secret")).json()) as string[];
    expect(vars).toEqual(["@secretaries", "@secretaries.work", "@secretaries.mailing", "@secretaries.home"]);
  });
});
