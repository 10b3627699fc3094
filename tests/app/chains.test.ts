import { describe, expect, it } from "vitest";
import { Chain } from "@contract/chains";
import { CHAIN_MESSAGES } from "@contract/chains-constants";
import { CHAINS } from "~/chains/texts";
import { appAsAdmin, browserWith, refusingUpstream, unescapeHtml, uniq } from "../helpers/app";

const { app, admin } = appAsAdmin();

const V = CHAINS.validation;

async function org(name: string): Promise<string> {
  const r = await app.adminApi("POST", "/api/organizations", { name });
  return ((await r.json()) as { id: string }).id;
}

async function chain(body: Record<string, unknown>): Promise<Chain> {
  const r = await app.adminApi("POST", "/api/prompts", body);
  expect(r.status).toBe(201);
  return Chain.parse(await r.json());
}

describe("chains: list, create, edit, delete", () => {
  it("create: §5 name messages with what was typed kept; a valid chain opens /chains/{id} with the toast", async () => {
    const data = "?_data=routes%2F_app.chains.create";
    const empty = await admin.post(`/chains/create${data}`, { intent: "save", name: "   ", description: "kept" });
    expect(empty.status).toBe(400);
    const emptyReply = (await empty.json()) as { error: Record<string, string[]>; initialValue: Record<string, unknown> };
    expect(emptyReply.error).toEqual({ name: [V.nameRequired] });
    expect(emptyReply.initialValue.description).toBe("kept");
    const short = await admin.post(`/chains/create${data}`, { intent: "save", name: " abc " });
    expect(((await short.json()) as { error: Record<string, string[]> }).error).toEqual({ name: [V.nameShort] });
    // Without JavaScript: the page again, with the message and the input.
    const page = await admin.post("/chains/create", { intent: "save", name: "abc", tags: "kept-tag" });
    expect(page.status).toBe(400);
    const html = unescapeHtml(await page.text());
    expect(html).toContain(V.nameShort);
    expect(html).toContain("kept-tag");
    expect(html).toContain(`<h1>${CHAINS.newTitle}</h1>`);

    const acme = await org(`Acme ${uniq()}`);
    const name = `  Claims chain ${uniq()}  `;
    const created = await admin.post("/chains/create", { intent: "save", name, organizations: [acme], tags: "claims; draft", isGeneric: "on", description: "Drafts claims" });
    expect(created.status).toBe(302);
    const to = created.headers.get("Location")!;
    expect(to).toMatch(/^\/chains\/[0-9a-f-]{36}$/);
    const id = to.split("/").pop()!;
    const stored = Chain.parse(await (await app.adminApi("GET", `/api/prompts/${id}`)).json());
    expect(stored).toMatchObject({ name: name.trim(), organizations: [acme], tags: ["claims", "draft"], isGeneric: true, isPublic: false, version: 1 });
    const view = unescapeHtml(await (await admin.get(to)).text());
    expect(view).toContain(CHAINS.toasts.created);
    expect(view).toContain(name.trim());
    for (const tab of Object.values(CHAINS.page.tabs)) expect(view).toContain(tab);
  });

  it("the list: columns, tag (any) and organization (any) filters in the URL, '+ new' with prompts.write only", async () => {
    const tag = `t${uniq()}`;
    const acme = await org(`Org ${uniq()}`);
    const beta = await org(`Org ${uniq()}`);
    const a = await chain({ name: `Alpha ${tag}`, tags: [tag], organizations: [acme], description: "First one" });
    const b = await chain({ name: `Bravo ${tag}`, tags: [`${tag}x`], organizations: [beta], isGeneric: true });
    const html = unescapeHtml(await (await admin.get(`/chains?q=${tag}`)).text());
    expect(html).toContain(`<h1>${CHAINS.listTitle}</h1>`);
    for (const header of Object.values(CHAINS.columns)) expect(html).toContain(header);
    expect(html).toContain(`href="/chains/${a.id}"`);
    expect(html).toContain(`href="/chains/${b.id}/edit"`);
    expect(html).toContain("First one");
    expect(html).toContain(CHAINS.addNew);
    expect(html).toMatch(/[A-Z][a-z]+ \d{1,2}, \d{4}/); // Last modification, US long
    const byTag = unescapeHtml(await (await admin.get(`/chains?q=${tag}&filtered=1&tag=${tag}`)).text());
    expect(byTag).toContain(`Alpha ${tag}`);
    expect(byTag).not.toContain(`Bravo ${tag}`);
    const byOrg = unescapeHtml(await (await admin.get(`/chains?q=${tag}&filtered=1&organization=${beta}`)).text());
    expect(byOrg).not.toContain(`Alpha ${tag}`);
    expect(byOrg).toContain(`Bravo ${tag}`);
    const both = unescapeHtml(await (await admin.get(`/chains?q=${tag}&filtered=1&organization=${beta}&organization=${acme}`)).text());
    expect(both).toContain(`Alpha ${tag}`);
    expect(both).toContain(`Bravo ${tag}`);

    const reader = await browserWith(app, ["prompts.read"]);
    const readerList = unescapeHtml(await (await reader.get(`/chains?q=${tag}`)).text());
    expect(readerList).toContain(`Alpha ${tag}`);
    expect(readerList).not.toContain(CHAINS.addNew);
    const nobody = await browserWith(app, ["users.read"]);
    expect((await nobody.get("/chains")).status).toBe(404);
    expect((await nobody.get(`/chains/${a.id}`)).status).toBe(404);
  });

  it("edit: a new version with the settings, the draft's too; a stale page is refused; Delete after 'Delete chain?'", async () => {
    const c = await chain({ name: `Edit me ${uniq()}`, template: { chain: [{ id: "t", type: "template", name: "TEMPLATE 1", template: "Hello" }] } });
    const edit = unescapeHtml(await (await admin.get(`/chains/${c.id}/edit`)).text());
    expect(edit).toContain(`<h1>${CHAINS.editTitle}</h1>`);
    expect(edit).toContain('name="baseVersion" value="1"');
    const draft = await app.adminApi("PATCH", `/api/prompts/${c.id}/draft`, { data: { ...c, template: { ...c.template, chain: [] } } });
    expect(draft.status).toBe(200);
    const saved = await admin.post(`/chains/${c.id}/edit`, { intent: "save", name: `${c.name} 2`, tags: "x", baseVersion: "1" });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe(`/chains/${c.id}`);
    const after = Chain.parse(await (await app.adminApi("GET", `/api/prompts/${c.id}`)).json());
    expect(after).toMatchObject({ name: `${c.name} 2`, version: 2, tags: ["x"] });
    expect(after.template.chain).toHaveLength(1);
    const d = (await (await app.adminApi("GET", `/api/prompts/${c.id}/draft`)).json()) as { data: { name: string } };
    expect(d.data.name).toBe(`${c.name} 2`);
    // The same page sent again (version 1): nothing saved, the failure shown, the input kept.
    const stale = await admin.post(`/chains/${c.id}/edit`, { intent: "save", name: "Someone else's", baseVersion: "1" });
    expect(stale.status).toBe(409);
    const staleHtml = unescapeHtml(await stale.text());
    expect(staleHtml).toContain(CHAIN_MESSAGES.saveFailed);
    expect(staleHtml).toContain("Someone else's");
    // The history tab lists both versions.
    const history = unescapeHtml(await (await admin.get(`/chains/${c.id}?tab=history`)).text());
    expect(history).toContain(CHAINS.page.active);
    // Each line leads to its version view.
    expect(history).toMatch(
      /<td><a [^>]*href="\/chains\/[^"]+\/versions\/draft">Draft<\/a><\/td><td>DRAFT<\/td>[\s\S]*<td><a [^>]*href="\/chains\/[^"]+\/versions\/2">Revision 2<\/a><\/td><td>Active<\/td>[\s\S]*<td><a [^>]*href="\/chains\/[^"]+\/versions\/1">Revision 1<\/a><\/td><td>Previous<\/td>/,
    );

    const ask = await admin.post(`/chains/${c.id}/edit`, { intent: "delete" });
    const askHtml = unescapeHtml(await ask.text());
    expect(askHtml).toContain(CHAINS.confirmDelete.title);
    expect(askHtml).toContain(CHAINS.confirmDelete.message());
    const gone = await admin.post(`/chains/${c.id}/edit`, { intent: "delete", confirmed: "yes" });
    expect(gone.headers.get("Location")).toBe("/chains");
    expect(unescapeHtml(await (await admin.get("/chains")).text())).toContain(CHAINS.toasts.deleted);
    expect((await app.adminApi("GET", `/api/prompts/${c.id}`)).status).toBe(404);
  });

  it("an organization change that a link's model does not allow is refused with the spec's text", async () => {
    const acme = await org(`Allowed ${uniq()}`);
    const other = await org(`Other ${uniq()}`);
    const m = await app.adminApi("POST", "/api/v2/nlp/configurations", {
      name: `model-${uniq()}`,
      provider: "openai-compatible",
      capability: "chat",
      organizations: [acme],
      config: JSON.stringify({ baseURL: "http://127.0.0.1:9/v1", apiKey: "k", model: "m" }),
    });
    const modelId = ((await m.json()) as { id: string }).id;
    const c = await chain({ name: `Model ${uniq()}`, organizations: [acme], template: { chain: [{ id: "p", type: "prompt", name: "PROMPT 1", model: modelId, messages: [] }] } });
    const refused = await admin.post(`/chains/${c.id}/edit`, { intent: "save", name: c.name, organizations: [acme, other] });
    expect(refused.status).toBe(400);
    expect(unescapeHtml(await refused.text())).toContain(CHAIN_MESSAGES.modelNotAllowed);
  });

  it("a delete the upstream refuses: 'Failed to content chain prompt', the chain kept", async () => {
    const c = await chain({ name: `Kept ${uniq()}` });
    refusingUpstream(app).refuse("DELETE", /^\/api\/prompts\//, 503, "Storage is read-only");
    const failed = await admin.post(`/chains/${c.id}/edit`, { intent: "delete", confirmed: "yes" });
    expect(failed.status).toBe(503);
    const html = unescapeHtml(await failed.text());
    expect(html).toContain(CHAINS.toasts.deleteFailed);
    expect(html).toContain("Storage is read-only");
    expect((await app.adminApi("GET", `/api/prompts/${c.id}`)).status).toBe(200);
  });

  it("prompts.read alone: every page read-only, every post 404, the upstream 403", async () => {
    const c = await chain({ name: `Read only ${uniq()}` });
    const reader = await browserWith(app, ["prompts.read"]);
    const edit = unescapeHtml(await (await reader.get(`/chains/${c.id}/edit`)).text());
    expect(edit).toContain(CHAINS.readOnlyNote);
    expect(edit).not.toContain(CHAINS.confirmDelete.title);
    expect(edit).toMatch(/<input[^>]*name="name"[^>]*disabled/);
    expect((await reader.get(`/chains/${c.id}`)).status).toBe(200);
    expect((await reader.get("/chains/create")).status).toBe(404);
    expect((await reader.post("/chains/create", { intent: "save", name: "Sneaky chain" })).status).toBe(404);
    expect((await reader.post(`/chains/${c.id}/edit`, { intent: "save", name: "Sneaky chain" })).status).toBe(404);
    expect((await reader.post(`/chains/${c.id}/edit`, { intent: "delete", confirmed: "yes" })).status).toBe(404);
    expect(Chain.parse(await (await app.adminApi("GET", `/api/prompts/${c.id}`)).json()).name).toBe(c.name);
  });
});
