import { describe, expect, test } from "vitest";
import { Chain, History, HistoryEntry, HistoryVersion } from "@contract/chains";
import { CHAIN_MESSAGES } from "@contract/chains-constants";
import { VERSION_MESSAGES } from "@contract/versions";
import { harness, message } from "./helpers";

/**
 * A chain's history entries (spec 3 §7 PATCH/DELETE /api/prompts/{id}/history/{id}; docs/decisions/versions-kit.md):
 * a version's comment may change, its content never; any version but the active one may be deleted.
 */
async function json<T>(res: Response, status = 200): Promise<T> {
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

describe("chains: history entries", () => {
  test("a version's comment is edited (the active one's is the chain's comment too); its content stays", async () => {
    const h = await harness();
    const call = (method: string, path: string, body?: unknown) => h.call(method, path, { token: h.adminToken, body });
    const chain = Chain.parse(await json(await call("POST", "/api/prompts", { name: "History", comment: "first" }), 201));
    await json(await call("PATCH", `/api/prompts/${chain.id}`, { description: "Second", comment: "second" }));
    const before = HistoryVersion.parse(await json(await call("GET", `/api/prompts/${chain.id}/history/1`)));

    const edited = HistoryEntry.parse(await json(await call("PATCH", `/api/prompts/${chain.id}/history/1`, { comment: "The first, described" })));
    expect(edited).toMatchObject({ version: 1, comment: "The first, described", isActive: false });
    const after = HistoryVersion.parse(await json(await call("GET", `/api/prompts/${chain.id}/history/1`)));
    expect(after.data).toEqual(before.data);
    expect(after.createdAt).toBe(before.createdAt);

    expect(HistoryEntry.parse(await json(await call("PATCH", `/api/prompts/${chain.id}/history/2`, { comment: "Now described" }))).isActive).toBe(true);
    const current = Chain.parse(await json(await call("GET", `/api/prompts/${chain.id}`)));
    expect(current).toMatchObject({ version: 2, comment: "Now described", description: "Second" });
    expect(History.parse(await json(await call("GET", `/api/prompts/${chain.id}/history`))).map((e) => [e.version, e.comment])).toEqual([
      [2, "Now described"],
      [1, "The first, described"],
    ]);

    const missing = await call("PATCH", `/api/prompts/${chain.id}/history/9`, { comment: "x" });
    expect(missing.status).toBe(404);
    expect(await message(missing)).toBe(CHAIN_MESSAGES.historyNotFound);
    expect((await call("PATCH", `/api/prompts/${chain.id}/history/1`, { comment: "x".repeat(5_000) })).status).toBe(400);
  });

  test("a version other than the active one is deleted; the active one is refused (409); numbers are not reused", async () => {
    const h = await harness();
    const call = (method: string, path: string, body?: unknown) => h.call(method, path, { token: h.adminToken, body });
    const chain = Chain.parse(await json(await call("POST", "/api/prompts", { name: "Deletes" }), 201));
    await json(await call("PATCH", `/api/prompts/${chain.id}`, { description: "Two" }));

    const active = await call("DELETE", `/api/prompts/${chain.id}/history/2`);
    expect(active.status).toBe(409);
    expect(await message(active)).toBe(VERSION_MESSAGES.activeRevisionDelete);
    expect((await call("DELETE", `/api/prompts/${chain.id}/history/1`)).status).toBe(204);
    expect((await call("DELETE", `/api/prompts/${chain.id}/history/1`)).status).toBe(404);
    expect((await call("GET", `/api/prompts/${chain.id}/history/1`)).status).toBe(404);
    expect((await call("POST", `/api/prompts/${chain.id}/history/activate`, { version: 1 })).status).toBe(404);

    await json(await call("PATCH", `/api/prompts/${chain.id}`, { description: "Three" }));
    expect(History.parse(await json(await call("GET", `/api/prompts/${chain.id}/history`))).map((e) => [e.version, e.isActive])).toEqual([
      [3, true],
      [2, false],
    ]);
    // Re-activating version 2 makes a version 4, the active one; 2 is history again and may go.
    await json(await call("POST", `/api/prompts/${chain.id}/history/activate`, { version: 2 }));
    expect((await call("DELETE", `/api/prompts/${chain.id}/history/4`)).status).toBe(409);
    expect((await call("DELETE", `/api/prompts/${chain.id}/history/2`)).status).toBe(204);
    expect(Chain.parse(await json(await call("GET", `/api/prompts/${chain.id}`)))).toMatchObject({ version: 4, description: "Two" });
  });
});
