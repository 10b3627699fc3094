import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import {
  CategoryList,
  DRAWING_TOKEN_SECONDS,
  LIBRARY_MESSAGES,
  LibraryCategory,
  LibraryItem,
  LibraryItemPage,
  LibraryStats,
  LIBRARY_TYPES,
  type LibraryType,
} from "@contract/library";
import { CHAIN_MESSAGES } from "@contract/chains-constants";
import { databaseFile } from "../../upstream/src/db";
import { LibraryStore } from "../../upstream/src/library/store";
import { officePackage } from "../fixtures/office";
import { ADMIN, harness, message, type Harness } from "./helpers";
import { bytesOf, sendMultipart, withPermissions, type Json } from "./templates-helpers";

/** The statistics counted over every item `viewer` may see of `types`, on a second connection to the upstream's database. */
function recount(h: Harness, viewer = ADMIN.email, types: LibraryType[] = [...LIBRARY_TYPES]) {
  const db = new Database(databaseFile(h.dir));
  try {
    return new LibraryStore(db, Date.now, []).recount(viewer, types);
  } finally {
    db.close();
  }
}

const spec = (name: string, tags: string[] = []) => ({ name, type: "abstract", description: `${name} text`, tags, template: "{{title}}" });

async function json<T>(res: Response, schema: { parse(v: unknown): T }): Promise<T> {
  if (res.status >= 300) throw new Error(`${res.status}: ${await res.text()}`);
  return schema.parse(await res.json());
}

async function createSpec(h: Harness, name: string, tags: string[] = [], token = h.adminToken): Promise<string> {
  const res = await h.call("POST", "/api/specifications", { token, body: spec(name, tags) });
  return ((await res.json()) as { id: string }).id;
}

async function createCategory(h: Harness, name: string, parentId: string | null = null): Promise<LibraryCategory> {
  return json(await h.call("POST", "/api/categories/create", { token: h.adminToken, body: { name, parentId } }), LibraryCategory);
}

const settings = (item: LibraryItem, changes: Partial<LibraryItem> = {}) => {
  const { name, isPublic, isGeneric, organizations, description, tags, categories } = { ...item, ...changes };
  return { name, isPublic, isGeneric, organizations, description, tags, categories };
};

describe("library categories (/api/categories)", () => {
  it("creates, nests, reorders, re-parents and deletes; 'other' is not editable", async () => {
    const h = await harness();
    const t = h.adminToken;
    const a = await createCategory(h, "Alpha");
    const b = await createCategory(h, "Beta");
    const c = await createCategory(h, "Gamma", a.id);
    const names = async () => (await json(await h.call("GET", "/api/categories/all?skipOrganizationFiltering=true", { token: t }), CategoryList)).map((x) => `${x.name}:${x.order}`);
    expect(await names()).toEqual(["Alpha:0", "Gamma:0", "Beta:1"]);
    // Beta first.
    await json(await h.call("PUT", `/api/categories/${b.id}`, { token: t, body: { order: 0 } }), LibraryCategory);
    expect(await names()).toEqual(["Beta:0", "Alpha:1", "Gamma:0"]);
    // Gamma under Beta, then under itself (refused).
    const moved = await json(await h.call("PUT", `/api/categories/${c.id}`, { token: t, body: { parentId: b.id } }), LibraryCategory);
    expect(moved.parentId).toBe(b.id);
    const cycle = await h.call("PUT", `/api/categories/${b.id}`, { token: t, body: { parentId: c.id } });
    expect(cycle.status).toBe(400);
    expect(await message(cycle)).toBe(LIBRARY_MESSAGES.cycle);
    expect((await h.call("PUT", "/api/categories/other", { token: t, body: { name: "X" } })).status).toBe(400);
    const empty = await h.call("POST", "/api/categories/create", { token: t, body: { name: "  " } });
    expect(await message(empty)).toBe("name: Name is required");
    // Deleting Beta moves Gamma up to the top level, after Alpha.
    expect((await h.call("DELETE", `/api/categories/${b.id}`, { token: t })).status).toBe(204);
    expect(await names()).toEqual(["Alpha:0", "Gamma:1"]);
    expect((await h.call("DELETE", `/api/categories/${b.id}`, { token: t })).status).toBe(404);
  });

  it("writes need prompts.write; reading any signed-in user", async () => {
    const h = await harness();
    await withPermissions(h, "reader@example.com", ["prompts.read"]);
    const reader = await h.login("reader@example.com", "secret1");
    expect((await h.call("GET", "/api/categories/all", { token: reader })).status).toBe(200);
    expect((await h.call("POST", "/api/categories/create", { token: reader, body: { name: "X" } })).status).toBe(403);
    expect((await h.call("GET", "/api/categories/all")).status).toBe(401);
  });
});

