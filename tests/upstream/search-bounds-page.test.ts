import { describe, expect, it } from "vitest";
import { SEARCH_LIMITS, SEARCH_MESSAGES } from "@contract/portfolio";
import { PORTFOLIO } from "~/portfolio/texts";
import { appAsAdmin } from "../helpers/app";

/**
 * /portfolio with a search the upstream refuses as too costly (search-bounds.test.ts has the engine's side): the
 * spec's 'Search failed' text with the reason under it, the typed query kept in the box, no results, a 400.
 */
const { admin } = appAsAdmin();
const INDEX = "_data=routes%2F_app.portfolio._index";

describe("/portfolio and a search past the bounds", () => {
  it("300 typed words: 'Search failed' with the reason (no API path), the query kept", async () => {
    const query = Array.from({ length: 300 }, (_, i) => ["cell", "gate", "lens", "wire", "coil"][i % 5]).join(" ");
    const reason = SEARCH_MESSAGES.tooManyTerms(SEARCH_LIMITS.terms);
    const data = await admin.get(`/portfolio?${INDEX}&qs=${encodeURIComponent(query)}`);
    expect(data.status).toBe(400);
    const body = (await data.json()) as { params: { qs: string }; rows: unknown[]; error: { message: string; detail: string | null } };
    expect(body.error).toEqual({ message: PORTFOLIO.searchFailed, detail: reason });
    expect(body.rows).toEqual([]);
    expect(body.params.qs).toBe(query);
    const html = await (await admin.get(`/portfolio?qs=${encodeURIComponent(query)}`)).text();
    expect(html).toContain(PORTFOLIO.searchFailed);
    expect(html).toContain(reason);
    expect(/<input[^>]*name="qs"[^>]*>/.exec(html)?.[0]).toContain(`value="${query}"`);
  });
});
