import { describe, expect, it } from "vitest";
import { Chain, ChainDraft, ChainTemplate, History, type ChainDocument } from "@contract/chains";
import { CHAIN_VERSIONS as V } from "~/chains/versions/texts";
import { DEFAULT_TIME_ZONE, formatDateTime } from "~/lib/format";
import { chainsOf, draftVersionOf } from "../helpers/chains";
import { appAsAdmin, browserWith, unescapeHtml, uniq } from "../helpers/app";

/**
 * The chain page's toolbar and versions against the built app (spec 3 §2.9, §4.2, §8): export (a page and a download),
 * import ('Invalid import string', 'Import failed' per message, 'Template imported succesfully'), compare (the chain
 * differ's named changes), the version view's actions each after its confirmation ('Activate draft?' / 'Activate
 * version?' with a Comment, 'Discard draft?'), 'Save new version?' (the toolbar) and 'Save as draft' ('Overwrite draft?'
 * over a draft), all without JavaScript; a prompts.read holder reads and writes nothing.
 */
const { app, admin } = appAsAdmin();
const { create, draft: draftOf } = chainsOf(app);

const html = async (url: string) => unescapeHtml(await (await admin.get(url)).text());
const template = (name: string, text: string) => ({ id: `t-${uniq()}`, type: "template", name, template: text, renderOnly: false });

/** A chain at version 1 with one template link, and a draft that renamed it and added a query. */
async function chainWithDraft() {
  const c = await create({ name: `Toolbar ${uniq()}`, template: { chain: [template("TEMPLATE 1", "Hello")], options: { insertIn: "Claims", insertAt: "End" } } });
  const data: ChainDocument = structuredClone({ ...(await current(c.id)) });
  data.template.chain[0]!.name = "GREETING";
  data.template.chain.push({ id: `q-${uniq()}`, type: "query", name: "QUERY 1", query: "select 1" });
  const r = await app.adminApi("PATCH", `/api/prompts/${c.id}/draft`, { data });
  expect(r.status).toBe(200);
  return c;
}
async function current(id: string): Promise<ChainDocument> {
  const { name, isPublic, isGeneric, organizations, categories, tags, description, template: t } = Chain.parse(await (await app.adminApi("GET", `/api/prompts/${id}`)).json());
  return { name, isPublic, isGeneric, organizations, categories, tags, description, template: t };
}
const history = async (id: string) => History.parse(await (await app.adminApi("GET", `/api/prompts/${id}/history`)).json());