describe("library items (/api/library)", () => {
  it("indexes specifications and drawings as they are written; settings save through the domain", async () => {
    const h = await harness();
    const t = h.adminToken;
    const cat = await createCategory(h, "Claims");
    const specId = await createSpec(h, "Abstract one", ["EP"]);
    const vsdx = await officePackage("vsdx");
    const drawing = (await (await sendMultipart(h, "POST", "/api/drawings/", {}, { fileTemplate: { name: "Fig 1.vsdx", bytes: vsdx } })).json()) as Json;

    const page = await json(await h.call("GET", "/api/library/items?groupBy=category", { token: t }), LibraryItemPage);
    expect(page.items.map((i) => [i.libraryType, i.name, i.group])).toEqual([
      ["specification", "Abstract one", "other"],
      ["drawing", "Fig 1", "other"],
    ].sort((x, y) => x[1]!.localeCompare(y[1]!)));

    const item = await json(await h.call("GET", `/api/library/items/${specId}`, { token: t }), LibraryItem);
    const short = await h.call("PATCH", `/api/library/items/${specId}`, { token: t, body: settings(item, { name: " abc " }) });
    expect(short.status).toBe(400);
    expect(await message(short)).toBe(`name: ${LIBRARY_MESSAGES.nameShort}`);
    const saved = await json(
      await h.call("PATCH", `/api/library/items/${specId}`, {
        token: t,
        body: settings(item, { name: "  Abstract two ", isGeneric: true, organizations: ["org-1"], categories: [cat.id], tags: ["EP", "US"] }),
      }),
      LibraryItem,
    );
    expect(saved).toMatchObject({ name: "Abstract two", isGeneric: true, organizations: ["org-1"], categories: [cat.id], tags: ["EP", "US"] });
    // The specification itself changed (its domain), and the library's fields live with it.
    const domain = (await (await h.call("GET", `/api/specifications/${specId}`, { token: t })).json()) as Json;
    expect(domain).toMatchObject({ name: "Abstract two", tags: ["EP", "US"] });

    const d = await json(await h.call("GET", `/api/library/items/${drawing.id}`, { token: t }), LibraryItem);
    await json(await h.call("PATCH", `/api/library/items/${d.id}`, { token: t, body: settings(d, { isPublic: true, categories: [cat.id] }) }), LibraryItem);

    const filtered = async (q: string) =>
      (await json(await h.call("GET", `/api/library/items?${q}`, { token: t }), LibraryItemPage)).items.map((i) => i.name);
    expect(await filtered(`categories=${cat.id}`)).toEqual(["Abstract two", "Fig 1"]);
    expect(await filtered("type=drawing")).toEqual(["Fig 1"]);
    // Totals count what the pages list (an item once per category), with and without the items' filters.
    const totalOf = async (q: string) => (await json(await h.call("GET", `/api/library/items?${q}`, { token: t }), LibraryItemPage)).total;
    expect([await totalOf(""), await totalOf("type=drawing"), await totalOf(`type=specification&categories=${cat.id}`), await totalOf("groupBy=date")]).toEqual([2, 1, 1, 2]);
    expect(await filtered("tag=US")).toEqual(["Abstract two"]);
    expect(await filtered("organization=org-1")).toEqual(["Abstract two"]);
    expect(await filtered("name=fig")).toEqual(["Fig 1"]);
    expect(await filtered("author=admin@example.com&groupBy=date")).toHaveLength(2);
    expect(await filtered("author=nobody@example.com")).toEqual([]);

    // Deleting the category leaves both items uncategorised ('other').
    expect((await h.call("DELETE", `/api/categories/${cat.id}`, { token: t })).status).toBe(204);
    const after = await json(await h.call("GET", "/api/library/items", { token: t }), LibraryItemPage);
    expect(after.items.map((i) => [i.group, i.categories])).toEqual([
      ["other", []],
      ["other", []],
    ]);
    // Deleting the record drops it from the index.
    await h.call("DELETE", `/api/specifications/${specId}`, { token: t });
    expect((await h.call("GET", `/api/library/items/${specId}`, { token: t })).status).toBe(404);
  });

  it("a reader sees only the types their permissions read; settings need prompts.write and the domain's write", async () => {
    const h = await harness();
    const specId = ((await (await h.call("POST", "/api/specifications", { token: h.adminToken, body: { ...spec("Spec item"), isPublic: true } })).json()) as { id: string }).id;
    // A private item is its creator's alone: not listed, read or saved by others.
    const mine = await createSpec(h, "Admin's private");
    const vsdx = await officePackage("vsdx");
    await sendMultipart(h, "POST", "/api/drawings/", {}, { fileTemplate: { name: "Fig.vsdx", bytes: vsdx } });
    await withPermissions(h, "s@example.com", ["specifications.read", "prompts"]);
    await withPermissions(h, "w@example.com", ["specifications", "prompts"]);
    const reader = await h.login("s@example.com", "secret1");
    const writer = await h.login("w@example.com", "secret1");
    const page = await json(await h.call("GET", "/api/library/items", { token: reader }), LibraryItemPage);
    expect(page.items.map((i) => i.libraryType)).toEqual(["specification"]);
    const item = await json(await h.call("GET", `/api/library/items/${specId}`, { token: reader }), LibraryItem);
    expect((await h.call("PATCH", `/api/library/items/${specId}`, { token: reader, body: settings(item) })).status).toBe(403);
    expect((await h.call("PATCH", `/api/library/items/${specId}`, { token: writer, body: settings(item, { name: "Renamed" }) })).status).toBe(200);
    expect((await h.call("GET", `/api/library/items/${mine}`, { token: writer })).status).toBe(404);
    expect((await h.call("PATCH", `/api/library/items/${mine}`, { token: writer, body: settings(item) })).status).toBe(404);
    expect((await h.call("GET", `/api/library/items/${mine}`, { token: h.adminToken })).status).toBe(200);
  });

  it("'+ new item' makes a specification with the defaults; a drawing needs its own screen", async () => {
    const h = await harness();
    const made = await json(await h.call("POST", "/api/library/items", { token: h.adminToken, body: { libraryType: "specification" } }), LibraryItem);
    expect(made).toMatchObject({ name: "new specification", description: "new specification", isPublic: false, isGeneric: false });
    expect((await h.call("POST", "/api/library/items", { token: h.adminToken, body: { libraryType: "drawing" } })).status).toBe(400);
  });
});

