import { describe, expect, test } from "vitest";
import { Documentation, GenerateAnswer, ParseAnswer, joinParagraphs, type ContextObjectAnswer } from "@contract/nlp";
import { parentClaimNumbers, parseClaims, preambleOf } from "../../upstream/src/nlp/claims";
import { DOCUMENT_MESSAGES, readDocx } from "../../upstream/src/nlp/docx";
import { render, templateParams, toParagraphs } from "../../upstream/src/nlp/generator";
import { HELPERS, SAMPLE_CONTEXT, claimRefs, joinWords, undocumentedHelpers } from "../../upstream/src/nlp/helpers";
import { corruptDocx, notADocx, patentDocx } from "../fixtures/docx";
import { harness, message } from "./helpers";

const para = (text: string, extra: Partial<{ headingLevel: number | null; numbered: boolean; numberLevel: number | null }> = {}) => ({
  text,
  style: "",
  headingLevel: null,
  numbered: false,
  numberLevel: null,
  ...extra,
});

describe("claims parser", () => {
  test("numbered paragraphs after the heading, elements joined, dependencies from the wording", () => {
    const claims = parseClaims([
      para("Some description. See claim 9."),
      para("What is claimed is:"),
      para("1. A device comprising:"),
      para("a housing; and"),
      para("a lid."),
      para("2. The device according to claim 1, wherein the lid is hinged."),
      para("3. The device of claims 1 or 2, wherein the housing is steel."),
      para("4) A method of using a device, including opening the lid."),
      para("5. The method as recited in any one of claims 1-2 and 4, further comprising closing it."),
      para("Abstract"),
      para("6. Not a claim."),
    ]);
    expect(claims.map((c) => [c.claimNumber, c.independentClaim, c.parentClaimNumbers])).toEqual([
      [1, true, []],
      [2, false, [1]],
      [3, false, [1, 2]],
      [4, true, []],
      [5, false, [1, 2, 4]],
    ]);
    expect(claims[0]).toMatchObject({ preamble: "A device", text: "A device comprising:\na housing; and\na lid." });
    expect(claims[4]!.preamble).toBe("The method as recited in any one of claims 1-2 and 4");
  });

  test("Word's automatic numbering, sub-lists stay in their claim; claims end at the next heading", () => {
    const claims = parseClaims([
      para("Claims", { headingLevel: 1 }),
      para("A kit comprising:", { numbered: true, numberLevel: 0 }),
      para("a box;", { numbered: true, numberLevel: 1 }),
      para("The kit of claim 1.", { numbered: true, numberLevel: 0 }),
      para("Abstract", { headingLevel: 1 }),
      para("A kit.", { numbered: true, numberLevel: 0 }),
    ]);
    expect(claims.map((c) => c.claimNumber)).toEqual([1, 2]);
    expect(claims[0]!.text).toBe("A kit comprising:\na box;");
    expect(claims[1]!.parentClaimNumbers).toEqual([1]);
  });

  test("no heading, no claims; references only to earlier claims count", () => {
    expect(parseClaims([para("1. A thing.")])).toEqual([]);
    expect(parentClaimNumbers("The thing of claim 7", 3)).toEqual([]);
    expect(parentClaimNumbers("The thing of claims 1 through 3", 4)).toEqual([1, 2, 3]);
    expect(preambleOf("A system for X, characterized in that it flies.")).toBe("A system for X");
  });

  test("reads a real .docx, literal or automatic numbering", async () => {
    for (const autoNumber of [false, true]) {
      const doc = await readDocx(await patentDocx({ autoNumber }));
      const claims = parseClaims(doc.paragraphs);
      expect(claims.map((c) => c.claimNumber)).toEqual([1, 2, 3, 4, 5]);
      expect(claims[0]!.text).toBe("A widget, comprising:\na frame; and\na spring attached to the frame.");
      expect(claims.filter((c) => c.independentClaim).map((c) => c.claimNumber)).toEqual([1, 4]);
      expect(doc.title).toBe("Spring-loaded widget");
    }
  });
});

