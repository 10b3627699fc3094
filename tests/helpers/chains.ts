import { expect } from "vitest";
import { Chain, ChainDraft, type ChainDocument } from "@contract/chains";
import type { TestApp } from "./app";

/** The chain page tests' upstream steps, as the administrator: a chain made, its draft read. */
export function chainsOf(app: TestApp) {
  return {
    async create(body: Record<string, unknown>): Promise<Chain> {
      const r = await app.adminApi("POST", "/api/prompts", body);
      expect(r.status).toBe(201);
      return Chain.parse(await r.json());
    },
    /** A new organization's id. */
    async org(name: string): Promise<string> {
      const r = await app.adminApi("POST", "/api/organizations", { name });
      expect(r.status).toBe(201);
      return ((await r.json()) as { id: string }).id;
    },
    /** A new model's id: allowed for `organizations`, of `capability`, with `params` (the fake provider's address). */
    async model(name: string, organizations: string[], capability = "chat", params: { name: string; default: string; options: string[] }[] = []): Promise<string> {
      const r = await app.adminApi("POST", "/api/v2/nlp/configurations", {
        name,
        provider: "openai-compatible",
        capability,
        organizations,
        params,
        config: JSON.stringify({ baseURL: "http://127.0.0.1:9/v1", apiKey: "k", model: name }),
      });
      expect(r.status).toBe(201);
      return ((await r.json()) as { id: string }).id;
    },
    async draft(id: string): Promise<{ version: number; data: ChainDocument }> {
      const r = await app.adminApi("GET", `/api/prompts/${id}/draft`);
      expect(r.status).toBe(200);
      return ChainDraft.parse(await r.json());
    },
  };
}

/** The draft version a chain page shows (its posts send it back; a stale one is refused). */
export const draftVersionOf = (html: string) => /name="draftVersion" value="(\d+)"/.exec(html)?.[1] ?? "0";
