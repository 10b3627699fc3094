import { describe, expect, test } from "vitest";
import { diffChains } from "@contract/chain-diff";
import { ChainDocument, type ChainDocument as Doc } from "@contract/chains";

/** A chain of a form, a prompt, a query and a chat. */
const base: Doc = ChainDocument.parse({
  name: "Office action reply",
  isPublic: false,
  isGeneric: false,
  organizations: ["org-a"],
  categories: [],
  tags: ["oa"],
  description: "",
  template: {
    chain: [
      { id: "f1", type: "form", name: "FORM 1", variables: [{ name: "TOPIC", type: "string" }] },
      { id: "p1", type: "prompt", name: "PROMPT 1", model: "gpt-a", messages: [{ role: "system", content: "You are an attorney" }, { role: "user", content: "{{TOPIC}}" }] },
      { id: "q1", type: "query", name: "QUERY 1", query: "select 1" },
    ],
    options: { insertIn: "Claims", insertAt: "End" },
    chat: { type: "chat", model: null, messages: [{ role: "user", content: "hi" }] },
  },
});
const edit = (change: (d: Doc) => void): Doc => {
  const copy = structuredClone(base);
  change(copy);
  return copy;
};
const texts = (after: Doc) => diffChains(base, after).map((c) => c.text);

describe("diffChains: a chain's changes named in its own words", () => {
  test("the same chain has no changes", () => {
    expect(diffChains(base, structuredClone(base))).toEqual([]);
  });

  test("a link's model, temperature and max tokens are said before → after", () => {
    const after = edit((d) => {
      const p = d.template.chain[1]!;
      if (p.type !== "prompt") throw new Error("prompt expected");
      Object.assign(p, { name: "PROMPT 2", model: "gpt-b", temperature: 0.2, max_tokens: 500 });
    });
    expect(texts(after)).toEqual([
      "link PROMPT 1 renamed to PROMPT 2",
      "link PROMPT 2 model gpt-a → gpt-b",
      "link PROMPT 2 temperature 0.7 → 0.2",
      "link PROMPT 2 max tokens none → 500",
    ]);
  });

  test("messages are named by number and role; long texts only as changed", () => {
    const after = edit((d) => {
      const p = d.template.chain[1]!;
      if (p.type !== "prompt") throw new Error("prompt expected");
      p.messages[1]!.content = "{{TOPIC}} in detail";
      p.messages.push({ role: "assistant", content: "ok" });
      const q = d.template.chain[2]!;
      if (q.type === "query") q.query = "select 2";
    });
    expect(texts(after)).toEqual(["link PROMPT 1 message 2 (user) changed", "link PROMPT 1 message 3 (assistant) added", "link QUERY 1 query changed"]);
  });

  test("links added, removed and moved are matched by id (a rename is not a removal)", () => {
    const after = edit((d) => {
      const [form, prompt] = d.template.chain;
      d.template.chain = [prompt!, form!, { id: "t1", type: "template", name: "TEMPLATE 1", template: "{{PROMPT_1_OUTPUT}}", renderOnly: false }];
    });
    const changes = diffChains(base, after);
    expect(changes.map((c) => c.text)).toEqual([
      "link QUERY 1 removed",
      "link PROMPT 1 moved from 2 to 1",
      "link FORM 1 moved from 1 to 2",
      "link TEMPLATE 1 added at 3",
    ]);
    expect(changes.map((c) => c.kind)).toEqual(["removed", "moved", "moved", "added"]);
  });

  test("a removed link does not make the others 'moved'", () => {
    const after = edit((d) => {
      d.template.chain.shift();
    });
    expect(texts(after)).toEqual(["link FORM 1 removed"]);
  });

  test("settings, options and the chat", () => {
    const after = edit((d) => {
      d.name = "Office action answer";
      d.tags = ["oa", "us"];
      d.template.options.insertAt = "Start";
      d.template.chat = null;
    });
    expect(texts(after)).toEqual([
      "name Office action reply → Office action answer",
      "tags oa → oa, us",
      "insert at End → Start",
      "chat CHAT removed",
    ]);
    expect(texts(edit((d) => d.template.chat && (d.template.chat.includeHistory = false)))).toEqual(["chat CHAT include history true → false"]);
  });

  test("a form variable's default-value selector is said before → after, apart from the other variable changes", () => {
    const form = (d: Doc) => {
      const f = d.template.chain[0]!;
      if (f.type !== "form") throw new Error("form expected");
      return f;
    };
    const withDefault = edit((d) => (form(d).variables[0]!.defaultValue = { which: "invention", property: "title", value: "the invention" }));
    expect(texts(withDefault)).toEqual(['link FORM 1 variable TOPIC default none → invention title else "the invention"']);
    const literal = structuredClone(withDefault);
    form(literal).variables[0]!.defaultValue = { which: "", property: "", value: "n/a" };
    expect(diffChains(withDefault, literal).map((c) => c.text)).toEqual(['link FORM 1 variable TOPIC default invention title else "the invention" → "n/a"']);
    // An empty selector is none, as a variable without one: no change said.
    expect(texts(edit((d) => (form(d).variables[0]!.defaultValue = { which: "", property: "", value: "" })))).toEqual([]);
    // A variable added (with its default) and a label changed: the variables changed, once.
    const added = edit((d) => {
      form(d).variables[0]!.label = "Topic";
      form(d).variables.push({ ...form(d).variables[0]!, name: "FIELD", defaultValue: { which: "document", property: "technical field", value: "" } });
    });
    expect(texts(added)).toEqual(["link FORM 1 variables changed"]);
  });

  test("a chain of 500 links is compared in linear time", () => {
    const many = (n: number, model: string): Doc => ({
      ...base,
      template: {
        ...base.template,
        chain: Array.from({ length: n }, (_, i) => ({ id: `p${i}`, type: "prompt" as const, name: `PROMPT ${i + 1}`, model, temperature: 0.7, max_tokens: null, params: [], functions: [], attachments: [], messages: [{ role: "user" as const, content: `m${i}` }] })),
      },
    });
    const started = performance.now();
    const changes = diffChains(many(500, "gpt-a"), many(500, "gpt-b"));
    expect(changes).toHaveLength(500);
    expect(performance.now() - started).toBeLessThan(500);
  });
});
