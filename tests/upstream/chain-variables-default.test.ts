import { describe, expect, test } from "vitest";
import { ChainInvalid, Chain } from "@contract/chains";
import { CHAIN_MESSAGES, VARIABLE_DEFAULT_LIMITS, VARIABLE_DEFAULT_MESSAGES as DM } from "@contract/chains-constants";
import type { RunEvent } from "@contract/chain-runs";
import { harness, type Harness } from "./helpers";
import { sseEvents } from "./chain-runs-helpers";

/**
 * A form variable's default-value selector {which, property, value} (spec 3 §3; docs/decisions/chains.md
 * "Default-value selector"): what a variable holds when its own resolution finds nothing — in variables/resolve and
 * at a run's form pause — and what a save refuses of it.
 */
const RESOLVE = "/api/v2/nlp/chains/variables/resolve";

const context = {
  invention: { id: "inv-7", title: "Self-closing hinge", references: ["US-1", "US-2"] },
  document: {
    name: "idf.docx",
    title: "Hinge disclosure",
    wordCount: 812,
    paragraphs: ["Technical field", "Hinges."],
    sectionsByHeading: { "technical field": ["Hinges for doors.", "Closing by spring."] },
  },
  properties: { client: "Acme Doors" },
  output: { Claims: "1. A hinge." },
};

