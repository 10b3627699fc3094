import Handlebars from "handlebars";
import { expect, test } from "vitest";
import { substitute } from "../../upstream/src/chain-runs/substitute";

const values = { topic: "a widget", n: 0, no: false, none: null, list: ["a", "b"], obj: { inner: { deep: "x" } }, PROMPT_1_OUTPUT: "out" };

test("plain references render in place exactly as Handlebars renders them", () => {
  const templates = [
    "no references",
    "Draft a claim for {{topic}}.",
    "{{ topic }} {{n}} {{no}} [{{none}}] [{{missing}}] {{list}} {{obj}} {{obj.inner.deep}} {{obj.nothing.deeper}} {{PROMPT_1_OUTPUT}}",
    "{{constructor}} {{__proto__}} {{obj.constructor}}",
  ];
  for (const template of templates) {
    expect(substitute(template, values, 1_000), template).toBe(Handlebars.compile(template, { noEscape: true })(values));
  }
});

test("anything but plain references is left to the bounded renderer, and so is an output past the bound", () => {
  for (const template of ["{{#each list}}{{this}}{{/each}}", "{{join list}}", "{{{topic}}}", "\\{{topic}}", "{{> partial}}", "{{this}}", "{{../x}}", "{{topic}} {{!comment}}", "{{topic.length}}"]) {
    expect(substitute(template, values, 1_000), template).toBeNull();
  }
  expect(substitute("{{topic}}{{topic}}", values, 10)).toBeNull();
});
