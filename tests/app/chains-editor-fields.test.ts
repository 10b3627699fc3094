import { describe, expect, it } from "vitest";
import {
  CHAIN_LIMITS,
  CHAIN_MESSAGES,
  CONTENT_FILE_TYPES,
  DEFAULT_PROMPT_MESSAGES,
  VARIABLE_DEFAULT_LIMITS,
  VARIABLE_DEFAULT_MESSAGES,
  VARIABLE_DEFAULT_WHICH,
} from "@contract/chains-constants";
import { UPLOAD_ACCEPT } from "@contract/converters";
import { CHAINS } from "~/chains/texts";
import { chainsOf, draftVersionOf } from "../helpers/chains";
import { appAsAdmin, unescapeHtml, uniq } from "../helpers/app";

/**
 * The chain page's link fields without JavaScript (spec 3 §2.9, §3, §4.2, §5): a prompt's params from its model's
 * defaults (reset when the model changes), its functions, images on a vision model's user messages; a content link's
 * source (files, mermaid, AI) emptied when it changes; a form link's variables (origin, value, source, claims modes,
 * default-value selector); the options row.
 */
const { app, admin } = appAsAdmin();
const { create: chain, draft: draftOf, org, model } = chainsOf(app);
const E = CHAINS.editor;
const T = CHAINS.page;

const PARAMS = [
  { name: "top_p", default: "0.9", options: [] },
  { name: "style", default: "formal", options: ["formal", "plain"] },
];

const page = async (id: string) => unescapeHtml(await (await admin.get(`/chains/${id}`)).text());

/** One post of the page as a browser without JavaScript sends it (multipart: the link forms with a file input). */
async function post(id: string, fields: Record<string, string | File | (string | File)[]>): Promise<Response> {
  const draftVersion = draftVersionOf(await page(id));
  return admin.postMultipart(`/chains/${id}?index`, { draftVersion, ...fields });
}

async function promptOf(id: string, index = 0) {
  const link = (await draftOf(id)).data.template.chain[index]!;
  if (link.type !== "prompt") throw new Error("a prompt link");
  return link;
}

const file = (name: string, bytes = 16) => new File([new Uint8Array(bytes).fill(7)], name);