async function resolve(h: Harness, variables: unknown[], ctx: unknown = context) {
  const res = await h.call("POST", RESOLVE, { token: h.adminToken, body: { variables, context: ctx } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { variables: { name: string; value: unknown }[] }).variables.map((v) => v.value);
}

const d = (which: string, property: string, value = "") => ({ which, property, value });
/** A variable of `type` with the selector `which`, `property`, `value`. */
const withDefault = (name: string, type: string, which: string, property: string, value = "") => ({ name, type, defaultValue: d(which, property, value) });

describe("a form variable's default-value selector", () => {
  test("resolve: each place's property, the literal when that is empty too; the variable's own resolution first", async () => {
    const h = await harness();
    const values = await resolve(h, [
      withDefault("a", "string", "invention", "title"),
      withDefault("b", "string", "invention", "references"),
      withDefault("c", "string", "document", "Technical Field"),
      withDefault("e", "string", "document", "wordCount"),
      withDefault("f", "string", "properties", "client"),
      withDefault("g", "string", "output", "Claims"),
      withDefault("h", "string", "properties", "missing", "n/a"),
      withDefault("i", "string", "", "", "literal only"),
      // Its own value, a context property of its name, a source document that finds text: no default read.
      { name: "j", type: "string", value: "typed", defaultValue: d("invention", "title") },
      withDefault("client", "string", "invention", "title"),
      { name: "k", type: "string", source: { docCode: "IDF", selector: "all" }, defaultValue: d("invention", "id") },
      withDefault("l", "boolean", "", "", "true"),
      withDefault("m", "boolean", "properties", "client"),
      // Claims take none; a selector of an unknown shape is ignored, as is one that finds nothing and has no literal.
      withDefault("n", "claims", "invention", "title"),
      { name: "o", type: "string", defaultValue: { which: "everywhere", property: "x", value: "y" } },
      withDefault("p", "string", "document", "constructor"),
      { name: "q", type: "string", value: null },
    ]);
    expect(values).toEqual([
      "Self-closing hinge",
      "US-1, US-2",
      "Hinges for doors.\n\nClosing by spring.",
      "812",
      "Acme Doors",
      "1. A hinge.",
      "n/a",
      "literal only",
      "typed",
      "Acme Doors",
      "inv-7",
      true,
      null,
      [],
      null,
      null,
      null,
    ]);
  });

  test("a run's form pause shows the defaulted value: a context field, an earlier link's output", async () => {
    const h = await harness();
    const chain = [
      { id: "t", type: "template", name: "TEMPLATE 1", template: "Reply for {{topic}}", renderOnly: true },
      {
        id: "f",
        type: "form",
        name: "FORM 1",
        variables: [
          withDefault("title", "string", "invention", "title", "Untitled"),
          withDefault("draft", "string", "variable", "TEMPLATE_1_OUTPUT"),
          withDefault("field", "string", "document", "technical field", "none found"),
        ],
      },
    ];
    const res = await h.call("POST", "/api/v2/nlp/chains/stream", {
      token: h.adminToken,
      body: { template: { chain }, context: { invention: context.invention }, variables: { topic: "a hinge" } },
    });
    expect(res.status).toBe(200);
    const runId = res.headers.get("x-run-id")!;
    let form: RunEvent | undefined;
    for await (const e of sseEvents(res)) {
      if (e.type === "content" && e.data.message.type === "form") {
        form = e;
        break;
      }
    }
    expect(form?.data).toMatchObject({
      link: 1,
      message: {
        type: "form",
        variables: [
          { name: "title", value: "Self-closing hinge" },
          { name: "draft", value: "Reply for a hinge" },
          { name: "field", value: "none found" },
        ],
      },
    });
    const stop = await h.call("POST", `/api/v2/nlp/chains/runs/${runId}/continue`, { token: h.adminToken, body: { values: {} } });
    expect(stop.status).toBe(200);
  });

  test("a save refuses a selector it cannot use, each problem on the variable's field; a chain without one saves unchanged", async () => {
    const h = await harness();
    const variables = [
      withDefault("a", "string", "", "title"),
      withDefault("b", "string", "invention", "inventor"),
      withDefault("c", "string", "output", "Conclusion"),
      withDefault("e", "string", "variable", "PROMPT_9_OUTPUT"),
      withDefault("f", "string", "variable", "later"),
      withDefault("g", "claims", "", "", "1"),
      withDefault("i", "boolean", "", "", "yes"),
      withDefault("j", "string", "properties", ""),
    ];
    const template = {
      chain: [
        { id: "f", type: "form", name: "FORM 1", variables },
        { id: "f2", type: "form", name: "FORM 2", variables: [{ name: "later", type: "string" }] },
      ],
    };
    const res = await h.call("POST", "/api/prompts", { token: h.adminToken, body: { name: "Defaults refused", template } });
    expect(res.status).toBe(400);
    const body = ChainInvalid.parse(await res.json());
    expect(body.message.startsWith(CHAIN_MESSAGES.invalid)).toBe(true);
    expect(body.problems.map(({ field, message }) => [field, message])).toEqual([
      ["variables[0].defaultValue.property", DM.propertyWithoutPlace],
      ["variables[1].defaultValue.property", DM.inventionProperty],
      ["variables[2].defaultValue.property", DM.outputProperty],
      ["variables[3].defaultValue.property", CHAIN_MESSAGES.undefinedLink("PROMPT_9_OUTPUT")],
      ["variables[4].defaultValue.property", CHAIN_MESSAGES.usedBeforeDefined("later", 2)],
      ["variables[5].defaultValue.which", DM.notForType],
      ["variables[6].defaultValue.value", DM.booleanValue],
      ["variables[7].defaultValue.property", DM.propertyRequired],
    ]);
    expect(body.problems.every((p) => p.link === 0)).toBe(true);
    // Bounded by the contract before any check.
    const long = await h.call("POST", "/api/prompts", {
      token: h.adminToken,
      body: { name: "Defaults bounded", template: { chain: [{ id: "f", type: "form", name: "FORM 1", variables: [{ name: "a", type: "string", defaultValue: d("", "", "x".repeat(VARIABLE_DEFAULT_LIMITS.value + 1)) }] }] } },
    });
    expect(long.status).toBe(400);

    // Old chains (no selector) load and save unchanged; a valid selector is kept as sent, through the import check too.
    const plain = { chain: [{ id: "f", type: "form", name: "FORM 1", variables: [{ name: "topic", type: "string" }] }] };
    const made = Chain.parse(await (await h.call("POST", "/api/prompts", { token: h.adminToken, body: { name: "Old chain", template: plain } })).json());
    const link = made.template.chain[0]!;
    expect(link.type === "form" && "defaultValue" in link.variables[0]!).toBe(false);
    const kept = { chain: [{ id: "f", type: "form", name: "FORM 1", variables: [withDefault("topic", "string", "document", "Background", "see IDF")] }] };
    const validate = await h.call("POST", "/api/prompts/template/validate", { token: h.adminToken, body: { template: kept } });
    expect(await validate.json()).toEqual({ messages: [] });
    const saved = await h.call("PATCH", `/api/prompts/${made.id}`, { token: h.adminToken, body: { template: kept, comment: "defaults" } });
    expect(saved.status).toBe(200);
    const again = Chain.parse(await saved.json()).template.chain[0]!;
    expect(again.type === "form" && again.variables[0]!.defaultValue).toEqual(d("document", "Background", "see IDF"));
  });
});
