import { describe, expect, it } from "vitest";
import { chainsOf } from "../helpers/chains";
import { appAsAdmin, uniq } from "../helpers/app";

/**
 * The chain page's model selects (spec 3 §3 model configuration "image-generation"): an AI content link offers only
 * the image-generation models the chain's organizations allow, a prompt link only the others.
 */
const { app, admin } = appAsAdmin();
const { create: chain, org, model } = chainsOf(app);

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
    await model(chat, [acme], "chat");
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
  });
});