describe("chain toolbar: versions, compare, export, import", () => {
  it("the toolbar links the version view, compare, export and import; the History tab's versions lead to their view", async () => {
    const c = await chainWithDraft();
    const page = await html(`/chains/${c.id}`);
    expect(page).toContain(`aria-label="${V.toolbar}"`);
    // Ctrl+S needs JavaScript: the page as the server sends it does not offer it.
    expect(page).not.toContain(V.saveKey);
    for (const href of [`/chains/${c.id}/versions/draft`, `/chains/${c.id}/versions/1`, `/chains/${c.id}/compare?to=draft`, `/chains/${c.id}/export?of=draft`, `/chains/${c.id}/import`]) {
      expect(page).toContain(`href="${href}"`);
    }
    const tab = await html(`/chains/${c.id}?tab=history`);
    expect(tab).toContain(`href="/chains/${c.id}/versions/1"`);
    expect(tab).toContain(`href="/chains/${c.id}/versions/draft"`);
  });

  it("compare: the active version against the draft as named changes; 'Quit comparision mode' goes back", async () => {
    const c = await chainWithDraft();
    const page = await html(`/chains/${c.id}/compare?to=draft`);
    expect(page).toContain(V.compareTitle(V.current(1), V.draft));
    expect(page).toContain("link TEMPLATE 1 renamed to GREETING");
    expect(page).toContain("link QUERY 1 added at 2");
    expect(page).toContain(V.quitCompare);
    expect(page).toContain(`href="/chains/${c.id}"`);
    expect((await admin.get(`/chains/${c.id}/compare?to=9`)).status).toBe(404);
  });

  it("activate the draft: 'Activate draft?' with a Comment, then 'Draft activated' and the comment in the history; an older version re-activated", async () => {
    const c = await chainWithDraft();
    const view = await html(`/chains/${c.id}/versions/draft`);
    expect(view).toContain(V.activateDraft);
    expect(view).toContain(V.discardDraft);
    const url = `/chains/${c.id}/versions/draft`;
    const step = unescapeHtml(await (await admin.post(url, { intent: "activate", draftVersion: "1" })).text());
    expect(step).toContain(V.activateTitle("draft"));
    expect(step).toContain(`name="comment"`);
    expect(step).toContain(V.comment);
    const done = await admin.post(url, { intent: "activate", confirmed: "yes", comment: "Renamed the greeting" });
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe(`/chains/${c.id}`);
    expect(await html(`/chains/${c.id}`)).toContain(V.draftActivated);
    const versions = await history(c.id);
    expect(versions[0]).toMatchObject({ version: 2, comment: "Renamed the greeting", isActive: true });
    expect((await current(c.id)).template.chain.map((l) => l.name)).toEqual(["GREETING", "QUERY 1"]);

    // Version 1 again: its preview offers Activate (not the active one), asking 'Activate version?'.
    const v1 = `/chains/${c.id}/versions/1`;
    const preview = await html(v1);
    expect(preview).toContain(V.preview);
    expect(preview).toContain(V.activateVersion);
    expect(unescapeHtml(await (await admin.post(v1, { intent: "activate" })).text())).toContain(V.activateTitle("version"));
    const again = await admin.post(v1, { intent: "activate", confirmed: "yes", comment: "Back to the first" });
    expect(again.status).toBe(302);
    expect(await html(`/chains/${c.id}`)).toContain(V.versionActivated);
    expect((await current(c.id)).template.chain.map((l) => l.name)).toEqual(["TEMPLATE 1"]);
    expect((await history(c.id))[0]).toMatchObject({ version: 3, comment: "Back to the first", activatedFrom: 1 });
    // The active version offers nothing to activate or delete.
    const active = await html(`/chains/${c.id}/versions/3`);
    expect(active).not.toContain(V.activateVersion);
    expect(active).not.toContain(V.deleteVersion);

    // Version 2 deleted after 'Delete version?'; the history goes on without it.
    const v2 = `/chains/${c.id}/versions/2`;
    expect(unescapeHtml(await (await admin.post(v2, { intent: "deleteVersion" })).text())).toContain(V.deleteVersionTitle);
    const deleted = await admin.post(v2, { intent: "deleteVersion", confirmed: "yes" });
    expect(deleted.status).toBe(302);
    expect(deleted.headers.get("Location")).toBe(`/chains/${c.id}?tab=history`);
    expect(await html(`/chains/${c.id}?tab=history`)).toContain(V.versionDeleted);
    expect((await history(c.id)).map((v) => v.version)).toEqual([3, 1]);
    expect((await admin.get(v2)).status).toBe(404);
  });

  it("discard the draft: 'Discard draft?' first, then 'Draft discarded' and the chain as it was", async () => {
    const c = await chainWithDraft();
    const url = `/chains/${c.id}/versions/draft`;
    expect(unescapeHtml(await (await admin.post(url, { intent: "discard" })).text())).toContain(V.discardTitle);
    const done = await admin.post(url, { intent: "discard", confirmed: "yes" });
    expect(done.status).toBe(302);
    expect(await html(`/chains/${c.id}`)).toContain(V.draftDiscarded);
    expect((await app.adminApi("GET", `/api/prompts/${c.id}/draft`)).status).toBe(404);
    expect(await html(url)).toContain(V.noDraft);
  });

  it("export: the template's JSON on a page to copy and as a download", async () => {
    const c = await chainWithDraft();
    const page = await html(`/chains/${c.id}/export?of=draft`);
    expect(page).toContain(V.exportLabel);
    expect(page).toContain("GREETING");
    expect(page).toContain(`href="/chains/${c.id}/export/download?of=draft"`);
    const file = await admin.get(`/chains/${c.id}/export/download?of=current`);
    expect(file.headers.get("Content-Disposition")).toMatch(/^attachment; filename=".+\.json"$/);
    const exported = ChainTemplate.parse(JSON.parse(await file.text()));
    expect(exported.chain.map((l) => l.name)).toEqual(["TEMPLATE 1"]);
    expect(exported.options).toEqual({ insertIn: "Claims", insertAt: "End" });
    expect(V.copied).toBe("Template is copied to clipboard");
  });

  it("import: 'Invalid import string', 'Import failed' per message (the pasted text kept), then 'Template imported succesfully' into the draft", async () => {
    const from = await chainWithDraft();
    const exported = await (await admin.get(`/chains/${from.id}/export/download?of=draft`)).text();
    const into = await create({ name: `Imported ${uniq()}` });
    const url = `/chains/${into.id}/import`;
    expect(await html(url)).toContain(V.importLabel);

    const invalid = await admin.post(url, { template: "{not json" });
    expect(invalid.status).toBe(400);
    const invalidPage = unescapeHtml(await invalid.text());
    expect(invalidPage).toContain(V.invalidImport);
    expect(invalidPage).toContain("{not json");

    const broken = JSON.stringify({ chain: [template("TEMPLATE 1", "{{PROMPT_3_OUTPUT}}"), template("TEMPLATE 2", "{{#if}")] });
    const failed = await admin.post(url, { template: broken });
    expect(failed.status).toBe(400);
    const failedPage = unescapeHtml(await failed.text());
    expect(failedPage.match(new RegExp(`<strong>${V.importFailed}</strong>`, "g"))?.length).toBe(2);
    expect(failedPage).toContain("PROMPT_3_OUTPUT");
    expect((await app.adminApi("GET", `/api/prompts/${into.id}/draft`)).status).toBe(404);

    const done = await admin.post(url, { template: exported });
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe(`/chains/${into.id}`);
    expect(await html(`/chains/${into.id}`)).toContain(V.imported);
    expect((await draftOf(into.id)).data.template.chain.map((l) => l.name)).toEqual(["GREETING", "QUERY 1"]);
    expect(V.imported).toBe("Template imported succesfully");
  });

  it("the import dialog's posts (a fetcher's, for JSON): each refusal in the dialog with the text kept, success redirects with 'Template imported succesfully'", async () => {
    const into = await create({ name: `Dialog import ${uniq()}` });
    // A fetcher posts to the import page's action and reads its answer as data.
    const url = `/chains/${into.id}/import?_data=${encodeURIComponent("routes/_app.chains.$id.import")}`;
    const invalid = await admin.post(url, { template: "[1," });
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({ typed: "[1,", title: V.invalidImport, messages: [] });
    const broken = JSON.stringify({ chain: [template("TEMPLATE 1", "{{#if}")] });
    const failed = await admin.post(url, { template: broken });
    expect(failed.status).toBe(400);
    const reply = (await failed.json()) as { typed: string; title: string; messages: string[] };
    expect(reply).toMatchObject({ typed: broken, title: V.importFailed });
    expect(reply.messages).toHaveLength(1);
    expect(reply.messages[0]).toContain("TEMPLATE 1");
    const done = await admin.post(url, { template: JSON.stringify({ chain: [template("IMPORTED", "Hi")] }) });
    expect(done.status).toBe(204);
    expect(done.headers.get("X-Remix-Redirect")).toBe(`/chains/${into.id}`);
    expect(await html(`/chains/${into.id}`)).toContain(V.imported);
    expect((await draftOf(into.id)).data.template.chain.map((l) => l.name)).toEqual(["IMPORTED"]);
  });

  it("a Dialog tab save over a newer draft: 'Overwrite draft?' naming who saved it and when, the edit kept; Overwrite saves it over that draft, Cancel shows the newer one", async () => {
    const c = await chainWithDraft();
    const url = `/chains/${c.id}`;
    const shown = draftVersionOf(await html(url));
    const link = (await draftOf(c.id)).data.template.chain[0]!;
    // Someone else saves the draft (a query renamed) after this page was loaded.
    const theirs = structuredClone((await draftOf(c.id)).data);
    theirs.template.chain[1]!.name = "THEIR QUERY";
    expect((await app.adminApi("PATCH", `/api/prompts/${c.id}/draft`, { data: theirs })).status).toBe(200);
    const newer = ChainDraft.parse(await (await app.adminApi("GET", `/api/prompts/${c.id}/draft`)).json());

    const edit = { draftVersion: shown, link: link.id, intent: "save", name: "MY GREETING", template: "Hello there" };
    const stale = await admin.post(`${url}?index`, edit);
    expect(stale.status).toBe(409);
    const step = unescapeHtml(await stale.text());
    expect(step).toContain(`<h2 id="newer-draft-title">${V.overwriteTitle}</h2>`);
    expect(V.overwriteTitle).toBe("Overwrite draft?");
    expect(step).toContain(V.newerDraftMessage("admin", formatDateTime(newer.updatedAt, DEFAULT_TIME_ZONE)));
    expect(step).toContain(`>${V.overwriteConfirm}</button>`);
    expect(step).toContain(`>${V.cancel}</a>`);
    // The step's form posts the edit again with the newer draft's version; the page's form shows the edit as typed.
    const stepForm = step.slice(step.indexOf('id="newer-draft-title"'));
    for (const [name, value] of [["link", link.id], ["intent", "save"], ["name", "MY GREETING"], ["template", "Hello there"], ["draftVersion", String(newer.version)]]) {
      expect(stepForm).toContain(`<input type="hidden" name="${name}" value="${value}"/>`);
    }
    expect(step).toContain(`value="MY GREETING"`);
    expect(step).not.toContain(`<strong>${V.updateFailed}</strong>`);
    expect((await draftOf(c.id)).data.template.chain.map((l) => l.name)).toEqual(["GREETING", "THEIR QUERY"]);

    // Cancel: the page again, showing the newer draft.
    const cancelled = await html(url);
    expect(cancelled).toContain(`value="THEIR QUERY"`);
    expect(cancelled).not.toContain(`value="MY GREETING"`);
    // Overwrite: the edit applied to the newer draft (their rename kept, the link as typed), 'Draft saved'.
    const done = await admin.post(`${url}?index`, { ...edit, draftVersion: String(newer.version) });
    expect(done.status).toBe(302);
    expect(await html(done.headers.get("Location")!)).toContain(V.draftSaved);
    const saved = (await draftOf(c.id)).data.template.chain;
    expect(saved.map((l) => l.name)).toEqual(["MY GREETING", "THEIR QUERY"]);
    expect(saved[0]).toMatchObject({ template: "Hello there" });
  });

  it("'Save new version?' in the toolbar: the draft committed with its Comment ('Update completed'); a refused save keeps the comment", async () => {
    const c = await chainWithDraft();
    const url = `/chains/${c.id}`;
    expect(await html(url)).toContain(V.saveVersion);
    const step = unescapeHtml(await (await admin.post(url, { intent: "saveVersion", draftVersion: "1" })).text());
    expect(step).toContain(V.saveVersionTitle);
    expect(step).toContain(V.saveVersionMessage);
    expect(step).toContain(`name="comment"`);
    // Over a newer draft than the page showed: refused, the step again with the comment as typed and the reason.
    const stale = await admin.post(url, { intent: "saveVersion", confirmed: "yes", draftVersion: "7", comment: "Greeting renamed, query added" });
    expect(stale.status).toBe(409);
    const again = unescapeHtml(await stale.text());
    expect(again).toContain(V.saveVersionTitle);
    expect(again).toContain("Greeting renamed, query added</textarea>");
    expect((await history(c.id)).map((v) => v.version)).toEqual([1]);
    // A comment past its bound: refused before the upstream, kept too.
    const long = "x".repeat(2001);
    const tooLong = await admin.post(url, { intent: "saveVersion", confirmed: "yes", draftVersion: "1", comment: long });
    expect(tooLong.status).toBe(400);
    expect(await tooLong.text()).toContain(`${long}</textarea>`);

    const done = await admin.post(url, { intent: "saveVersion", confirmed: "yes", draftVersion: "1", comment: "Greeting renamed, query added" });
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe(url);
    const page = await html(url);
    expect(page).toContain(V.versionSaved);
    expect(V.versionSaved).toBe("Update completed");
    expect(page).not.toContain(V.saveVersion);
    expect((await history(c.id))[0]).toMatchObject({ version: 2, comment: "Greeting renamed, query added", isActive: true });
    expect((await current(c.id)).template.chain.map((l) => l.name)).toEqual(["GREETING", "QUERY 1"]);
    expect((await app.adminApi("GET", `/api/prompts/${c.id}/draft`)).status).toBe(404);
  });

  it("'Save as draft' on a numbered version: into the draft at once without one, after 'Overwrite draft?' over one; lands on the Dialog tab", async () => {
    const c = await chainWithDraft();
    expect((await app.adminApi("POST", `/api/prompts/${c.id}/draft/activate`, { comment: "v2" })).status).toBe(200);
    // No draft: version 1 (an older one) goes into the draft without a question.
    const v1 = `/chains/${c.id}/versions/1`;
    expect(await html(v1)).toContain(V.saveAsDraft);
    const saved = await admin.post(v1, { intent: "saveAsDraft", confirmed: "yes", draftVersion: "0" });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe(`/chains/${c.id}`);
    const page = await html(`/chains/${c.id}`);
    expect(page).toContain(V.draftSaved);
    expect(page).toContain(`value="TEMPLATE 1"`);
    expect((await draftOf(c.id)).data.template.chain.map((l) => l.name)).toEqual(["TEMPLATE 1"]);

    // Over that draft, from the active version 2: 'Overwrite draft?' says what is replaced; a stale draft is refused.
    const v2 = `/chains/${c.id}/versions/2`;
    expect(await html(v2)).toContain(V.saveAsDraft);
    const step = unescapeHtml(await (await admin.post(v2, { intent: "saveAsDraft", draftVersion: "1" })).text());
    expect(step).toContain(V.overwriteTitle);
    expect(V.overwriteTitle).toBe("Overwrite draft?");
    expect(step).toContain(V.overwriteMessage(2));
    const stale = await admin.post(v2, { intent: "saveAsDraft", confirmed: "yes", draftVersion: "0" });
    expect(stale.status).toBe(409);
    expect(unescapeHtml(await stale.text())).toContain(V.overwriteTitle);
    expect((await draftOf(c.id)).data.template.chain.map((l) => l.name)).toEqual(["TEMPLATE 1"]);
    const done = await admin.post(v2, { intent: "saveAsDraft", confirmed: "yes", draftVersion: "1" });
    expect(done.status).toBe(302);
    expect((await draftOf(c.id)).data.template.chain.map((l) => l.name)).toEqual(["GREETING", "QUERY 1"]);
    expect((await history(c.id)).map((v) => v.version)).toEqual([2, 1]);
  });

  it("prompts.read alone: reads the versions, compare and export; no import, no activation", async () => {
    const c = await chainWithDraft();
    const reader = await browserWith(app, ["prompts.read"]);
    const page = unescapeHtml(await (await reader.get(`/chains/${c.id}`)).text());
    expect(page).not.toContain(`href="/chains/${c.id}/import"`);
    expect((await reader.get(`/chains/${c.id}/versions/1`)).status).toBe(200);
    expect(unescapeHtml(await (await reader.get(`/chains/${c.id}/versions/draft`)).text())).not.toContain(V.activateDraft);
    expect((await reader.get(`/chains/${c.id}/compare?to=draft`)).status).toBe(200);
    expect((await reader.get(`/chains/${c.id}/export/download`)).status).toBe(200);
    expect((await reader.get(`/chains/${c.id}/import`)).status).toBe(404);
    expect((await reader.post(`/chains/${c.id}/import`, { template: "{}" })).status).toBe(404);
    expect((await reader.post(`/chains/${c.id}/versions/draft`, { intent: "activate", confirmed: "yes" })).status).toBe(404);
    // Neither 'Save new version' nor 'Save as draft' is offered, and a post of either is refused.
    expect(page).not.toContain(V.saveVersion);
    expect(unescapeHtml(await (await reader.get(`/chains/${c.id}/versions/1`)).text())).not.toContain(V.saveAsDraft);
    expect((await reader.post(`/chains/${c.id}`, { intent: "saveVersion", confirmed: "yes", comment: "no" })).status).toBe(404);
    expect((await reader.post(`/chains/${c.id}/versions/1`, { intent: "saveAsDraft", confirmed: "yes" })).status).toBe(404);
    expect((await history(c.id)).map((v) => v.version)).toEqual([1]);
    expect((await app.adminApi("GET", `/api/prompts/${c.id}/draft`)).status).toBe(200);
  });
});