describe("prompt chains in the library", () => {
  it("are indexed as they are written and lose a deleted category", async () => {
    const h = await harness();
    const t = h.adminToken;
    const cat = await createCategory(h, "Prompts");
    const res = await h.call("POST", "/api/prompts", { token: t, body: { name: "Claim drafter", tags: ["EP"], categories: [cat.id] } });
    expect(res.status, await res.clone().text()).toBe(201);
    const chain = (await res.json()) as { id: string };
    const item = await json(await h.call("GET", `/api/library/items/${chain.id}`, { token: t }), LibraryItem);
    expect(item).toMatchObject({ libraryType: "prompt", name: "Claim drafter", tags: ["EP"], categories: [cat.id] });
    const page = await json(await h.call("GET", `/api/library/items?type=prompt&categories=${cat.id}`, { token: t }), LibraryItemPage);
    expect(page.items.map((i) => i.name)).toEqual(["Claim drafter"]);
    expect((await h.call("DELETE", `/api/categories/${cat.id}`, { token: t })).status).toBe(204);
    const domain = (await (await h.call("GET", `/api/prompts/${chain.id}`, { token: t })).json()) as Json;
    expect(domain.categories).toEqual([]);
    expect((await json(await h.call("GET", `/api/library/items/${chain.id}`, { token: t }), LibraryItem)).categories).toEqual([]);
    expect(recount(h)).toEqual(await json(await h.call("GET", "/api/library/stats", { token: t }), LibraryStats));
  });
});

