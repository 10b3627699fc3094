import { describe, expect, test } from "vitest";
import { CHAIN_CONTEXT_MESSAGES, ChainContext, EMPTY_CHAIN_CONTEXT, claimSelection } from "@contract/chain-context";
import { CHAIN_MESSAGES } from "@contract/chains-constants";
import { InventionSearchAnswer } from "@contract/inventions";
import { openDatabase } from "../../upstream/src/db";
import { titleQuery } from "../../upstream/src/inventions/search";
import { harness, message, type Harness } from "./helpers";

/** A user holding only `permissions`, signed in. */
async function userWith(h: Harness, email: string, permissions: string[]) {
  const user = await h.createUser({ email });
  const set = await h.call("PATCH", `/api/auth/users/${user.id}`, { token: h.adminToken, body: { id: user.id, permissions } });
  expect(set.status).toBe(200);
  return h.login(email, "secret1");
}

/** Applications straight into the product's database (a second connection), as an import would add them. */
function addApplications(h: Harness, apps: Record<string, string>) {
  const db = openDatabase(h.dir);
  const at = new Date().toISOString();
  const insert = db.prepare(
    `insert into applications (id, portfolio_id, portfolio_token, title, abstract, claims, specification, created_at, updated_at)
     values (?, 'p1', 'p1', ?, '', '', '', ?, ?)`,
  );
  for (const [id, title] of Object.entries(apps)) insert.run(id, title, at, at);
  db.close();
}

const search = async (h: Harness, qs: string, token = h.adminToken, extra = "") => {
  const res = await h.call("GET", `/api/inventions/search?qs=${encodeURIComponent(qs)}${extra}`, { token });
  return { status: res.status, body: res.status === 200 ? InventionSearchAnswer.parse(await res.json()) : await message(res) };
};

describe("GET /api/inventions/search", () => {
  test("finds applications by the words of their title (prefixes, all of them) or by id; references are the id", async () => {
    const h = await harness();
    addApplications(h, { "app-1": "Folding bicycle frame", "app-2": "Bicycle brake with folding lever", "app-3": "Coffee grinder" });
    const found = await search(h, "fold bicyc");
    expect(found.status).toBe(200);
    const answer = found.body as InventionSearchAnswer;
    expect(answer.total).toBe(2);
    expect(answer.data.map((i) => i.id).sort()).toEqual(["app-1", "app-2"]);
    expect(answer.data.find((i) => i.id === "app-1")).toEqual({ id: "app-1", title: "Folding bicycle frame", references: ["app-1"] });
    expect(((await search(h, "app-3")).body as InventionSearchAnswer).data.map((i) => i.title)).toEqual(["Coffee grinder"]);
    // Operators and quotes are words, never FTS syntax.
    expect(((await search(h, '"coffee" OR NEAR(')).body as InventionSearchAnswer).total).toBe(0);
    expect(titleQuery('a" OR b*')).toBe('"a"* "or"* "b"*');
    // Nothing for an empty text.
    expect((await search(h, "   ")).body).toEqual({ data: [], total: 0, size: 25, from: 0 });
  });

  test("pages of 25 by default; an application added later is found at the next search", async () => {
    const h = await harness();
    addApplications(h, Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`w-${String(i).padStart(2, "0")}`, `Widget number ${i}`])));
    const first = (await search(h, "widget")).body as InventionSearchAnswer;
    expect([first.total, first.size, first.from, first.data.length]).toEqual([30, 25, 0, 25]);
    const second = (await search(h, "widget", h.adminToken, "&from=25")).body as InventionSearchAnswer;
    expect(second.data.length).toBe(5);
    expect(new Set([...first.data, ...second.data].map((i) => i.id)).size).toBe(30);
    addApplications(h, { "w-new": "Widget of tomorrow" });
    expect(((await search(h, "tomorrow")).body as InventionSearchAnswer).data.map((i) => i.id)).toEqual(["w-new"]);
    expect((await search(h, "widget", h.adminToken, "&size=1000")).status).toBe(400);
  });

  test("needs prompts.read", async () => {
    const h = await harness();
    const res = await search(h, "x", await userWith(h, "none@example.com", ["users.read"]));
    expect(res.status).toBe(403);
  });
});

