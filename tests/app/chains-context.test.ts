import { describe, expect, it } from "vitest";
import { ChainContext } from "@contract/chain-context";
import { CONTEXT } from "~/chains/context/texts";
import { patentDocx } from "../fixtures/docx";
import { appAsAdmin, uniq, unescapeHtml } from "../helpers/app";
import { chainsOf } from "../helpers/chains";

/** The chain page's Context tab (spec 3 §2.9): the invention search, the context document, the claims. */
const { app, admin } = appAsAdmin();
const chains = chainsOf(app);

const newChain = () => chains.create({ name: `Context ${uniq()}`, template: { chain: [], options: {}, chat: null } });
const keptContext = async (id: string) => ChainContext.parse(await (await app.adminApi("GET", `/api/v2/nlp/chains/${id}/context`)).json());
const toastCookie = (r: Response) => r.headers.getSetCookie().some((c) => c.startsWith("toast="));

describe("the Context tab", () => {
  it("searches inventions with a GET form (25 a page, non-empty text only) and keeps the chosen one", async () => {
    const word = `zq${uniq()}`;
    for (let i = 0; i < 27; i++) {
      const r = await app.adminApi("POST", "/api/applications", { id: `${word}-${i}`, title: `Gearbox ${word} ${i}`, abstract: "", claims: "", specification: "" });
      expect(r.status, await r.clone().text()).toBe(201);
    }
    const chain = await newChain();
    const empty = unescapeHtml(await (await admin.get(`/chains/${chain.id}?tab=context`)).text());
    expect(empty).toContain(CONTEXT.noInvention);
    expect(empty).toContain(CONTEXT.noDocument);
    expect(empty).toMatch(/<form method="get"[^>]*role="search"/);
    expect(empty).not.toContain(CONTEXT.results(0));

    const html = unescapeHtml(await (await admin.get(`/chains/${chain.id}?tab=context&q=${word}`)).text());
    expect(html).toContain(CONTEXT.results(27));
    expect(html.match(new RegExp(`name="invention" value="${word}-`, "g"))?.length).toBe(25);
    expect(html).toContain("Page 1 of 2");
    const second = await (await admin.get(`/chains/${chain.id}?tab=context&q=${word}&from=25`)).text();
    expect(second.match(new RegExp(`name="invention" value="${word}-`, "g"))?.length).toBe(2);
    // A blank text searches nothing.
    expect(await (await admin.get(`/chains/${chain.id}?tab=context&q=%20`)).text()).not.toContain('name="invention"');

    const chose = await admin.post(`/chains/${chain.id}/context`, { intent: "invention", invention: `${word}-3`, q: word });
    expect(chose.status).toBe(302);
    expect(chose.headers.get("Location")).toBe(`/chains/${chain.id}?tab=context&q=${word}`);
    expect((await keptContext(chain.id)).invention).toEqual({ id: `${word}-3`, title: `Gearbox ${word} 3`, references: [`${word}-3`] });
    const after = unescapeHtml(await (await admin.get(`/chains/${chain.id}?tab=context`)).text());
    expect(after).toContain(`Gearbox ${word} 3`);
    expect(after).toContain(CONTEXT.reference(`${word}-3`));

    // Not in the portfolio: refused with a toast, nothing changes.
    const gone = await admin.post(`/chains/${chain.id}/context`, { intent: "invention", invention: "no-such-application" });
    expect(gone.status).toBe(302);
    expect(toastCookie(gone)).toBe(true);
    expect((await keptContext(chain.id)).invention?.id).toBe(`${word}-3`);
    await admin.post(`/chains/${chain.id}/context`, { intent: "invention-clear" });
    expect((await keptContext(chain.id)).invention).toBeNull();
  });

  it("uploads a .docx: its claims listed by number, the selection saved; another type is refused", async () => {
    const chain = await newChain();
    const docx = new File([new Uint8Array(await patentDocx())], "widget.docx");
    const up = await admin.postMultipart(`/chains/${chain.id}/context`, { intent: "upload", document: docx });
    expect(up.status).toBe(302);
    const kept = await keptContext(chain.id);
    expect(kept.document?.name).toBe("widget.docx");
    expect(kept.document?.context.title).toBe("Spring-loaded widget");
    expect(kept.claims.map((c) => [c.claimNumber, c.selected])).toEqual([1, 2, 3, 4, 5].map((n) => [n, false]));

    const html = unescapeHtml(await (await admin.get(`/chains/${chain.id}?tab=context`)).text());
    expect(html).toContain("widget.docx");
    for (const n of [1, 2, 3, 4, 5]) expect(html).toContain(`name="claim" value="${n}"`);
    expect(html).toContain(CONTEXT.selectedCount(0, 5));

    await admin.post(`/chains/${chain.id}/context`, { intent: "claims", claim: ["4", "2", "99"] });
    expect((await keptContext(chain.id)).claims.filter((c) => c.selected).map((c) => c.claimNumber)).toEqual([2, 4]);
    expect(await (await admin.get(`/chains/${chain.id}?tab=context`)).text()).toContain(CONTEXT.selectedCount(2, 5));

    const wrong = await admin.postMultipart(`/chains/${chain.id}/context`, { intent: "upload", document: new File(["plain"], "notes.txt") });
    expect(wrong.status).toBe(302);
    expect(toastCookie(wrong)).toBe(true);
    const banner = unescapeHtml(await (await admin.get(wrong.headers.get("Location")!)).text());
    expect(banner).toContain(CONTEXT.contextFailed);
    expect(banner).toContain(CONTEXT.docxOnly);
    expect((await keptContext(chain.id)).document?.name).toBe("widget.docx");

    // A document that is not a Word file inside: the generator's refusal, the spec's toast.
    const broken = await admin.postMultipart(`/chains/${chain.id}/context`, { intent: "upload", document: new File(["not a zip"], "broken.docx") });
    const shown = unescapeHtml(await (await admin.get(broken.headers.get("Location")!)).text());
    expect(shown).toContain(CONTEXT.contextFailed);

    await admin.post(`/chains/${chain.id}/context`, { intent: "document-clear" });
    const cleared = await keptContext(chain.id);
    expect([cleared.document, cleared.claims]).toEqual([null, []]);
  });

  it("is open to prompts.read (each user their own); nothing for a user without it", async () => {
    const chain = await newChain();
    const email = `reader-${uniq()}@test.local`;
    await app.createUser(email, ["prompts.read"]);
    const reader = app.browser();
    await reader.signIn(email, "secret-123");
    expect((await reader.get(`/chains/${chain.id}?tab=context`)).status).toBe(200);
    const docx = new File([new Uint8Array(await patentDocx())], "mine.docx");
    expect((await reader.postMultipart(`/chains/${chain.id}/context`, { intent: "upload", document: docx })).status).toBe(302);
    expect(await (await reader.get(`/chains/${chain.id}?tab=context`)).text()).toContain("mine.docx");
    expect((await keptContext(chain.id)).document).toBeNull();

    const other = `none-${uniq()}@test.local`;
    await app.createUser(other, ["users.read"]);
    const outsider = app.browser();
    await outsider.signIn(other, "secret-123");
    expect((await outsider.post(`/chains/${chain.id}/context`, { intent: "invention-clear" })).status).toBe(404);
  });
});