describe("a prompt chain's settings saved from the library", () => {
  const org = async (h: Harness, name: string) =>
    ((await (await h.call("POST", "/api/organizations", { token: h.adminToken, body: { name } })).json()) as { id: string }).id;

  it("are a new version of the chain under its rules: indexed and counted; a model the organizations refuse is 400 with nothing changed", async () => {
    const h = await harness();
    const t = h.adminToken;
    const acme = await org(h, "Acme");
    const other = await org(h, "Other");
    const config = JSON.stringify({ baseURL: "http://127.0.0.1:9/v1", apiKey: "k", model: "gpt-acme" });
    const modelRes = await h.call("POST", "/api/v2/nlp/configurations", {
      token: t,
      body: { name: "gpt-acme", provider: "openai-compatible", capability: "chat", organizations: [acme], config },
    });
    expect(modelRes.status, await modelRes.clone().text()).toBe(201);
    const modelId = ((await modelRes.json()) as { id: string }).id;
    const cat = await createCategory(h, "Drafting");
    const link = { id: "p", type: "prompt", name: "PROMPT 1", model: modelId, messages: [{ role: "user", content: "Draft." }] };
    const created = await h.call("POST", "/api/prompts", { token: t, body: { name: "Claim drafter", organizations: [acme], template: { chain: [link] } } });
    expect(created.status, await created.clone().text()).toBe(201);
    const chain = (await created.json()) as Json & { id: string; template: Json };
    // A draft exists: the settings go into it too, as PATCH /api/prompts/{id} does.
    const draftBody = { data: { ...chain, name: "Claim drafter (draft)" }, baseVersion: 0 };
    expect((await h.call("PATCH", `/api/prompts/${chain.id}/draft`, { token: t, body: draftBody })).status).toBe(200);
    const item = await json(await h.call("GET", `/api/library/items/${chain.id}`, { token: t }), LibraryItem);

    const changes = { name: "  Claims drafter  ", isPublic: true, isGeneric: true, description: "Drafts claims", tags: ["EP", "claims"], categories: [cat.id] };
    const saved = await json(await h.call("PATCH", `/api/library/items/${chain.id}`, { token: t, body: settings(item, changes) }), LibraryItem);
    expect(saved).toMatchObject({ libraryType: "prompt", name: "Claims drafter", isPublic: true, isGeneric: true, tags: ["EP", "claims"], categories: [cat.id] });
    const history = (await (await h.call("GET", `/api/prompts/${chain.id}/history`, { token: t })).json()) as { version: number; isActive: boolean; author: string }[];
    expect(history.map((v) => [v.version, v.isActive])).toEqual([
      [2, true],
      [1, false],
    ]);
    expect(history[0]!.author).toBe(ADMIN.email);
    const domain = (await (await h.call("GET", `/api/prompts/${chain.id}`, { token: t })).json()) as Json;
    expect(domain).toMatchObject({ name: "Claims drafter", version: 2, categories: [cat.id], tags: ["EP", "claims"], description: "Drafts claims", template: chain.template });
    const draft = (await (await h.call("GET", `/api/prompts/${chain.id}/draft`, { token: t })).json()) as { data: Json };
    expect(draft.data).toMatchObject({ name: "Claims drafter", isGeneric: true, categories: [cat.id] });
    const inCategory = await json(await h.call("GET", `/api/library/items?type=prompt&categories=${cat.id}`, { token: t }), LibraryItemPage);
    expect(inCategory.items.map((i) => i.id)).toEqual([chain.id]);
    const stats = await json(await h.call("GET", "/api/library/stats", { token: t }), LibraryStats);
    expect(stats.counts.category[cat.id]).toBe(1);
    expect(stats.counts.tag).toMatchObject({ EP: 1, claims: 1 });
    expect(stats.counts.category.other ?? 0).toBe(0);
    expect(recount(h)).toEqual(stats);

    // Another organization does not allow the chain's model: the chains' refusal, and nothing stored anywhere.
    const refused = await h.call("PATCH", `/api/library/items/${chain.id}`, {
      token: t,
      body: settings(saved, { name: "Renamed again", organizations: [acme, other], tags: ["US"], categories: [] }),
    });
    expect(refused.status).toBe(400);
    const refusal = (await refused.json()) as { message: string; problems: { link: number | null; field: string; message: string }[] };
    expect(refusal.message).toContain(CHAIN_MESSAGES.invalid);
    expect(refusal.problems).toEqual([{ link: 0, field: "model", message: CHAIN_MESSAGES.modelNotAllowed }]);
    expect(await json(await h.call("GET", `/api/library/items/${chain.id}`, { token: t }), LibraryItem)).toEqual(saved);
    expect(((await (await h.call("GET", `/api/prompts/${chain.id}/history`, { token: t })).json()) as unknown[]).length).toBe(2);
    expect((await (await h.call("GET", `/api/prompts/${chain.id}/draft`, { token: t })).json()) as { data: Json }).toEqual(draft);
    expect(await json(await h.call("GET", "/api/library/stats", { token: t }), LibraryStats)).toEqual(stats);

    // prompts.read reads the item but may not save it.
    await withPermissions(h, "r@example.com", ["prompts.read"]);
    const reader = await h.login("r@example.com", "secret1");
    expect((await h.call("GET", `/api/library/items/${chain.id}`, { token: reader })).status).toBe(200);
    const forbidden = await h.call("PATCH", `/api/library/items/${chain.id}`, { token: reader, body: settings(saved, { name: "By a reader" }) });
    expect(forbidden.status).toBe(403);
    expect(((await (await h.call("GET", `/api/prompts/${chain.id}/history`, { token: t })).json()) as unknown[]).length).toBe(2);
    expect((await json(await h.call("GET", `/api/library/items/${chain.id}`, { token: t }), LibraryItem)).name).toBe("Claims drafter");
  });
});

