import { describe, expect, it } from "vitest";
import { DEFAULT_QUERY_SQL, querySqlProblem } from "@contract/chain-query";
import { CHAIN_MESSAGES, DEFAULT_PROMPT_MESSAGES } from "@contract/chains-constants";
import { CHAINS } from "~/chains/texts";
import { chainsOf, draftVersionOf } from "../helpers/chains";
import { appAsAdmin, unescapeHtml, uniq } from "../helpers/app";

const { app, admin } = appAsAdmin();
const { create: chain, draft: draftOf, org, model } = chainsOf(app);
const E = CHAINS.editor;
const T = CHAINS.page;


/** One post of the page as a browser without JavaScript sends it, with the draft version the page shows. */
async function post(id: string, fields: Record<string, string | string[]>): Promise<Response> {
  const draftVersion = draftVersionOf(await (await admin.get(`/chains/${id}`)).text());
  return admin.post(`/chains/${id}?index`, { draftVersion, ...fields });
}

describe("chain editor: each link's form without JavaScript", () => {
  it("a prompt link: the models every organization allows, temperature, max tokens, messages added alternating and the last deleted only above 2", async () => {
    const acme = await org(`Acme ${uniq()}`);
    const beta = await org(`Beta ${uniq()}`);
    const both = await model(`both-${uniq()}`, [acme, beta]);
    const acmeOnly = await model(`acme-${uniq()}`, [acme]);
    const c = await chain({ name: `Links ${uniq()}`, organizations: [acme, beta] });
    expect((await post(c.id, { intent: "add", type: "prompt" })).status).toBe(302);
    const link = (await draftOf(c.id)).data.template.chain[0]!;
    const html = unescapeHtml(await (await admin.get(`/chains/${c.id}?open=${link.id}`)).text());
    expect(html).toMatch(new RegExp(`<details open="">\\s*<summary>PROMPT 1`));
    expect(html).toMatch(new RegExp(`<option value=""[^>]*>${T.defaultModel}</option>`));
    expect(html).toContain(`<option value="${both}">`);
    expect(html).not.toContain(`<option value="${acmeOnly}">`);
    expect(html).toMatch(/name="temperature"[^>]*value="0.7"/);
    expect(html).toContain(E.message(1, "system"));
    expect(html).toContain(E.message(2, "user"));
    expect(html).not.toContain(E.deleteMessage);

    const fields = { link: link.id, name: "  Draft claims  ", model: both, temperature: "0.2", max_tokens: "500", content: [DEFAULT_PROMPT_MESSAGES[0].content, "Write claims."] };
    expect((await post(c.id, { ...fields, intent: "addMessage" })).status).toBe(302);
    expect((await post(c.id, { ...fields, content: [...fields.content, "An answer."], intent: "addMessage" })).status).toBe(302);
    let saved = (await draftOf(c.id)).data.template.chain[0]!;
    expect(saved).toMatchObject({ name: "Draft claims", model: both, temperature: 0.2, max_tokens: 500 });
    if (saved.type !== "prompt") throw new Error("a prompt link");
    expect(saved.messages.map((m) => [m.role, m.content])).toEqual([
      ["system", DEFAULT_PROMPT_MESSAGES[0].content],
      ["user", "Write claims."],
      ["assistant", "An answer."],
      ["user", ""],
    ]);
    const four = unescapeHtml(await (await admin.get(`/chains/${c.id}`)).text());
    expect(four).toContain(E.deleteMessage);
    expect(four).toContain(E.message(4, "user"));
    // Three deletes (the third, at two messages, deletes nothing), each sending the messages the page shows.
    for (let i = 0; i < 3; i++) {
      const shown = (await draftOf(c.id)).data.template.chain[0]!;
      if (shown.type !== "prompt") throw new Error("a prompt link");
      const fields = { link: link.id, intent: "deleteMessage", name: "Draft claims", model: both, temperature: "0.2", max_tokens: "", content: shown.messages.map((m) => m.content) };
      expect((await post(c.id, fields)).status).toBe(302);
    }
    saved = (await draftOf(c.id)).data.template.chain[0]!;
    if (saved.type !== "prompt") throw new Error("a prompt link");
    expect(saved.messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(saved.max_tokens).toBeNull();
  });

  it("refusals: each problem on its link and field, what was typed kept, nothing saved", async () => {
    const acme = await org(`Solo ${uniq()}`);
    const other = await org(`Other ${uniq()}`);
    const foreign = await model(`foreign-${uniq()}`, [other]);
    const c = await chain({ name: `Refusals ${uniq()}`, organizations: [acme] });
    for (const type of ["prompt", "template", "query"]) expect((await post(c.id, { intent: "add", type })).status).toBe(302);
    const before = await draftOf(c.id);
    const [prompt, template, query] = before.data.template.chain;

    // A model the chain's organization does not allow and a temperature that is not a number: the page again.
    const badPrompt = await post(c.id, { intent: "save", link: prompt!.id, name: "PROMPT 1", model: foreign, temperature: "warm", max_tokens: "", content: ["sys", "typed words"] });
    expect(badPrompt.status, await badPrompt.clone().text()).toBe(400);
    let html = unescapeHtml(await badPrompt.text());
    expect(html).toMatch(/name="temperature"[^>]*aria-invalid="true"[^>]*value="warm"/);
    expect(html).toContain("typed words");
    expect(html).toMatch(/id="[^"]+-temperature-errors"[^>]*><p class="field-error">/);
    const goodTemperature = await post(c.id, { intent: "save", link: prompt!.id, name: "PROMPT 1", model: foreign, temperature: "0.5", max_tokens: "", content: ["sys", "typed words"] });
    expect(goodTemperature.status).toBe(400);
    html = unescapeHtml(await goodTemperature.text());
    expect(html).toContain(CHAIN_MESSAGES.saveFailed);
    expect(html).toMatch(new RegExp(`-model-errors"[^>]*><p class="field-error">${CHAIN_MESSAGES.modelNotAllowed}</p>`));
    expect(html).toContain("typed words");

    // A template reading a later link's output; a query that is not one SELECT.
    const early = await post(c.id, { intent: "save", link: template!.id, name: "TEMPLATE 1", template: "{{QUERY_1_OUTPUT}} and more", renderOnly: "on" });
    expect(early.status).toBe(400);
    html = unescapeHtml(await early.text());
    expect(html).toContain(CHAIN_MESSAGES.usedBeforeDefined("QUERY_1_OUTPUT", 3));
    expect(html).toContain("{{QUERY_1_OUTPUT}} and more");
    const sql = "DELETE FROM paragraphs";
    const badQuery = await post(c.id, { intent: "save", link: query!.id, name: "QUERY 1", query: sql });
    expect(badQuery.status).toBe(400);
    html = unescapeHtml(await badQuery.text());
    expect(html).toContain(querySqlProblem(sql)!);
    expect(html).toContain(sql);
    expect(await draftOf(c.id)).toMatchObject({ version: before.version });

    // Saved when right: the template after the query, render only.
    expect((await post(c.id, { intent: "up", link: query!.id })).status).toBe(302);
    expect((await post(c.id, { intent: "save", link: template!.id, name: "TEMPLATE 1", template: "{{QUERY_1_OUTPUT}} and more", renderOnly: "on" })).status).toBe(302);
    expect((await post(c.id, { intent: "save", link: query!.id, name: "QUERY 1", query: DEFAULT_QUERY_SQL })).status).toBe(302);
    const after = (await draftOf(c.id)).data.template.chain;
    expect(after.map((l) => l.name)).toEqual(["PROMPT 1", "QUERY 1", "TEMPLATE 1"]);
    expect(after[2]).toMatchObject({ template: "{{QUERY_1_OUTPUT}} and more", renderOnly: true });
  });

  it("a form link's variables (add, name, label, type, delete the last) and the chat's form (include history)", async () => {
    const c = await chain({ name: `Forms ${uniq()}` });
    expect((await post(c.id, { intent: "add", type: "form" })).status).toBe(302);
    const form = (await draftOf(c.id)).data.template.chain[0]!;
    expect((await post(c.id, { intent: "addVariable", link: form.id, name: "FORM 1" })).status).toBe(302);
    const one = { link: form.id, name: "FORM 1", variableName: ["topic"], variableLabel: ["Topic"], variableType: ["claims"] };
    expect((await post(c.id, { ...one, intent: "addVariable" })).status).toBe(302);
    let saved = (await draftOf(c.id)).data.template.chain[0]!;
    if (saved.type !== "form") throw new Error("a form link");
    expect(saved.variables.map((v) => [v.name, v.label, v.type])).toEqual([
      ["topic", "Topic", "claims"],
      ["variable_2", "", "string"],
    ]);
    const html = unescapeHtml(await (await admin.get(`/chains/${c.id}`)).text());
    expect(html).toContain(E.variable(2, "name"));
    expect(html).toContain(E.deleteVariable);
    // A blank name: refused on its field, the rest kept as typed.
    const blank = await post(c.id, { link: form.id, name: "FORM 1", intent: "save", variableName: ["topic", " "], variableLabel: ["Topic", "Typed label"], variableType: ["claims", "boolean"] });
    expect(blank.status).toBe(400);
    const blankHtml = unescapeHtml(await blank.text());
    expect(blankHtml).toMatch(/-variables-1-name-errors"[^>]*><p class="field-error">/);
    expect(blankHtml).toContain("Typed label");
    expect((await post(c.id, { ...one, intent: "deleteVariable", variableName: ["topic", "x"], variableLabel: ["Topic", ""], variableType: ["claims", "string"] })).status).toBe(302);
    saved = (await draftOf(c.id)).data.template.chain[0]!;
    if (saved.type !== "form") throw new Error("a form link");
    expect(saved.variables.map((v) => v.name)).toEqual(["topic"]);

    expect((await post(c.id, { intent: "add", type: "chat" })).status).toBe(302);
    const chat = { link: "chat", intent: "save", name: "CHAT", model: "", temperature: "1", max_tokens: "", content: ["Be brief.", "About {{topic}}"] };
    expect((await post(c.id, chat)).status).toBe(302);
    expect((await draftOf(c.id)).data.template.chat).toMatchObject({ temperature: 1, includeHistory: false, messages: [{ role: "system", content: "Be brief." }, { role: "user", content: "About {{topic}}" }] });
    expect((await post(c.id, { ...chat, includeHistory: "on" })).status).toBe(302);
    expect((await draftOf(c.id)).data.template.chat).toMatchObject({ includeHistory: true });
  });
});
