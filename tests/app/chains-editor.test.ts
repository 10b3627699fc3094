import { describe, expect, it } from "vitest";
import { Chain } from "@contract/chains";
import { DEFAULT_QUERY_SQL } from "@contract/chain-query";
import { DEFAULT_PROMPT_MESSAGES } from "@contract/chains-constants";
import { CHAINS } from "~/chains/texts";
import { chainsOf } from "../helpers/chains";
import { appAsAdmin, browserWith, unescapeHtml, uniq } from "../helpers/app";

const { app, admin } = appAsAdmin();
const { create: chain, draft: draftOf } = chainsOf(app);
const E = CHAINS.editor;
/** An add button of the page: `type` and its label. */
const addButton = (type: string, label: string) => new RegExp(`name="type" value="${type}"[^>]*>${label}</button>`);


/** The page's posts as a browser without JavaScript sends them (the index route's action: `?index`). */
const post = (id: string, fields: Record<string, string | string[]>) => admin.post(`/chains/${id}?index`, fields);

/** Posts `fields` with the draft version the page shows, as the form does; expects the redirect back to the page. */
async function edit(id: string, fields: Record<string, string | string[]>): Promise<string> {
  const html = await (await admin.get(`/chains/${id}`)).text();
  const draftVersion = /name="draftVersion" value="(\d+)"/.exec(html)?.[1] ?? "0";
  const r = await post(id, { draftVersion, ...fields });
  expect(r.status, await r.clone().text()).toBe(302);
  return r.headers.get("Location")!;
}