describe("drawing token flow", () => {
  it("a short-lived token opens one drawing's content and nothing else", async () => {
    const h = await harness();
    const vsdx = await officePackage("vsdx");
    const a = (await (await sendMultipart(h, "POST", "/api/drawings/", {}, { fileTemplate: { name: "A.vsdx", bytes: vsdx } })).json()) as Json;
    const b = (await (await sendMultipart(h, "POST", "/api/drawings/", {}, { fileTemplate: { name: "B.vsdx", bytes: vsdx } })).json()) as Json;
    expect((await h.call("GET", `/api/drawings/${a.id}/token`)).status).toBe(401);
    const { token } = (await (await h.call("GET", `/api/drawings/${a.id}/token`, { token: h.adminToken })).json()) as { token: string };
    const content = await h.call("GET", `/api/drawings/${a.id}/content?authToken=${encodeURIComponent(token)}`);
    expect(content.status).toBe(200);
    expect(content.headers.get("content-disposition")).toContain("A.vsdx");
    expect((await bytesOf(content)).equals(vsdx)).toBe(true);
    // Not for another drawing, not the session token, not tampered with, not after expiry.
    expect((await h.call("GET", `/api/drawings/${b.id}/content?authToken=${encodeURIComponent(token)}`)).status).toBe(401);
    expect((await h.call("GET", `/api/drawings/${a.id}/content?authToken=${h.adminToken}`)).status).toBe(401);
    expect((await h.call("GET", `/api/drawings/${a.id}/content?authToken=${token}x`)).status).toBe(401);
    h.clock.advance(DRAWING_TOKEN_SECONDS * 1000 + 1);
    const expired = await h.call("GET", `/api/drawings/${a.id}/content?authToken=${encodeURIComponent(token)}`);
    expect(expired.status).toBe(401);
    expect(await message(expired)).toBe(LIBRARY_MESSAGES.tokenInvalid);
    await withPermissions(h, "none@example.com", []);
    const none = await h.login("none@example.com", "secret1");
    expect((await h.call("GET", `/api/drawings/${a.id}/token`, { token: none })).status).toBe(403);
  });
});