describe("helpers: every documented example renders its output", () => {
  for (const h of HELPERS) {
    test(`${h.name}: ${h.example.template}`, async () => {
      expect(await render([{ body: h.example.template, context: SAMPLE_CONTEXT }])).toEqual([h.example.output]);
      expect(h.description.length).toBeGreaterThan(5);
      expect(h.requirements.length).toBeGreaterThan(3);
    });
  }
  test("every documented helper is implemented, every implemented one documented", () => {
    expect(undocumentedHelpers()).toEqual({ missing: [], undocumented: [] });
  });
  test("claimRefs and joinWords", () => {
    expect(claimRefs([3, 1, 2, 5])).toBe("claims 1-3 and 5");
    expect(claimRefs([7])).toBe("claim 7");
    expect(joinWords(["a", "b", "c"], "or")).toBe("a, b or c");
  });
});

describe("generator", () => {
  test("params: top-level names only", () => {
    expect(templateParams("{{title}}{{#each claims}}{{text}}{{../wordCount}}{{/each}}{{upper foo.bar}}{{#if x}}{{y}}{{/if}}{{section 'a'}}")).toEqual(
      ["claims", "foo", "title", "wordCount", "x", "y"],
    );
  });
  test("paragraphs split at blank lines, lines are runs; joined back with blank lines", () => {
    const ps = toParagraphs("t", "one\ntwo\n\n\nthree\n  \n");
    expect(ps).toEqual([
      { template: "t", runs: [{ text: "one" }, { text: "two", break: true }] },
      { template: "t", runs: [{ text: "three" }] },
    ]);
    expect(joinParagraphs(ps)).toBe("one\ntwo\n\nthree");
  });
  test("a broken template is a TemplateError with Handlebars' message", async () => {
    await expect(render([{ body: "{{#each claims}}", context: SAMPLE_CONTEXT }])).rejects.toThrow(/^Template error: Parse error/);
  });
});

const b64 = (b: Buffer) => b.toString("base64");
const TEMPLATE = "{{title}}\n\n{{#each (independentClaims claims)}}{{claimNumber}}. {{preamble}}\n{{/each}}";