describe("chain editor: the Dialog tab without JavaScript", () => {
  it("adds a link of each type with default names, moves them (no move at the ends), deletes them; the chat once, and it goes with the last link", async () => {
    const c = await chain({ name: `Editor ${uniq()}` });
    const page = unescapeHtml(await (await admin.get(`/chains/${c.id}`)).text());
    expect(page).toContain(E.draftNote);
    expect(page).toMatch(/<form method="post" action="\/chains\/[^"]+\?index"/);
    for (const t of ["prompt", "query", "template", "form", "content"] as const) expect(page).toMatch(addButton(t, E.types[t]));
    // No chat before a link (a chat needs one).
    expect(page).not.toMatch(addButton("chat", E.types.chat));

    for (const type of ["prompt", "query", "prompt", "template", "form", "content"]) await edit(c.id, { intent: "add", type });
    let d = await draftOf(c.id);
    expect(d.data.template.chain.map((l) => l.name)).toEqual(["PROMPT 1", "QUERY 1", "PROMPT 2", "TEMPLATE 1", "FORM 1", "CONTENT 1"]);
    const prompt = d.data.template.chain[0]!;
    expect(prompt).toMatchObject({ type: "prompt", temperature: 0.7, max_tokens: null, model: null, messages: DEFAULT_PROMPT_MESSAGES });
    expect(d.data.template.chain[1]).toMatchObject({ type: "query", query: DEFAULT_QUERY_SQL });
    expect(d.data.template.chain[5]).toMatchObject({ type: "content", source: { type: "file", value: [] } });
    // The chain itself is unchanged: edits go to the draft.
    expect(Chain.parse(await (await app.adminApi("GET", `/api/prompts/${c.id}`)).json()).template.chain).toEqual([]);

    const html = unescapeHtml(await (await admin.get(`/chains/${c.id}`)).text());
    expect(html).not.toContain(E.moveUpOf("PROMPT 1"));
    expect(html).toContain(E.moveDownOf("PROMPT 1"));
    expect(html).toContain(E.moveUpOf("CONTENT 1"));
    expect(html).not.toContain(E.moveDownOf("CONTENT 1"));
    expect(html.match(new RegExp(`>${E.deleteLink}</button>`, "g"))).toHaveLength(6);
    expect(html).toMatch(addButton("chat", E.types.chat));

    const [p1, q1] = d.data.template.chain;
    const to = await edit(c.id, { intent: "down", link: p1!.id });
    expect(to).toBe(`/chains/${c.id}?open=${p1!.id}#link-${p1!.id}`);
    await edit(c.id, { intent: "up", link: p1!.id });
    await edit(c.id, { intent: "down", link: q1!.id });
    d = await draftOf(c.id);
    expect(d.data.template.chain.map((l) => l.name)).toEqual(["PROMPT 1", "PROMPT 2", "QUERY 1", "TEMPLATE 1", "FORM 1", "CONTENT 1"]);
    // Moving the last link down does nothing.
    await edit(c.id, { intent: "down", link: d.data.template.chain[5]!.id });
    expect((await draftOf(c.id)).data.template.chain.map((l) => l.name)).toEqual(d.data.template.chain.map((l) => l.name));

    await edit(c.id, { intent: "add", type: "chat" });
    await edit(c.id, { intent: "add", type: "chat" });
    d = await draftOf(c.id);
    expect(d.data.template.chat).toMatchObject({ type: "chat", name: "CHAT", temperature: 0.7, includeHistory: true });
    expect(unescapeHtml(await (await admin.get(`/chains/${c.id}`)).text())).not.toMatch(addButton("chat", E.types.chat));

    // A deleted PROMPT 1's name is taken again by the next prompt; with the last link the chat goes.
    // 'Delete Link' asks first (the inline step without JavaScript), then deletes.
    const ask = await post(c.id, { draftVersion: String((await draftOf(c.id)).version), intent: "delete", link: p1!.id });
    expect(ask.status).toBe(200);
    const askHtml = unescapeHtml(await ask.text());
    expect(askHtml).toMatch(new RegExp(`<h2 id="confirm-delete-${p1!.id}-title">${E.deleteLink}</h2>`));
    expect(askHtml).toContain(E.deleteLinkMessage("PROMPT 1"));
    expect((await draftOf(c.id)).data.template.chain).toHaveLength(6);
    await edit(c.id, { intent: "delete", link: p1!.id, confirmed: "yes" });
    await edit(c.id, { intent: "add", type: "prompt" });
    d = await draftOf(c.id);
    expect(d.data.template.chain.map((l) => l.name)).toEqual(["PROMPT 2", "QUERY 1", "TEMPLATE 1", "FORM 1", "CONTENT 1", "PROMPT 1"]);
    for (const l of d.data.template.chain) await edit(c.id, { intent: "delete", link: l.id, confirmed: "yes" });
    d = await draftOf(c.id);
    expect(d.data.template.chain).toEqual([]);
    expect(d.data.template.chat).toBeNull();
  });

  it("an added link comes back open; a stale page's edit is refused (409), nothing saved", async () => {
    const c = await chain({ name: `Stale ${uniq()}` });
    // The page comes back with the new link open.
    const to = await edit(c.id, { intent: "add", type: "query" });
    const added = (await draftOf(c.id)).data.template.chain[0]!;
    expect(to).toBe(`/chains/${c.id}?open=${added.id}#link-${added.id}`);
    const stale = await post(c.id, { draftVersion: "0", intent: "add", type: "template" });
    expect(stale.status).toBe(409);
    expect((await draftOf(c.id)).data.template.chain.map((l) => l.name)).toEqual(["QUERY 1"]);
  });

  it("the page's data carries the chain's document once: the edited one (draft or chain) for a writer, the template for a reader", async () => {
    const link = { id: "t", type: "template", name: "TEMPLATE 1", template: "Hi" };
    const c = await chain({ name: `Once ${uniq()}`, template: { chain: [link] } });
    const data = `/chains/${c.id}?_data=${encodeURIComponent("routes/_app.chains.$id._index")}`;
    type PageData = { chain: Record<string, unknown>; template: unknown; editing: { document: { template: { chain: { name: string }[] } }; draftVersion: number } | null };
    const read = async (who: { get(url: string): Promise<Response> }) => (await (await who.get(data)).json()) as PageData;
    // No draft: the chain's document as the one edited.
    let page = await read(admin);
    expect(page.chain).toEqual({ id: c.id, name: c.name, version: 1, hasDraft: false });
    expect(page.template).toBeNull();
    expect(page.editing).toMatchObject({ draftVersion: 0, document: { template: { chain: [{ name: "TEMPLATE 1" }] } } });
    // A draft: only the draft's document.
    await edit(c.id, { link: "t", intent: "save", name: "GREETING", template: "Hi" });
    page = await read(admin);
    expect(page.chain).toMatchObject({ hasDraft: true });
    expect(page.template).toBeNull();
    expect(page.editing?.document.template.chain.map((l) => l.name)).toEqual(["GREETING"]);
    expect(JSON.stringify(page).match(/TEMPLATE 1/g)).toBeNull();
    // A reader: the chain's template, nothing edited.
    page = await read(await browserWith(app, ["prompts.read"]));
    expect(page.editing).toBeNull();
    expect(page.template).toMatchObject({ chain: [{ name: "TEMPLATE 1" }] });
  });

  it("prompts.read alone: the Dialog read-only, no editing buttons, every post 404", async () => {
    const c = await chain({ name: `Reader ${uniq()}`, template: { chain: [{ id: "t", type: "template", name: "TEMPLATE 1", template: "Hi" }] } });
    const reader = await browserWith(app, ["prompts.read"]);
    const html = unescapeHtml(await (await reader.get(`/chains/${c.id}`)).text());
    expect(html).toContain("TEMPLATE 1");
    expect(html).toContain(CHAINS.readOnlyNote);
    expect(html).not.toContain(E.deleteLink);
    expect(html).not.toMatch(addButton("prompt", E.types.prompt));
    expect((await reader.post(`/chains/${c.id}?index`, { draftVersion: "0", intent: "add", type: "prompt" })).status).toBe(404);
    expect((await app.adminApi("GET", `/api/prompts/${c.id}/draft`)).status).toBe(404);
  });
});