describe("chain editor: every field of a link without JavaScript", () => {
  it("a prompt link: params from the model's defaults, reset when the model changes; functions cleared; no model shown as the organization's", async () => {
    const acme = await org(`Acme ${uniq()}`);
    const tuned = await model(`tuned-${uniq()}`, [acme], "chat", PARAMS);
    const bare = await model(`bare-${uniq()}`, [acme], "chat");
    const c = await chain({ name: `Params ${uniq()}`, organizations: [acme] });
    expect((await post(c.id, { intent: "add", type: "prompt" })).status).toBe(302);
    const link = await promptOf(c.id);
    let html = await page(c.id);
    expect(html).toContain(T.defaultModel);
    expect(html).toContain(E.noModelHint);
    expect(html).not.toContain(`<legend>${E.params}</legend>`);

    const fields = { link: link.id, intent: "save", name: "PROMPT 1", temperature: "0.7", max_tokens: "", content: [DEFAULT_PROMPT_MESSAGES[0].content, "Draft."] };
    // A model chosen: its params at their defaults, whatever the form sent.
    expect((await post(c.id, { ...fields, model: tuned, paramValue: ["ignored"] })).status).toBe(302);
    expect((await promptOf(c.id)).params).toEqual([
      { name: "top_p", value: "0.9", options: [] },
      { name: "style", value: "formal", options: ["formal", "plain"] },
    ]);
    html = await page(c.id);
    expect(html).toContain(`<legend>${E.params}</legend>`);
    expect(html).toMatch(/<label for="[^"]+-params-0-value">top_p<\/label><input[^>]*name="paramValue"[^>]*value="0.9"/);
    expect(html).toMatch(/<select[^>]*name="paramValue"[^>]*>\s*<option value="formal" selected="">formal<\/option><option value="plain">plain<\/option>/);
    expect(html).toContain(E.modelChangeHint);
    // The same model: the values posted.
    expect((await post(c.id, { ...fields, model: tuned, paramValue: ["0.5", "plain"] })).status).toBe(302);
    expect((await promptOf(c.id)).params.map((p) => p.value)).toEqual(["0.5", "plain"]);

    // Functions chosen earlier (a provider's) go with a model that has none; the params reset to the new model's (none).
    const draft = await draftOf(c.id);
    const withFunctions = { ...draft.data, template: { ...draft.data.template, chain: [{ ...(await promptOf(c.id)), functions: ["patent_search"] }] } };
    const r = await app.adminApi("PATCH", `/api/prompts/${c.id}/draft`, { data: withFunctions, baseVersion: draft.version });
    expect(r.status).toBe(200);
    html = await page(c.id);
    expect(html).toMatch(/<input type="checkbox" name="functions" checked="" value="patent_search"\/> (<!-- -->)?patent_search/);
    expect((await post(c.id, { ...fields, model: tuned, paramValue: ["0.5", "plain"], functions: "patent_search" })).status).toBe(302);
    expect((await promptOf(c.id)).functions).toEqual(["patent_search"]);
    expect((await post(c.id, { ...fields, model: bare, functions: "patent_search" })).status).toBe(302);
    expect(await promptOf(c.id)).toMatchObject({ model: bare, params: [], functions: [] });
  });

  it("images: a vision model's user messages before the last user message take an upload (typed and bounded); others none", async () => {
    const acme = await org(`Vision ${uniq()}`);
    const vision = await model(`vision-${uniq()}`, [acme], "chat-with-vision");
    const plain = await model(`plain-${uniq()}`, [acme], "chat");
    const c = await chain({ name: `Images ${uniq()}`, organizations: [acme] });
    expect((await post(c.id, { intent: "add", type: "prompt" })).status).toBe(302);
    const link = await promptOf(c.id);
    const fields = { link: link.id, name: "PROMPT 1", temperature: "0.7", max_tokens: "", model: vision };
    const four = ["Be precise.", "Look at the drawing.", "Seen.", "What does it show?"];
    expect((await post(c.id, { ...fields, intent: "addMessage", content: four.slice(0, 2) })).status).toBe(302);
    expect((await post(c.id, { ...fields, intent: "addMessage", content: four.slice(0, 3) })).status).toBe(302);
    expect((await post(c.id, { ...fields, intent: "save", content: four })).status).toBe(302);
    let html = await page(c.id);
    // Only message 2 (a user message, not the last user one) takes an image; the form is multipart.
    expect(html).toContain(E.attachImage(2));
    expect(html).not.toContain(E.attachImage(4));
    // HTML attribute names are case-insensitive; React writes this one as `encType`.
    expect(new RegExp(`<form[^>]*id="link-form-${link.id}"[^>]*>`).exec(html)?.[0]).toMatch(/enctype="multipart\/form-data"/i);

    expect((await post(c.id, { ...fields, intent: "save", content: four, "image-1": file("figure-1.png") })).status).toBe(302);
    expect((await promptOf(c.id)).messages[1]!.supplementals?.files.map((f) => [f.name, f.type])).toEqual([["figure-1.png", "png"]]);
    html = await page(c.id);
    expect(html).toContain("figure-1.png");
    expect(html).toContain(`aria-label="${E.removeFile("figure-1.png")}"`);

    // A type that is not an image, and an image past the bound: refused on the message, what was typed kept.
    const gif = await post(c.id, { ...fields, intent: "save", content: ["Be precise.", "Typed words", "Seen.", "Q"], "image-1": file("anim.gif") });
    expect(gif.status).toBe(400);
    const gifHtml = unescapeHtml(await gif.text());
    expect(gifHtml).toContain(CHAIN_MESSAGES.fileType(UPLOAD_ACCEPT.images.map((t) => t.slice(1))));
    expect(gifHtml).toContain("Typed words");
    const big = await post(c.id, { ...fields, intent: "save", content: four, "image-1": file("huge.jpg", CHAIN_LIMITS.imageBytes + 1) });
    expect(big.status).toBe(400);
    expect(unescapeHtml(await big.text())).toContain(CHAIN_MESSAGES.fileTooLarge(CHAIN_LIMITS.imageBytes / 1024));
    expect((await promptOf(c.id)).messages[1]!.supplementals?.files).toHaveLength(1);

    // A model that does not read images: the upstream refuses the images kept; removed, the save passes.
    const refused = await post(c.id, { ...fields, model: plain, intent: "save", content: four });
    expect(refused.status).toBe(400);
    expect(unescapeHtml(await refused.text())).toContain(CHAIN_MESSAGES.imagesNotAllowed);
    expect((await post(c.id, { ...fields, intent: "removeImage:1:0", content: four })).status).toBe(302);
    expect((await promptOf(c.id)).messages[1]!.supplementals).toBeUndefined();
    expect((await post(c.id, { ...fields, model: plain, intent: "save", content: four })).status).toBe(302);
    expect(await page(c.id)).not.toContain(E.attachImage(2));
  });

  it("a content link: files of the accepted types (bounded), a changed source empties the value, mermaid and AI fields", async () => {
    const acme = await org(`Content ${uniq()}`);
    const m = await model(`content-${uniq()}`, [acme], "image-generation");
    const c = await chain({
      name: `Content ${uniq()}`,
      organizations: [acme],
      template: { chain: [{ id: "f", type: "form", name: "FORM 1", variables: [{ name: "sketch", type: "image" }, { name: "topic", type: "string" }] }] },
    });
    expect((await post(c.id, { intent: "add", type: "content" })).status).toBe(302);
    const content = (await draftOf(c.id)).data.template.chain[1]!;
    expect(content).toMatchObject({ name: "CONTENT 1", source: { type: "file", value: [] } });
    let html = await page(c.id);
    expect(html).toContain(E.noFiles);
    expect(html).toContain(E.sourceChangeHint);
    expect(html).toMatch(new RegExp(`<input type="file" multiple=""[^>]*name="contentFile" accept="${CONTENT_FILE_TYPES.map((t) => `\\.${t}`).join(",")}"`));

    const fields = { link: content.id, name: "CONTENT 1", sourceType: "file" };
    expect((await post(c.id, { ...fields, intent: "save", contentFile: [file("spec.docx"), file("flow.vsdx"), file("logo.SVG")] })).status).toBe(302);
    const files = async () => {
      const l = (await draftOf(c.id)).data.template.chain[1]!;
      return l.type === "content" && l.source.type === "file" ? l.source.value.map((f) => [f.name, f.type]) : null;
    };
    expect(await files()).toEqual([
      ["spec.docx", "docx"],
      ["flow.vsdx", "vsdx"],
      ["logo.SVG", "svg"],
    ]);
    const exe = await post(c.id, { ...fields, intent: "save", contentFile: file("tool.exe") });
    expect(exe.status).toBe(400);
    expect(unescapeHtml(await exe.text())).toContain(CHAIN_MESSAGES.fileType(CONTENT_FILE_TYPES));
    const big = await post(c.id, { ...fields, intent: "save", contentFile: file("big.png", CHAIN_LIMITS.fileBytes + 1) });
    expect(big.status).toBe(400);
    expect(unescapeHtml(await big.text())).toContain(CHAIN_MESSAGES.fileTooLarge(CHAIN_LIMITS.fileBytes / 1024));
    expect((await post(c.id, { ...fields, intent: "removeFile:1" })).status).toBe(302);
    expect(await files()).toEqual([
      ["spec.docx", "docx"],
      ["logo.SVG", "svg"],
    ]);

    // Mermaid: the files go; its template saved. AI: the template goes; model, template, image variables saved.
    expect((await post(c.id, { ...fields, sourceType: "mermaid", intent: "save" })).status).toBe(302);
    expect((await draftOf(c.id)).data.template.chain[1]).toMatchObject({ source: { type: "mermaid", value: "" } });
    html = await page(c.id);
    expect(html).toContain(E.mermaid);
    expect((await post(c.id, { ...fields, sourceType: "mermaid", mermaid: "graph TD; A-->B", intent: "save" })).status).toBe(302);
    expect((await draftOf(c.id)).data.template.chain[1]).toMatchObject({ source: { type: "mermaid", value: "graph TD; A-->B" } });
    expect((await post(c.id, { ...fields, sourceType: "ai", mermaid: "graph TD; A-->B", intent: "save" })).status).toBe(302);
    expect((await draftOf(c.id)).data.template.chain[1]).toMatchObject({ source: { type: "ai", value: { model: null, template: "", images: [] } } });
    html = await page(c.id);
    expect(html).toMatch(/<input type="checkbox" name="aiImages" value="sketch"\/> (<!-- -->)?sketch/);
    expect(html).not.toContain('name="aiImages" value="topic"');
    const ai = { ...fields, sourceType: "ai", aiModel: m, aiTemplate: "Draw {{topic}}", aiImages: "sketch", intent: "save" };
    expect((await post(c.id, ai)).status).toBe(302);
    expect((await draftOf(c.id)).data.template.chain[1]).toMatchObject({ source: { type: "ai", value: { model: m, template: "Draw {{topic}}", images: ["sketch"] } } });
  });

  it("a form link's variables: origin, value, source document and selector, a claims variable's modes; a refused save keeps what was typed", async () => {
    const c = await chain({
      name: `Variables ${uniq()}`,
      template: {
        chain: [
          {
            id: "f",
            type: "form",
            name: "FORM 1",
            variables: [
              { name: "topic", type: "string" },
              { name: "claims", type: "claims" },
              { name: "flag", type: "boolean" },
            ],
          },
        ],
      },
    });
    let html = await page(c.id);
    for (const [n, part] of [[1, "origin"], [1, "value"], [3, "value"]] as const) expect(html).toContain(`>${E.variable(n, part)}</label>`);
    expect(html).toMatch(new RegExp(`<label for="f-variables-0-source-docCode">${E.variableDocCode(1)}</label><select[^>]*name="variableDocCode"[^>]*><option value="" selected="">${T.none}</option><option value="IDF">IDF</option><option value="TRANSCRIPT">TRANSCRIPT</option></select>`));
    expect(html).toMatch(new RegExp(`<label for="f-variables-0-source-selector">${E.variableSelector(1)}</label><select[^>]*name="variableSelector"[^>]*><option value="all" selected="">all</option><option value="newest">newest</option><option value="oldest">oldest</option></select>`));
    // The claims modes only on the claims variable; a boolean's value is true, false or none.
    expect(html).toContain(E.variableSingleClaim(2));
    expect(html).toContain(E.variableIndependentOnly(2));
    expect(html).not.toContain(E.variableSingleClaim(1));
    expect(html).toMatch(new RegExp(`<select[^>]*id="f-variables-2-value"[^>]*name="variableValue"[^>]*><option value="" selected="">${T.none}</option><option value="true">true</option><option value="false">false</option>`));

    const fields = {
      link: "f",
      intent: "save",
      name: "FORM 1",
      variableName: ["topic", "claims", "flag"],
      variableLabel: ["Topic", "Claims", "Flag"],
      variableType: ["string", "claims", "boolean"],
      variableOrigin: ["context", "form", "form"],
      variableValue: ["Widgets and gears", "", "true"],
      variableDocCode: ["IDF", "", "TRANSCRIPT"],
      variableSelector: ["newest", "all", "oldest"],
      variableSingleClaim: "1",
      variableIndependentOnly: "1",
    };
    const variables = async () => {
      const link = (await draftOf(c.id)).data.template.chain[0]!;
      if (link.type !== "form") throw new Error("a form link");
      return link.variables;
    };
    const saved = [
      { name: "topic", label: "Topic", type: "string", origin: "context", value: "Widgets and gears", source: { docCode: "IDF", selector: "newest" }, independentOnly: false, singleClaimMode: false },
      { name: "claims", label: "Claims", type: "claims", origin: "form", value: null, source: { docCode: "", selector: "all" }, independentOnly: true, singleClaimMode: true },
      { name: "flag", label: "Flag", type: "boolean", origin: "form", value: true, source: { docCode: "TRANSCRIPT", selector: "oldest" }, independentOnly: false, singleClaimMode: false },
    ];
    expect((await post(c.id, fields)).status).toBe(302);
    expect(await variables()).toEqual(saved);
    html = await page(c.id);
    expect(html).toMatch(/name="variableOrigin"[^>]*value="context"/);
    expect(html).toMatch(/name="variableValue"[^>]*>Widgets and gears<\/textarea>/);
    expect(html).toContain('<option value="IDF" selected="">IDF</option>');
    expect(html).toContain('<option value="newest" selected="">newest</option>');
    expect(html).toContain('<option value="true" selected="">true</option>');
    expect(html).toMatch(/<input type="checkbox" name="variableSingleClaim" checked="" value="1"\/>/);
    expect(html).toMatch(/<input type="checkbox" name="variableIndependentOnly" checked="" value="1"\/>/);

    // Unchecked modes clear; an unknown source keeps what was saved; the modes hold only for a claims variable.
    expect((await post(c.id, { ...fields, variableDocCode: ["PATENT", "", "TRANSCRIPT"], variableSelector: ["random", "all", "oldest"], variableSingleClaim: "0", variableIndependentOnly: [], variableValue: ["Widgets and gears", "", "false"] })).status).toBe(302);
    expect(await variables()).toEqual([saved[0], { ...saved[1], independentOnly: false, singleClaimMode: false }, { ...saved[2], value: false }]);
    // A claims variable made a string: its modes go; the empty value is none.
    expect((await post(c.id, { ...fields, variableType: ["string", "string", "boolean"], variableValue: ["", "", ""] })).status).toBe(302);
    expect(await variables()).toEqual([
      { ...saved[0], value: null },
      { ...saved[1], type: "string", independentOnly: false, singleClaimMode: false },
      { ...saved[2], value: null },
    ]);
    expect((await post(c.id, fields)).status).toBe(302);

    // Past the contract's bounds (origin, value): refused, the draft as it was, the page shows what was typed.
    const typed = { ...fields, variableOrigin: ["o".repeat(51), "form", "form"], variableValue: ["Typed words", "", "false"], variableDocCode: ["TRANSCRIPT", "", "IDF"], variableSelector: ["oldest", "all", "newest"] };
    const refused = await post(c.id, typed);
    expect(refused.status).toBe(400);
    const refusedHtml = unescapeHtml(await refused.text());
    expect(refusedHtml).toContain(`value="${"o".repeat(51)}"`);
    expect(refusedHtml).toMatch(/name="variableValue"[^>]*>Typed words<\/textarea>/);
    expect(refusedHtml).toMatch(/<select[^>]*id="f-variables-0-source-docCode"[^>]*>.*?<option value="TRANSCRIPT" selected="">/s);
    expect(refusedHtml).toMatch(/<select[^>]*id="f-variables-0-source-selector"[^>]*>.*?<option value="oldest" selected="">/s);
    expect(refusedHtml).toMatch(/<select[^>]*id="f-variables-2-value"[^>]*>.*?<option value="false" selected="">/s);
    expect(refusedHtml).toMatch(/id="f-variables-0-origin"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*id="f-variables-0-origin"/);
    const long = await post(c.id, { ...fields, variableValue: ["x".repeat(CHAIN_LIMITS.variableValue + 1), "", "true"] });
    expect(long.status).toBe(400);
    expect(await variables()).toEqual(saved);
  });

  it("a form variable's default-value selector: where, property and value without JavaScript; refused with its problem on the field, what was typed kept; compared, exported and imported", async () => {
    const c = await chain({
      name: `Defaults ${uniq()}`,
      template: { chain: [{ id: "f", type: "form", name: "FORM 1", variables: [{ name: "title", type: "string" }, { name: "claims", type: "claims" }] }] },
    });
    let html = await page(c.id);
    const options = VARIABLE_DEFAULT_WHICH.map((w) => `<option value="${w}"${w === "" ? ' selected=""' : ""}>${E.variableDefaultFrom[w]}</option>`).join("");
    expect(html).toContain(`<label for="f-variables-0-defaultValue-which">${E.variableDefault(1, "from")}</label><select id="f-variables-0-defaultValue-which" name="variableDefaultWhich">${options}</select>`);
    expect(html).toMatch(new RegExp(`<label for="f-variables-0-defaultValue-property">${E.variableDefault(1, "property")}</label><input id="f-variables-0-defaultValue-property" name="variableDefaultProperty" maxLength="${VARIABLE_DEFAULT_LIMITS.property}" aria-describedby="f-variables-0-defaultValue-property-hint" value=""/>`));
    expect(html).toContain(`>${E.variableDefault(1, "value")}</label>`);
    expect(html).toContain(E.variableDefaultHint);
    // A claims variable takes none: empty hidden fields keep the posted lists in step.
    expect(html).not.toContain(E.variableDefault(2, "from"));
    expect(html).toContain('<input type="hidden" name="variableDefaultWhich" value=""/>');

    const fields = {
      link: "f",
      intent: "save",
      name: "FORM 1",
      variableName: ["title", "claims"],
      variableLabel: ["Title", "Claims"],
      variableType: ["string", "claims"],
      variableDefaultWhich: ["invention", ""],
      variableDefaultProperty: ["title", ""],
      variableDefaultValue: ["Untitled", ""],
    };
    const variables = async () => {
      const link = (await draftOf(c.id)).data.template.chain[0]!;
      if (link.type !== "form") throw new Error("a form link");
      return link.variables;
    };
    expect((await post(c.id, fields)).status).toBe(302);
    expect((await variables()).map((v) => v.defaultValue)).toEqual([{ which: "invention", property: "title", value: "Untitled" }, undefined]);
    html = await page(c.id);
    expect(html).toContain(`<option value="invention" selected="">${E.variableDefaultFrom.invention}</option>`);
    expect(html).toMatch(/name="variableDefaultProperty"[^>]*value="title"/);
    expect(html).toMatch(/name="variableDefaultValue"[^>]*value="Untitled"/);
    // The compare page names the change; export carries it, and import puts it into another chain's draft.
    expect(unescapeHtml(await (await admin.get(`/chains/${c.id}/compare?to=draft`)).text())).toContain('link FORM 1 variable title default none → invention title else "Untitled"');
    const exported = await (await admin.get(`/chains/${c.id}/export/download?of=draft`)).text();
    const into = await chain({ name: `Defaults imported ${uniq()}` });
    expect((await admin.post(`/chains/${into.id}/import`, { template: exported })).status).toBe(302);
    const imported = (await draftOf(into.id)).data.template.chain[0]!;
    expect(imported.type === "form" && imported.variables[0]!.defaultValue).toEqual({ which: "invention", property: "title", value: "Untitled" });

    // Refused (an invention has no such property): 400, the problem on the property field, everything typed shown.
    const refused = await post(c.id, { ...fields, variableDefaultWhich: ["invention", ""], variableDefaultProperty: ["inventor", ""], variableDefaultValue: ["Typed fallback", ""] });
    expect(refused.status).toBe(400);
    const refusedHtml = unescapeHtml(await refused.text());
    expect(refusedHtml).toContain(VARIABLE_DEFAULT_MESSAGES.inventionProperty);
    expect(refusedHtml).toMatch(/name="variableDefaultProperty"[^>]*aria-invalid="true"[^>]*aria-describedby="f-variables-0-defaultValue-property-hint f-variables-0-defaultValue-property-errors"[^>]*value="inventor"/);
    expect(refusedHtml).toMatch(/name="variableDefaultValue"[^>]*value="Typed fallback"/);
    expect((await variables())[0]!.defaultValue).toEqual({ which: "invention", property: "title", value: "Untitled" });
    // A claims variable given a default (its type just changed): the fields stay in sight with the refusal.
    const claims = await post(c.id, { ...fields, variableType: ["claims", "claims"] });
    expect(claims.status).toBe(400);
    const claimsHtml = unescapeHtml(await claims.text());
    expect(claimsHtml).toContain(VARIABLE_DEFAULT_MESSAGES.notForType);
    expect(claimsHtml).toMatch(/<select[^>]*id="f-variables-0-defaultValue-which"[^>]*aria-invalid="true"/);

    // All three emptied: the variable has no selector again, as before.
    expect((await post(c.id, { ...fields, variableDefaultWhich: ["", ""], variableDefaultProperty: ["", ""], variableDefaultValue: ["", ""] })).status).toBe(302);
    expect((await variables()).map((v) => "defaultValue" in v)).toEqual([false, false]);
  });

  it("the options row: 'Insert in section' and 'at' saved in the template's options; an unknown value is none", async () => {
    const c = await chain({ name: `Options ${uniq()}` });
    let html = await page(c.id);
    expect(html).toMatch(new RegExp(`<label for="chain-insert-in">${T.options}</label>`));
    expect(html).toMatch(new RegExp(`<label for="chain-insert-at">${T.at}</label>`));
    for (const v of ["Title", "PriorityClaim", "TechnicalField", "Background", "Summary", "BriefDescription", "DetailedDescription", "Claims", "Abstract", "Document"]) {
      expect(html).toContain(`<option value="${v}">${v}</option>`);
    }
    for (const v of ["Start", "End", "Replace"]) expect(html).toContain(`<option value="${v}">${v}</option>`);
    expect((await post(c.id, { intent: "options", insertIn: "Claims", insertAt: "End" })).status).toBe(302);
    expect((await draftOf(c.id)).data.template.options).toEqual({ insertIn: "Claims", insertAt: "End" });
    html = await page(c.id);
    expect(html).toContain('<option value="Claims" selected="">Claims</option>');
    expect(html).toContain('<option value="End" selected="">End</option>');
    expect((await post(c.id, { intent: "options", insertIn: "Appendix", insertAt: "Replace" })).status).toBe(302);
    expect((await draftOf(c.id)).data.template.options).toEqual({ insertIn: "", insertAt: "Replace" });
  });
});
