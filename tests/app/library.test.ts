import { describe, expect, it } from "vitest";
import type { LibraryCategory, LibraryItem } from "@contract/library";
import { LIBRARY } from "~/library/texts";
import { officePackage } from "../fixtures/office";
import { appAsAdmin, browserWith, refusingUpstream, uniq, type TestApp } from "../helpers/app";
import { chainsOf } from "../helpers/chains";

const { app, admin } = appAsAdmin();
const DATA = "routes%2F_app.library";

/** Text of a page as a reader sees it: tags dropped, entities decoded. */
const textOf = (html: string) =>
  html
    .replace(/<script[\s\S]*?<\/script>/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");

async function api<T>(a: TestApp, method: string, path: string, body?: unknown): Promise<T> {
  const res = await a.adminApi(method, path, body);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (res.status === 204 ? null : await res.json()) as T;
}

const newSpec = (a: TestApp, name: string, tags: string[] = []) =>
  api<{ id: string }>(a, "POST", "/api/specifications", { name, type: "abstract", description: "d", tags, template: "{{t}}" });

const category = (a: TestApp, name: string, parentId: string | null = null) =>
  api<LibraryCategory>(a, "POST", "/api/categories/create", { name, parentId });

const settingsOf = (item: LibraryItem, changes: Record<string, string | string[]> = {}) => ({
  itemId: item.id,
  name: item.name,
  description: item.description,
  tags: item.tags.join("; "),
  organizations: item.organizations,
  categories: item.categories,
  ...(item.isPublic ? { isPublic: "on" } : {}),
  ...(item.isGeneric ? { isGeneric: "on" } : {}),
  ...changes,
});

describe("/library", () => {
  it("is in the side navigation for everyone; categories are added, renamed, moved and deleted without JavaScript", async () => {
    const page = await (await admin.get("/library")).text();
    expect(page).toContain('href="/library"');
    expect(textOf(page)).toContain(LIBRARY.addCategory);

    const empty = await admin.post("/library", { intent: "create-category", name: "   " });
    expect(empty.status).toBe(400);
    expect(textOf(await empty.text())).toContain(LIBRARY.nameRequired);

    const a = `Alpha ${uniq()}`;
    const created = await admin.post("/library", { intent: "create-category", name: a, parentId: "" });
    expect(created.status).toBe(302);
    const after = await (await admin.get(created.headers.get("Location")!)).text();
    expect(textOf(after)).toContain(LIBRARY.categoryCreated);
    const cats = await api<LibraryCategory[]>(app, "GET", "/api/categories/all");
    const alpha = cats.find((c) => c.name === a)!;
    const beta = await category(app, `Beta ${uniq()}`);
    const child = await category(app, `Child ${uniq()}`, alpha.id);
    // A category's link opens its branch: its children show, and the pickers name them by path.
    expect(textOf(await (await admin.get("/library")).text())).not.toContain(`${a} > ${child.name}`);
    expect(textOf(await (await admin.get(`/library?cat=${alpha.id}`)).text())).toContain(`${a} > ${child.name}`);

    // Move Beta up (before Alpha), then re-parent Child under Beta.
    await admin.post("/library", { intent: "move-category", id: beta.id, parentId: "", order: String(beta.order - 1) });
    await admin.post("/library", { intent: "move-category", id: child.id, parentId: beta.id });
    const moved = await api<LibraryCategory[]>(app, "GET", "/api/categories/all");
    expect(moved.find((c) => c.id === beta.id)!.order).toBe(alpha.order);
    expect(moved.find((c) => c.id === child.id)!.parentId).toBe(beta.id);
    // Re-parented with no order: last among its new siblings.
    await admin.post("/library", { intent: "move-category", id: child.id, parentId: "" });
    const top = (await api<LibraryCategory[]>(app, "GET", "/api/categories/all")).filter((c) => c.parentId === null);
    expect(top.find((c) => c.id === child.id)!.order).toBe(top.length - 1);
    await admin.post("/library", { intent: "move-category", id: child.id, parentId: beta.id });

    // Rename with an empty name says so and keeps the form open; a good name saves.
    const badRename = await admin.post(`/library?edit=${child.id}`, { intent: "rename-category", id: child.id, name: "" });
    expect(badRename.status).toBe(400);
    expect(textOf(await badRename.text())).toContain(LIBRARY.nameRequired);
    await admin.post(`/library?edit=${child.id}`, { intent: "rename-category", id: child.id, name: "Renamed child" });
    expect((await api<LibraryCategory[]>(app, "GET", "/api/categories/all")).find((c) => c.id === child.id)!.name).toBe("Renamed child");

    // Delete asks first (inline without JavaScript), then deletes.
    const ask = await admin.post("/library", { intent: "delete-category", id: beta.id });
    const asked = textOf(await ask.text());
    expect(asked).toContain(LIBRARY.deleteCategoryTitle);
    expect(asked).toContain(LIBRARY.cantUndo);
    const done = await admin.post("/library", { intent: "delete-category", id: beta.id, confirmed: "yes" });
    expect(done.status).toBe(302);
    expect(textOf(await (await admin.get(done.headers.get("Location")!)).text())).toContain(LIBRARY.categoryDeleted);
    expect((await api<LibraryCategory[]>(app, "GET", "/api/categories/all")).some((c) => c.id === beta.id)).toBe(false);
  });

  it("groups items by category or date, filters and searches by the URL; ?id= shows the settings, saved through the domain", async () => {
    const tag = `t${uniq()}`;
    const cat = await category(app, `Cat ${uniq()}`);
    const spec = await newSpec(app, `Spec ${uniq()}`, [tag]);
    const item = await api<LibraryItem>(app, "GET", `/api/library/items/${spec.id}`);
    const byCategory = textOf(await (await admin.get(`/library?tag=${tag}`)).text());
    expect(byCategory).toContain(LIBRARY.other);
    expect(byCategory).toContain(item.name);
    const byDate = textOf(await (await admin.get(`/library?groupBy=date&tag=${tag}`)).text());
    const month = new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" }).format(new Date());
    expect(byDate).toContain(month);
    expect(textOf(await (await admin.get(`/library?tag=${tag}&type=drawing`)).text())).toContain(LIBRARY.noItems);
    expect(textOf(await (await admin.get(`/library?name=${encodeURIComponent(item.name)}`)).text())).toContain(item.name);

    // The settings form: the name's rules, then a save through the specification.
    const url = `/library?id=${spec.id}`;
    const shown = textOf(await (await admin.get(url)).text());
    expect(shown).toContain(LIBRARY.settings);
    expect(shown).toContain(LIBRARY.openEditor);
    for (const [name, message] of [["  ", LIBRARY.nameRequired], [" abc ", LIBRARY.nameShort]] as const) {
      const bad = await admin.post(`${url}&_data=${DATA}`, settingsOf(item, { name }));
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { error: Record<string, string[]> }).error.name).toEqual([message]);
    }
    const saved = await admin.post(url, settingsOf(item, { name: "  Renamed spec  ", categories: [cat.id], isGeneric: "on", tags: `${tag}; EP` }));
    expect(saved.status).toBe(302);
    expect(textOf(await (await admin.get(saved.headers.get("Location")!)).text())).toContain(LIBRARY.saved);
    const domain = await api<{ name: string; tags: string[] }>(app, "GET", `/api/specifications/${spec.id}`);
    expect(domain).toMatchObject({ name: "Renamed spec", tags: [tag, "EP"] });
    const grouped = textOf(await (await admin.get(`/library?cat=${cat.id}`)).text());
    expect(grouped).toContain("Renamed spec");
    expect(grouped).toContain(cat.name);
  });

  it("the settings' category picker: at most 50 options, searched when empty or from 3 characters, with and without JavaScript", async () => {
    const prefix = `Pick${uniq()}`;
    const made: LibraryCategory[] = [];
    for (let i = 0; i < 52; i++) made.push(await category(app, `${prefix} ${String(i).padStart(2, "0")}`));
    const spec = await newSpec(app, `Picked ${uniq()}`);
    const item = await api<LibraryItem>(app, "GET", `/api/library/items/${spec.id}`);
    // The item holds the last one (past the first 50): it shows, ticked, whatever the search.
    await api(app, "PATCH", `/api/library/items/${spec.id}`, { ...settingsOf(item), isPublic: false, isGeneric: false, categories: [made[51]!.id], tags: [] });
    const boxes = (html: string) => [...html.matchAll(/<input[^>]*name="categories"[^>]*>/g)].map((m) => m[0]);
    // With JavaScript: the resource route answers at most 50 of a search; a search under 3 characters is no search.
    const pick = async (q: string) => (await (await admin.get(`/library/categories?q=${encodeURIComponent(q)}`)).json()) as { options: { label: string }[]; matched: number };
    const all = await pick(prefix);
    expect(all.matched).toBe(52);
    expect(all.options).toHaveLength(50);
    expect((await pick(`${prefix} 5`)).options.map((o) => o.label)).toEqual([`${prefix} 50`, `${prefix} 51`]);
    expect((await pick("Pi")).matched).toBe((await pick("")).matched);
    // Without JavaScript: the page's own `pick`; the item's category and at most 50 others, and a hint past 50.
    const page = await (await admin.get(`/library?id=${spec.id}&pick=${encodeURIComponent(prefix)}`)).text();
    const shown = boxes(page);
    expect(shown.length).toBe(51);
    expect(shown.filter((b) => b.includes("checked"))).toHaveLength(1);
    expect(shown[0]).toContain(made[51]!.id);
    expect(textOf(page)).toContain(LIBRARY.pickShown(50, 52));
    const narrowed = boxes(await (await admin.get(`/library?id=${spec.id}&pick=${encodeURIComponent(`${prefix} 0`)}`)).text());
    expect(narrowed).toHaveLength(11);
  });

  it("unknown organization and category ids show as 'Unknown Organization' and 'Unknown Category'", async () => {
    const spec = await newSpec(app, `Odd ${uniq()}`);
    const item = await api<LibraryItem>(app, "GET", `/api/library/items/${spec.id}`);
    await api(app, "PATCH", `/api/library/items/${spec.id}`, {
      name: item.name,
      isPublic: false,
      isGeneric: false,
      organizations: ["no-such-org"],
      description: "",
      tags: [],
      categories: ["no-such-category"],
    });
    const page = textOf(await (await admin.get(`/library?id=${spec.id}&cat=no-such-category`)).text());
    expect(page).toContain(LIBRARY.unknownOrganization);
    expect(page).toContain(LIBRARY.unknownCategory);
  });

  it("a failed save shows 'Failed to save entity. Check your input and try again.' and keeps what was typed", async () => {
    const spec = await newSpec(app, `Fail ${uniq()}`);
    const item = await api<LibraryItem>(app, "GET", `/api/library/items/${spec.id}`);
    const { refuse, restore } = refusingUpstream(app);
    refuse("PATCH", /^\/api\/library\/items\//, 500, "boom");
    const res = await admin.post(`/library?id=${spec.id}`, settingsOf(item, { name: "Typed name kept" }));
    restore();
    expect(res.status).toBe(502);
    const html = await res.text();
    expect(textOf(html)).toContain(LIBRARY.saveFailed);
    expect(html).toContain('value="Typed name kept"');
  });

  it("the settings form saves a prompt chain as a new version of it; a model its organizations refuse keeps what was typed", async () => {
    const chains = chainsOf(app);
    const acme = await chains.org(`Acme ${uniq()}`);
    const other = await chains.org(`Other ${uniq()}`);
    const modelId = await chains.model(`gpt-${uniq()}`, [acme]);
    const link = { id: "p", type: "prompt", name: "PROMPT 1", model: modelId, messages: [{ role: "user", content: "Draft." }] };
    const chain = await chains.create({ name: `Chain ${uniq()}`, organizations: [acme], template: { chain: [link] } });
    const item = await api<LibraryItem>(app, "GET", `/api/library/items/${chain.id}`);
    const cat = await category(app, `Prompts ${uniq()}`);
    const url = `/library?id=${chain.id}`;
    const shown = await (await admin.get(url)).text();
    // The form is the same as for the other types: enabled, with its Save button (no "saved on its own screen").
    expect(shown).toContain('name="intent" value="save-item"');
    expect(shown).not.toMatch(/<input[^>]*name="name"[^>]*disabled/);

    const name = `Renamed chain ${uniq()}`;
    const saved = await admin.post(url, settingsOf(item, { name: `  ${name}  `, categories: [cat.id], tags: "EP; claims", isPublic: "on" }));
    expect(saved.status).toBe(302);
    expect(textOf(await (await admin.get(saved.headers.get("Location")!)).text())).toContain(LIBRARY.saved);
    const domain = await api<{ name: string; version: number; tags: string[]; categories: string[]; isPublic: boolean }>(app, "GET", `/api/prompts/${chain.id}`);
    expect(domain).toMatchObject({ name, version: 2, tags: ["EP", "claims"], categories: [cat.id], isPublic: true });
    const history = await api<{ version: number }[]>(app, "GET", `/api/prompts/${chain.id}/history`);
    expect(history.map((v) => v.version)).toEqual([2, 1]);
    expect(textOf(await (await admin.get(`/library?cat=${cat.id}`)).text())).toContain(name);

    // Another organization does not allow the chain's model: the upstream's 400, the form as typed.
    const refused = await admin.post(url, settingsOf({ ...item, organizations: [acme, other] }, { name: "Typed prompt name kept", categories: [cat.id] }));
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(textOf(html)).toContain(LIBRARY.saveFailed);
    expect(html).toContain('value="Typed prompt name kept"');
    expect(html).toMatch(new RegExp(`value="${other}"[^>]*checked|checked[^>]*value="${other}"`));
    expect((await api<{ version: number }[]>(app, "GET", `/api/prompts/${chain.id}/history`)).length).toBe(2);
    expect((await api<{ name: string }>(app, "GET", `/api/prompts/${chain.id}`)).name).toBe(name);
  });

  it("the filter dropdown shows 5 values, then more/less; '+ new item' makes a specification or opens the drawing's or the prompt's screen", async () => {
    const prefix = `f${uniq()}`;
    for (let i = 0; i < 6; i++) await newSpec(app, `Tagged ${prefix} ${i}`, [`${prefix}-${i}`]);
    const count = (html: string) => (html.match(new RegExp(`name="tags" value="${prefix}-`, "g")) ?? []).length;
    const few = await (await admin.get("/library")).text();
    expect(count(few)).toBeLessThanOrEqual(5);
    expect(textOf(few)).toContain(LIBRARY.more);
    const all = await (await admin.get("/library?more=tags")).text();
    expect(count(all)).toBe(6);
    expect(textOf(all)).toContain(LIBRARY.less);

    const made = await admin.post("/library", { intent: "new-item", libraryType: "specification" });
    expect(made.status).toBe(302);
    const id = new URL(made.headers.get("Location")!, "http://x").searchParams.get("id")!;
    const item = await api<LibraryItem>(app, "GET", `/api/library/items/${id}`);
    expect(item).toMatchObject({ name: "new specification", description: "new specification", isPublic: false, isGeneric: false });
    const drawing = await admin.post("/library", { intent: "new-item", libraryType: "drawing" });
    expect(drawing.headers.get("Location")).toBe("/drawings/create");
    // A prompt (a chain) is made on the chains' own create screen, which names it and picks its model.
    const prompt = await admin.post("/library", { intent: "new-item", libraryType: "prompt" });
    expect(prompt.headers.get("Location")).toBe("/chains/create");
  });

  it("a drawing downloads through the token flow", async () => {
    const vsdx = await officePackage("vsdx");
    const body = new FormData();
    body.set("data", "{}");
    body.set("fileTemplate", new Blob([new Uint8Array(vsdx)]), "Figure.vsdx");
    const res = await app.context.upstream("/api/drawings/", {
      method: "POST",
      headers: { Authorization: `Bearer ${await app.adminToken()}` },
      body,
    });
    const drawing = (await res.json()) as { id: string };
    expect(textOf(await (await admin.get(`/library?id=${drawing.id}`)).text())).toContain(LIBRARY.download);
    const file = await admin.get(`/library/drawings/${drawing.id}/download`);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-disposition")).toContain("Figure.vsdx");
    expect(Buffer.from(await file.arrayBuffer()).equals(vsdx)).toBe(true);
  });

  it("without prompts.write: the library shows, with no forms; posts are refused", async () => {
    const spec = await newSpec(app, `Read ${uniq()}`);
    const reader = await browserWith(app, ["specifications.read"]);
    const page = textOf(await (await reader.get(`/library?id=${spec.id}`)).text());
    expect(page).toContain(LIBRARY.title);
    expect(page).not.toContain(LIBRARY.addCategory);
    expect(page).not.toContain(LIBRARY.newItem);
    expect((await reader.post("/library", { intent: "create-category", name: "Nope" })).status).toBe(404);
  });
});