describe("library statistics", () => {
  it("equal a recount, for each reader, after 1,000 random creates, edits, re-categorisations and deletes", async () => {
    // The clock runs over years: the tokens must outlive it.
    const h = await harness({ tokenTtlSeconds: 10 * 365 * 86_400 });
    await withPermissions(h, "w@example.com", ["specifications", "prompts"]);
    await withPermissions(h, "r@example.com", ["specifications.read"]);
    const writers = [h.adminToken, await h.login("w@example.com", "secret1")];
    const reader = await h.login("r@example.com", "secret1");
    let seed = 41;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
    const cats = [await createCategory(h, "One"), await createCategory(h, "Two"), await createCategory(h, "Three")].map((c) => c.id);
    const tags = ["EP", "US", "WO", "JP"];
    const orgs = ["o1", "o2", "o3"];
    // Each item with its creator's token: a private item is its creator's alone to read and edit.
    const live: { id: string; token: string }[] = [];
    for (let step = 0; step < 1_000; step++) {
      h.clock.advance(Math.floor(random() * 3 * 86_400_000)); // about four years in all
      const roll = random();
      if (live.length === 0 || roll < 0.35) {
        const token = pick(writers);
        live.push({ id: await createSpec(h, `Spec ${step}`, [pick(tags)], token), token });
      } else if (roll < 0.75) {
        const { id, token } = pick(live);
        const item = await json(await h.call("GET", `/api/library/items/${id}`, { token }), LibraryItem);
        const body = settings(item, {
          name: `Item ${step}`,
          isPublic: random() < 0.6,
          tags: tags.filter(() => random() < 0.4),
          organizations: orgs.filter(() => random() < 0.4),
          categories: cats.filter(() => random() < 0.4),
        });
        expect((await h.call("PATCH", `/api/library/items/${id}`, { token, body })).status).toBe(200);
      } else if (roll < 0.9) {
        const { id, token } = pick(live);
        expect((await h.call("PATCH", `/api/specifications/${id}`, { token, body: { tags: [pick(tags), pick(tags)] } })).status).toBe(200);
      } else {
        const { id, token } = live.splice(Math.floor(random() * live.length), 1)[0]!;
        expect((await h.call("DELETE", `/api/specifications/${id}`, { token })).status).toBe(204);
      }
    }
    const readers: [string, string, LibraryType[]][] = [
      [h.adminToken, ADMIN.email, [...LIBRARY_TYPES]],
      [writers[1]!, "w@example.com", ["prompt", "specification"]],
      [reader, "r@example.com", ["specification"]],
    ];
    const totals: number[] = [];
    for (const [token, email, types] of readers) {
      const stats = await json(await h.call("GET", "/api/library/stats", { token }), LibraryStats);
      expect(stats).toEqual(recount(h, email, types));
      // The list counts the same items, by date and by category (one row per item and category).
      const byDate = await json(await h.call("GET", "/api/library/items?groupBy=date", { token }), LibraryItemPage);
      expect(byDate.total).toBe(stats.total);
      const byCategory = await json(await h.call("GET", "/api/library/items", { token }), LibraryItemPage);
      expect(byCategory.total).toBe(Object.values(stats.counts.category).reduce((a, b) => a + b, 0));
      totals.push(stats.total);
    }
    // Each sees the public items and their own private ones: the admin and w more than r, and all items between them.
    expect(totals[0]! + totals[1]! - totals[2]!).toBe(live.length);
    expect(totals[2]).toBeLessThan(Math.min(totals[0]!, totals[1]!));
    expect(Object.keys(recount(h).counts.year).length).toBeGreaterThan(1);
  }, 180_000);
});

describe("library statistics by month in the reader's time zone", () => {
  it("count an item changed near a month's end in the month and year of the reader's zone (X-Timezone)", async () => {
    const h = await harness({ tokenTtlSeconds: 10 * 365 * 86_400 });
    const at = async (iso: string, name: string) => {
      h.clock.t = Date.parse(iso);
      const res = await h.call("POST", "/api/specifications", { token: h.adminToken, body: { ...spec(name), isPublic: true } });
      expect(res.status).toBe(201);
    };
    await at("2025-12-31T23:30:00.000Z", "New Year's Eve in London, already 2026 in Tokyo"); // Tokyo: Jan 1, 08:30
    await at("2026-03-01T03:00:00.000Z", "March in UTC, still February in New York"); // New York: Feb 28, 22:00
    await at("2026-03-15T12:00:00.000Z", "Mid-March everywhere");
    const stats = async (zone?: string) =>
      (await json(await h.call("GET", "/api/library/stats", { token: h.adminToken, headers: zone ? { "x-timezone": zone } : {} }), LibraryStats)).counts;
    expect(await stats()).toMatchObject({ month: { "2025-12": 1, "2026-03": 2 }, year: { "2025": 1, "2026": 2 } });
    const tokyo = await stats("Asia/Tokyo");
    expect(tokyo.month).toEqual({ "2026-01": 1, "2026-03": 2 });
    expect(tokyo.year).toEqual({ "2026": 3 });
    const newYork = await stats("America/New_York");
    expect(newYork.month).toEqual({ "2025-12": 1, "2026-02": 1, "2026-03": 1 });
    expect(newYork.year).toEqual({ "2025": 1, "2026": 2 });
    // A zone the runtime does not know is UTC.
    expect((await stats("Nowhere/Else")).month).toEqual({ "2025-12": 1, "2026-03": 2 });
  });
});