describe("nlp endpoints", () => {
  test("parser/parse answers claims.claims; bad documents are 400 with a clear message", async () => {
    const h = await harness();
    const t = h.adminToken;
    const ok = await h.call("POST", "/api/nlp/api/v1/parser/parse", { token: t, body: { document: b64(await patentDocx()), sections: ["claims"] } });
    expect(ok.status).toBe(200);
    const parsed = ParseAnswer.parse(await ok.json());
    expect(parsed.claims.claims).toHaveLength(5);
    const cases: Array<[Buffer, string]> = [
      [notADocx(), DOCUMENT_MESSAGES.notDocx],
      [await corruptDocx(), DOCUMENT_MESSAGES.corrupt],
      [await patentDocx({ claims: false }), DOCUMENT_MESSAGES.noClaims],
    ];
    for (const [bytes, text] of cases) {
      const r = await h.call("POST", "/api/nlp/api/v1/parser/parse", { token: t, body: { document: b64(bytes) } });
      expect(r.status).toBe(400);
      expect(await message(r)).toBe(text);
    }
    const notBase64 = await h.call("POST", "/api/nlp/api/v1/parser/parse", { token: t, body: { document: "***" } });
    expect(await message(notBase64)).toBe(DOCUMENT_MESSAGES.badBase64);
  });

  test("contextObject keyed by file name; generate answers paragraphs of runs", async () => {
    const h = await harness();
    const t = h.adminToken;
    const document = { name: "widget.docx", content: b64(await patentDocx()) };
    const ctx = await h.call("POST", "/api/nlp/api/v1/generator/contextObject", {
      token: t,
      body: { templates: [{ name: "x", body: TEMPLATE, params: [], claims: [] }], document },
    });
    expect(ctx.status).toBe(200);
    const answer = (await ctx.json()) as ContextObjectAnswer;
    expect(Object.keys(answer)).toEqual(["widget.docx"]);
    expect(answer["widget.docx"]!.sections.map((s) => s.heading)).toContain("Technical Field");
    expect(answer["widget.docx"]!.claims).toHaveLength(5);

    const gen = await h.call("POST", "/api/nlp/api/v1/generator/generate", { token: t, body: { templates: [{ name: "x", body: TEMPLATE }], document } });
    expect(gen.status).toBe(200);
    const out = GenerateAnswer.parse(await gen.json());
    expect(joinParagraphs(out.paragraphs)).toBe("Spring-loaded widget\n\n1. A widget\n4. A method of making a widget");

    const noClaims = { name: "plain.docx", content: b64(await patentDocx({ claims: false })) };
    const r = await h.call("POST", "/api/nlp/api/v1/generator/generate", { token: t, body: { templates: [{ body: TEMPLATE }], document: noClaims } });
    expect(r.status).toBe(400);
    expect(await message(r)).toBe(DOCUMENT_MESSAGES.noClaims);
    const titleOnly = await h.call("POST", "/api/nlp/api/v1/generator/generate", { token: t, body: { templates: [{ body: "{{upper title}}" }], document: noClaims } });
    expect(GenerateAnswer.parse(await titleOnly.json()).paragraphs[0]!.runs[0]!.text).toBe("SPRING-LOADED WIDGET");
    const pdf = await h.call("POST", "/api/nlp/api/v1/generator/generate", { token: t, body: { templates: [{ body: "x" }], document: { name: "a.pdf", content: b64(notADocx()) } } });
    expect(await message(pdf)).toBe(DOCUMENT_MESSAGES.notDocx);
    const bad = await h.call("POST", "/api/nlp/api/v1/generator/generate", { token: t, body: { templates: [{ body: "{{#if}}" }], document } });
    expect(bad.status).toBe(400);
    expect(await message(bad)).toMatch(/^Template error:/);
  });

  test("documentation: every helper with requirements, arguments and example; permission checked", async () => {
    const h = await harness();
    const r = await h.call("GET", "/api/nlp/api/v1/generator/documentation", { token: h.adminToken });
    const doc = Documentation.parse(await r.json());
    expect(doc.helperFunctions.length).toBe(HELPERS.length);
    expect(doc.contextObject.sample.claims.length).toBeGreaterThan(0);
    await h.createUser({ email: "noperm@example.com" });
    const token = await h.login("noperm@example.com", "secret1");
    expect((await h.call("GET", "/api/nlp/api/v1/generator/documentation", { token })).status).toBe(403);
    expect((await h.call("GET", "/api/nlp/api/v1/generator/documentation")).status).toBe(401);
  });

  test("a 50-page document: context object and generation time", async () => {
    const h = await harness();
    const bytes = await patentDocx({ pages: 50 });
    const document = { name: "long.docx", content: b64(bytes) };
    const started = performance.now();
    const gen = await h.call("POST", "/api/nlp/api/v1/generator/generate", {
      token: h.adminToken,
      body: { templates: [{ body: `${TEMPLATE}\n\n{{#each paragraphs}}{{paragraphNumber (add @index 1)}} {{this}}\n\n{{/each}}` }], document },
    });
    const ms = performance.now() - started;
    expect(gen.status).toBe(200);
    const out = GenerateAnswer.parse(await gen.json());
    expect(out.paragraphs.length).toBeGreaterThan(400);
    console.log(`generate, 50-page document (${bytes.length} bytes, ${out.paragraphs.length} paragraphs): ${ms.toFixed(0)} ms`);
    expect(ms).toBeLessThan(5000);
  });
});
