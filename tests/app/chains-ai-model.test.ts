import { describe, expect, it } from "vitest";
import { RUN_MESSAGES } from "@contract/chain-runs";
import { CHAIN_MESSAGES } from "@contract/chains-constants";
import { RUNS } from "~/chains/run/texts";
import { fakePng, type FakeLlm } from "../../upstream/src/llm/fake-server";
import { withFakeLlm } from "../helpers/fake-llm";
import { chainsOf, draftVersionOf } from "../helpers/chains";
import { appAsAdmin, uniq, unescapeHtml } from "../helpers/app";

/**
 * An AI content link on the chain page and the run page: the chain page's model selects (spec 3 §3 model configuration "image-generation"): an AI content link offers only
 * the image-generation models the chain's organizations allow, a prompt link only the others; its run's page shows the
 * image generated (against the fake provider), not its base64.
 */
const { app, admin } = appAsAdmin();
const { create: chain, org, model } = chainsOf(app);
let fake: FakeLlm;
withFakeLlm((started) => (fake = started));

/** The option labels of the select named `name` in `html`. */
const optionsOf = (html: string, name: string) => {
  const select = new RegExp(`<select[^>]*name="${name}"[^>]*>([\\s\\S]*?)</select>`).exec(html);
  expect(select).not.toBeNull();
  return [...select![1]!.matchAll(/<option[^>]*>([^<]*)<\/option>/g)].map((m) => m[1]);
};

describe("chain editor: the model an AI content link may use", () => {
  it("an AI content link's select lists the image-generation models only; a prompt link's the chat models only", async () => {
    const acme = await org(`Acme ${uniq()}`);
    const chat = `chat-${uniq()}`;
    const painter = `painter-${uniq()}`;
    const chatId = await model(chat, [acme], "chat");
    await model(painter, [acme], "image-generation");
    const c = await chain({
      name: `Images ${uniq()}`,
      organizations: [acme],
      template: {
        chain: [
          { id: "p", type: "prompt", name: "PROMPT 1", messages: [{ role: "user", content: "Describe {{topic}}" }] },
          { id: "c", type: "content", name: "CONTENT 1", source: { type: "ai", value: { template: "Draw {{PROMPT_1_OUTPUT}}" } } },
        ],
      },
    });
    const html = await (await admin.get(`/chains/${c.id}`)).text();
    const ai = optionsOf(html, "aiModel");
    expect(ai).toContain(painter);
    expect(ai).not.toContain(chat);
    const prompt = optionsOf(html, "model");
    expect(prompt).toContain(chat);
    expect(prompt).not.toContain(painter);

    // A chat model posted for it anyway (an old page, a crafted post) is refused on the model's field, what was typed kept.
    const refused = await admin.postMultipart(`/chains/${c.id}?index`, {
      draftVersion: draftVersionOf(unescapeHtml(html)),
      link: "c",
      name: "CONTENT 1",
      sourceType: "ai",
      aiModel: chatId,
      aiTemplate: "Draw it again",
      intent: "save",
    });
    expect(refused.status).toBe(400);
    const after = unescapeHtml(await refused.text());
    expect(after).toContain(CHAIN_MESSAGES.notImageModel);
    expect(after).toContain("Draw it again");
  });

  it("a run of an AI content link shows the image generated, without JavaScript", async () => {
    const acme = await org(`Acme ${uniq()}`);
    const res = await app.adminApi("POST", "/api/v2/nlp/configurations", {
      name: `painter-${uniq()}`,
      provider: "openai-compatible",
      capability: "image-generation",
      organizations: [acme],
      config: JSON.stringify({ baseURL: fake.baseURL, apiKey: fake.apiKey, model: "fake-image", timeoutMs: 10_000 }),
    });
    expect(res.status).toBe(201);
    const c = await chain({
      name: `Painting ${uniq()}`,
      organizations: [acme],
      template: { chain: [{ id: "c", type: "content", name: "CONTENT 1", source: { type: "ai", value: { template: "A hinge, exploded view" } } }] },
    });
    const started = await admin.post(`/chains/${c.id}/runs`, {});
    expect(started.status).toBe(302);
    const url = started.headers.get("Location")!;
    let html = "";
    for (let i = 0; i < 200 && !html.includes(RUNS.status.finished); i++) {
      if (i) await new Promise((r) => setTimeout(r, 25));
      html = unescapeHtml(await (await admin.get(url)).text());
    }
    expect(html).toContain(RUNS.status.finished);
    const png = fakePng("A hinge, exploded view").toString("base64");
    expect(html).toContain(`<img class="run-image" src="data:image/png;base64,${png}" alt="CONTENT 1 1.png"/>`);
    // The output is the images' text (none here), never the JSON of their bytes, nor 'an empty string was generated'.
    const item = /<article class="run-item"[\s\S]*?<\/article>/.exec(html)![0];
    expect(item.split(png)).toHaveLength(2);
    expect(item).not.toContain(RUN_MESSAGES.empty);
  });
});