describe("a chain's context per user", () => {
  const chain = async (h: Harness) => {
    const res = await h.call("POST", "/api/prompts", { token: h.adminToken, body: { name: "Context chain", template: { chain: [], options: {}, chat: null } } });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: string }).id;
  };
  const claim = (n: number, selected = false) => ({ claimNumber: n, preamble: "A widget", text: `A widget ${n}`, independentClaim: n === 1, parentClaimNumbers: n === 1 ? [] : [1], selected });

  test("is empty at first, kept per user, replaced, cleared, and gone with the chain", async () => {
    const h = await harness();
    const id = await chain(h);
    const url = `/api/v2/nlp/chains/${id}/context`;
    expect(await (await h.call("GET", url, { token: h.adminToken })).json()).toEqual(EMPTY_CHAIN_CONTEXT);
    const context = { invention: { id: "app-1", title: "Folding frame", references: ["app-1"] }, document: null, claims: [claim(1, true), claim(2)] };
    const put = await h.call("PUT", url, { token: h.adminToken, body: context });
    expect(put.status).toBe(200);
    const kept = ChainContext.parse(await (await h.call("GET", url, { token: h.adminToken })).json());
    expect(kept).toMatchObject(context);
    expect(kept.updatedAt).not.toBeNull();
    // Another user with prompts.read has their own (empty) context of the same chain.
    const reader = await userWith(h, "reader@example.com", ["prompts.read"]);
    expect(await (await h.call("GET", url, { token: reader })).json()).toEqual(EMPTY_CHAIN_CONTEXT);
    expect((await h.call("DELETE", url, { token: h.adminToken })).status).toBe(204);
    expect(await (await h.call("GET", url, { token: h.adminToken })).json()).toEqual(EMPTY_CHAIN_CONTEXT);
    await h.call("PUT", url, { token: h.adminToken, body: context });
    expect((await h.call("DELETE", `/api/prompts/${id}`, { token: h.adminToken })).status).toBe(204);
    const gone = await h.call("GET", url, { token: h.adminToken });
    expect([gone.status, await message(gone)]).toEqual([404, CHAIN_MESSAGES.notFound]);
    expect((await h.call("PUT", url, { token: h.adminToken, body: context })).status).toBe(404);
  });

  test("refuses a context too large for a run and too many claims, each with its message", async () => {
    const h = await harness();
    const url = `/api/v2/nlp/chains/${await chain(h)}/context`;
    const big = { invention: { id: "a", title: "x".repeat(510_000), references: ["a"] } };
    const large = await h.call("PUT", url, { token: h.adminToken, body: big });
    expect([large.status, await message(large)]).toEqual([413, CHAIN_CONTEXT_MESSAGES.tooLarge]);
    const many = await h.call("PUT", url, { token: h.adminToken, body: { claims: Array.from({ length: 501 }, (_, i) => claim(i + 1)) } });
    expect(many.status).toBe(400);
    expect(await message(many)).toContain(CHAIN_CONTEXT_MESSAGES.tooManyClaims);
  });

  test("claims selection: sorted by number; single-claim mode keeps one", () => {
    const claims = [claim(3), claim(1), claim(2)];
    expect(claimSelection(claims, [3, 2]).map((c) => [c.claimNumber, c.selected])).toEqual([[1, false], [2, true], [3, true]]);
    expect(claimSelection(claims, [3, 2], true).map((c) => [c.claimNumber, c.selected])).toEqual([[1, false], [2, true], [3, false]]);
    expect(claimSelection(claims, [9], true).every((c) => !c.selected)).toBe(true);
  });
});
