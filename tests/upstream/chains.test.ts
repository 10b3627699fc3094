import { describe, expect, test } from "vitest";
import { Chain, ChainDraft, ChainInvalid, History, HistoryVersion, ValidateAnswer, type ChainLinkInput } from "@contract/chains";
import { CHAIN_QUERY_MESSAGES, DEFAULT_QUERY_SQL } from "@contract/chain-query";
import { CHAIN_MESSAGES, outputVariable } from "@contract/chains-constants";
import { ModelConfiguration } from "@contract/ai-admin";
import { Organization } from "@contract/organizations";
import { listChainsForLibrary } from "../../upstream/src/chains";
import { openDatabase } from "../../upstream/src/db";
import { harness, message, type Harness } from "./helpers";

async function json<T>(res: Response, status = 200): Promise<T> {
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

const org = async (h: Harness, name: string) =>
  Organization.parse(await json(await h.call("POST", "/api/organizations", { token: h.adminToken, body: { name } }), 201));

const model = async (h: Harness, name: string, organizations: string[]) =>
  ModelConfiguration.parse(
    await json(
      await h.call("POST", "/api/v2/nlp/configurations", {
        token: h.adminToken,
        body: { name, provider: "openai-compatible", capability: "chat-with-vision", organizations, config: JSON.stringify({ baseURL: "http://127.0.0.1:9/v1", apiKey: "k", model: name }) },
      }),
      201,
    ),
  );

/** One link of every type, each reading only what an earlier link defines. */
const everyLink = (modelId: string | null): ChainLinkInput[] => [
  { id: "l1", type: "form", name: "FORM 1", variables: [{ name: "topic", type: "string", label: "Topic" }] },
  {
    id: "l2",
    type: "prompt",
    name: "PROMPT 1",
    model: modelId,
    messages: [
      { role: "system", content: "You are a patent attorney." },
      { role: "user", content: "Write about {{topic}}." },
    ],
  },
  { id: "l3", type: "query", name: "QUERY 1", query: DEFAULT_QUERY_SQL },
  { id: "l4", type: "template", name: "TEMPLATE 1", template: "{{PROMPT_1_OUTPUT}} {{#each QUERY_1_OUTPUT}}{{this}}{{/each}}", renderOnly: true },
  { id: "l5", type: "content", name: "CONTENT 1", source: { type: "mermaid", value: "graph TD; A-->B; %% {{TEMPLATE_1_OUTPUT}}" } },
];

const create = (h: Harness, body: Record<string, unknown>, token = h.adminToken) => h.call("POST", "/api/prompts", { token, body });

describe("chains: store and API", () => {
  test("a chain with a link of every type and a chat is created as version 1, read back, listed in its history", async () => {
    const h = await harness();
    const acme = await org(h, "Acme");
    const m = await model(h, "gpt-a", [acme.id]);
    const chain = Chain.parse(
      await json(
        await create(h, {
          name: "  Claims drafter  ",
          organizations: [acme.id],
          tags: ["claims", "Claims", "draft"],
          description: "Drafts claims",
          template: { chain: everyLink(m.id), options: { insertIn: "Claims", insertAt: "End" }, chat: { type: "chat", model: m.id, messages: [{ role: "user", content: "{{PROMPT_1_OUTPUT}}" }] } },
        }),
        201,
      ),
    );
    expect(chain).toMatchObject({ name: "Claims drafter", version: 1, isActive: true, hasDraft: false, tags: ["claims", "draft"], createdBy: "admin@example.com" });
    expect(chain.template.chain.map((l) => l.type)).toEqual(["form", "prompt", "query", "template", "content"]);
    expect(chain.template.chat).toMatchObject({ name: "CHAT", temperature: 0.7, includeHistory: true, max_tokens: null });
    const prompt = chain.template.chain[1]!;
    expect(prompt.type === "prompt" && prompt.temperature).toBe(0.7);
    expect(Chain.parse(await json(await h.call("GET", `/api/prompts/${chain.id}`, { token: h.adminToken })))).toEqual(chain);
    const history = History.parse(await json(await h.call("GET", `/api/prompts/${chain.id}/history`, { token: h.adminToken })));
    expect(history).toEqual([expect.objectContaining({ version: 1, isActive: true, libraryItemId: chain.id, author: "admin@example.com" })]);
  });

  test("a save is refused with every problem named by its link and field: model, variables, Handlebars, SQL", async () => {
    const h = await harness();
    const acme = await org(h, "Acme");
    const other = await org(h, "Other");
    const onlyAcme = await model(h, "gpt-acme", [acme.id]);
    const links: ChainLinkInput[] = [
      { id: "a", type: "template", name: "TEMPLATE 1", template: "{{PROMPT_2_OUTPUT}}" },
      { id: "b", type: "prompt", name: "PROMPT 1", model: onlyAcme.id, messages: [{ role: "user", content: "{{#if x}}open" }] },
      { id: "c", type: "prompt", name: "PROMPT 2", model: null, messages: [{ role: "user", content: "{{NOWHERE_OUTPUT}}" }] },
      { id: "d", type: "query", name: "QUERY 1", query: "DELETE FROM paragraphs" },
      { id: "e", type: "query", name: "QUERY 2", query: "SELECT 1; SELECT 2" },
      { id: "f", type: "query", name: "QUERY 3", query: "SELECT ':QUERY_4_OUTPUT' -- :NOPE_OUTPUT\n, :QUERY_4_OUTPUT" },
      { id: "g", type: "query", name: "QUERY 4", query: "SELECT :QUERY_3_OUTPUT" },
    ];
    const res = await create(h, { name: "Broken chain", organizations: [acme.id, other.id], template: { chain: links } });
    expect(res.status).toBe(400);
    const body = ChainInvalid.parse(await res.json());
    expect(body.message).toContain(CHAIN_MESSAGES.invalid);
    expect(body.problems).toEqual([
      { link: 0, field: "template", message: CHAIN_MESSAGES.usedBeforeDefined("PROMPT_2_OUTPUT", 3) },
      { link: 1, field: "model", message: CHAIN_MESSAGES.modelNotAllowed },
      { link: 1, field: "messages[0].content", message: expect.stringMatching(/^Line 1, column \d+: /) },
      { link: 2, field: "messages[0].content", message: CHAIN_MESSAGES.undefinedLink("NOWHERE_OUTPUT") },
      { link: 3, field: "query", message: CHAIN_QUERY_MESSAGES.forbidden("DELETE") },
      { link: 4, field: "query", message: CHAIN_QUERY_MESSAGES.oneStatement },
      { link: 5, field: "query", message: CHAIN_MESSAGES.usedBeforeDefined("QUERY_4_OUTPUT", 7) },
    ]);
    // Without organizations no model is allowed (spec 3 §5); the chat's own text.
    const lone = await create(h, {
      name: "Lone chain",
      template: { chain: [{ id: "p", type: "prompt", name: "PROMPT 1", model: onlyAcme.id, messages: [] }], chat: { type: "chat", model: onlyAcme.id, messages: [] } },
    });
    expect(ChainInvalid.parse(await json(lone, 400)).problems).toEqual([
      { link: 0, field: "model", message: CHAIN_MESSAGES.modelNotAllowed },
      { link: null, chat: true, field: "model", message: CHAIN_MESSAGES.chatModelNotAllowed },
    ]);
    // The name rules of spec 3 §5, and nothing stored by any refusal.
    expect(await message(await create(h, { name: "   " }))).toBe(`name: ${CHAIN_MESSAGES.nameRequired}`);
    expect(await message(await create(h, { name: " abc " }))).toBe(`name: ${CHAIN_MESSAGES.nameShort}`);
    expect((await json<{ total: number }>(await h.call("GET", "/api/prompts", { token: h.adminToken }))).total).toBe(0);
  });

  test("an update is a new version with its comment; a stale one is 409; the draft takes the settings too", async () => {
    const h = await harness();
    const chain = Chain.parse(await json(await create(h, { name: "Versioned", template: { chain: everyLink(null) } }), 201));
    const draft = ChainDraft.parse(
      await json(await h.call("PATCH", `/api/prompts/${chain.id}/draft`, { token: h.adminToken, body: { data: { ...chain, template: { ...chain.template, chain: chain.template.chain.slice(0, 2) } }, baseVersion: 0 } })),
    );
    expect(draft).toMatchObject({ version: 1, baseVersion: 1 });
    const updated = Chain.parse(
      await json(await h.call("PATCH", `/api/prompts/${chain.id}`, { token: h.adminToken, body: { name: "Versioned chain", tags: ["x"], comment: "Renamed", baseVersion: 1 } })),
    );
    expect(updated).toMatchObject({ name: "Versioned chain", version: 2, comment: "Renamed", hasDraft: true });
    expect(updated.template.chain).toHaveLength(5);
    const after = ChainDraft.parse(await json(await h.call("GET", `/api/prompts/${chain.id}/draft`, { token: h.adminToken })));
    expect(after.data).toMatchObject({ name: "Versioned chain", tags: ["x"] });
    expect(after.data.template.chain).toHaveLength(2);
    const stale = await h.call("PATCH", `/api/prompts/${chain.id}`, { token: h.adminToken, body: { name: "Other name", baseVersion: 1 } });
    expect(stale.status).toBe(409);
    expect(Chain.parse(await json(await h.call("GET", `/api/prompts/${chain.id}`, { token: h.adminToken }))).name).toBe("Versioned chain");

    // The draft activated with a comment, then version 1 made active again.
    const activated = Chain.parse(await json(await h.call("POST", `/api/prompts/${chain.id}/draft/activate`, { token: h.adminToken, body: { comment: "Shorter" } })));
    expect(activated).toMatchObject({ version: 3, comment: "Shorter", hasDraft: false });
    expect(activated.template.chain).toHaveLength(2);
    const again = Chain.parse(await json(await h.call("POST", `/api/prompts/${chain.id}/history/activate`, { token: h.adminToken, body: { version: 1 } })));
    expect(again).toMatchObject({ version: 4, name: "Versioned", comment: "Activated revision 1" });
    expect((await h.call("POST", `/api/prompts/${chain.id}/history/activate`, { token: h.adminToken, body: { version: 4 } })).status).toBe(409);
    const history = History.parse(await json(await h.call("GET", `/api/prompts/${chain.id}/history`, { token: h.adminToken })));
    expect(history.map((e) => [e.version, e.comment, e.isActive])).toEqual([
      [4, "Activated revision 1", true],
      [3, "Shorter", false],
      [2, "Renamed", false],
      [1, "", false],
    ]);
    const v2 = HistoryVersion.parse(await json(await h.call("GET", `/api/prompts/${chain.id}/history/2`, { token: h.adminToken })));
    expect(v2.data.name).toBe("Versioned chain");
    // Deleting the chain forgets its versions.
    expect((await h.call("DELETE", `/api/prompts/${chain.id}`, { token: h.adminToken })).status).toBe(204);
    expect((await h.call("GET", `/api/prompts/${chain.id}/history`, { token: h.adminToken })).status).toBe(404);
  });

  test("the list filters by tags (any) and organizations (any), sorts and pages in SQL; the library reads it", async () => {
    const h = await harness();
    const acme = await org(h, "Acme");
    const beta = await org(h, "Beta");
    await create(h, { name: "Alpha chain", tags: ["claims"], organizations: [acme.id] });
    h.clock.advance(1_000);
    await create(h, { name: "Bravo chain", tags: ["abstract", "summary"], organizations: [beta.id] });
    h.clock.advance(1_000);
    await create(h, { name: "Charlie chain", tags: [], organizations: [acme.id, beta.id], isGeneric: true });
    const names = async (query: string) =>
      (await json<{ items: { name: string }[]; total: number }>(await h.call("GET", `/api/prompts?${query}`, { token: h.adminToken }))).items.map((c) => c.name);
    expect(await names("")).toEqual(["Alpha chain", "Bravo chain", "Charlie chain"]);
    expect(await names("tags=claims,summary")).toEqual(["Alpha chain", "Bravo chain"]);
    expect(await names(`organizations=${beta.id}`)).toEqual(["Bravo chain", "Charlie chain"]);
    expect(await names(`organizations=${acme.id}&tags=claims`)).toEqual(["Alpha chain"]);
    expect(await names("q=bravo")).toEqual(["Bravo chain"]);
    expect(await names("sort=newest&pageSize=2&page=1")).toEqual(["Charlie chain", "Bravo chain"]);
    expect(await json(await h.call("GET", "/api/prompts/tags", { token: h.adminToken }))).toEqual(["abstract", "claims", "summary"]);
    expect((await h.call("GET", `/api/prompts?tags=${"x,".repeat(60)}`, { token: h.adminToken })).status).toBe(400);

    const db = openDatabase(h.dir);
    try {
      const items = listChainsForLibrary(db);
      expect(items.map((i) => i.name)).toEqual(["Alpha chain", "Bravo chain", "Charlie chain"]);
      expect(items[2]).toMatchObject({ isGeneric: true, isPublic: false, organizations: [acme.id, beta.id], categories: [], author: "admin@example.com" });
      // The list's plans use the indexes.
      const plan = (db.prepare("explain query plan select * from chains order by lower(name), id limit 25").all() as { detail: string }[]).map((r) => r.detail).join(" ");
      expect(plan).toContain("chains_lower_name");
    } finally {
      db.close();
    }
  });

  test("prompts.read reads everything and gets 403 from every write", async () => {
    const h = await harness();
    const chain = Chain.parse(await json(await create(h, { name: "Read only", template: { chain: everyLink(null) } }), 201));
    const r = await h.createUser({ email: "reader@example.com" });
    await json(await h.call("PATCH", `/api/auth/users/${r.id}`, { token: h.adminToken, body: { id: r.id, permissions: ["prompts.read"] } }));
    const reader = await h.login("reader@example.com", "secret1");
    await h.createUser({ email: "none@example.com" });
    const nobody = await h.login("none@example.com", "secret1");
    for (const path of ["/api/prompts", `/api/prompts/${chain.id}`, `/api/prompts/${chain.id}/history`, `/api/prompts/${chain.id}/history/1`, "/api/v2/nlp/chat/template/unset", "/api/v2/nlp/chains/variables/selectors"]) {
      expect((await h.call("GET", path, { token: reader })).status, path).toBe(200);
      expect((await h.call("GET", path, { token: nobody })).status, path).toBe(403);
    }
    const writes: [string, string, unknown][] = [
      ["POST", "/api/prompts", { name: "New chain" }],
      ["PATCH", `/api/prompts/${chain.id}`, { name: "Changed" }],
      ["DELETE", `/api/prompts/${chain.id}`, undefined],
      ["PATCH", `/api/prompts/${chain.id}/draft`, { data: chain }],
      ["DELETE", `/api/prompts/${chain.id}/draft`, undefined],
      ["POST", `/api/prompts/${chain.id}/draft/activate`, { comment: "x" }],
      ["POST", `/api/prompts/${chain.id}/history/activate`, { version: 1 }],
      ["PATCH", `/api/prompts/${chain.id}/history/1`, { comment: "x" }],
      ["DELETE", `/api/prompts/${chain.id}/history/1`, undefined],
    ];
    for (const [method, path, body] of writes) {
      expect((await h.call(method, path, { token: reader, body })).status, `${method} ${path}`).toBe(403);
    }
    expect(Chain.parse(await json(await h.call("GET", `/api/prompts/${chain.id}`, { token: reader }))).name).toBe("Read only");
  });

  test("template validate answers each problem as a message; chat template and selectors", async () => {
    const h = await harness();
    const check = async (template: unknown) =>
      ValidateAnswer.parse(await json(await h.call("POST", "/api/prompts/template/validate", { token: h.adminToken, body: { template } }))).messages;
    expect(await check({ chain: everyLink(null) })).toEqual([]);
    expect(await check({ chain: [{ id: "x", type: "query", name: "QUERY 1", query: "drop table x" }] })).toEqual([`Link 1 (QUERY 1), query: ${CHAIN_QUERY_MESSAGES.forbidden("DROP")}`]);
    expect((await check({ chain: [{ id: "x", type: "nope" }] }))[0]).toMatch(/^chain\.0\.type: /);
    expect(await check({ chain: [{ id: "x", type: "prompt", name: "PROMPT 1", model: "missing", messages: [] }] })).toEqual([`Link 1 (PROMPT 1), model: ${CHAIN_MESSAGES.unknownModel}`]);
    const chat = await json<{ type: string; includeHistory: boolean }>(await h.call("GET", "/api/v2/nlp/chat/template/unset", { token: h.adminToken }));
    expect(chat).toMatchObject({ type: "chat", name: "CHAT", includeHistory: true, temperature: 0.7 });
    expect(await json(await h.call("GET", "/api/v2/nlp/chains/variables/selectors", { token: h.adminToken }))).toEqual({ docCodes: ["", "IDF", "TRANSCRIPT"], selectors: ["all", "newest", "oldest"], defaults: ["", "invention", "document", "output", "properties", "variable"] });
    expect(outputVariable("PROMPT 1")).toBe("PROMPT_1_OUTPUT");
  });

  test("a chain of 50 links opens in well under 300 ms", async () => {
    const h = await harness();
    const links: ChainLinkInput[] = Array.from({ length: 50 }, (_, i) => ({
      id: `p${i}`,
      type: "prompt",
      name: `PROMPT ${i + 1}`,
      model: null,
      messages: [
        { role: "system", content: "You are an experienced patent attorney. ".repeat(20) },
        { role: "user", content: i ? `Improve {{PROMPT_${i}_OUTPUT}}. ${"Context. ".repeat(100)}` : "Start." },
      ],
    }));
    const saveStart = performance.now();
    const chain = Chain.parse(await json(await create(h, { name: "Fifty links", template: { chain: links } }), 201));
    const saveMs = performance.now() - saveStart;
    const start = performance.now();
    const read = await h.call("GET", `/api/prompts/${chain.id}`, { token: h.adminToken });
    await read.json();
    const ms = performance.now() - start;
    console.log(`chains: 50 links saved (checked) in ${saveMs.toFixed(1)} ms, read in ${ms.toFixed(1)} ms`);
    expect(ms).toBeLessThan(300);
    expect(saveMs).toBeLessThan(1_000);
  });
});
