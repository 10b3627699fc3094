import { describe, expect, test } from "vitest";
import { Chain, ChainDraft, ChainInvalid, EditorOptions, HistoryVersion } from "@contract/chains";
import { CHAIN_MESSAGES } from "@contract/chains-constants";
import { ModelConfiguration } from "@contract/ai-admin";
import { Organization } from "@contract/organizations";
import { openDatabase } from "../../upstream/src/db";
import { harness, type Harness } from "./helpers";

/**
 * What the chain editor asks of the models (spec 3 §3, §4.2, §5): each model's params and functions, images only for a
 * vision model on a user message before the last user message, and old links naming a model by its deployment.
 */
async function json<T>(res: Response, status = 200): Promise<T> {
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

const org = async (h: Harness, name: string) =>
  Organization.parse(await json(await h.call("POST", "/api/organizations", { token: h.adminToken, body: { name } }), 201));

const model = async (h: Harness, name: string, organizations: string[], capability: string, extra: Record<string, unknown> = {}) =>
  ModelConfiguration.parse(
    await json(
      await h.call("POST", "/api/v2/nlp/configurations", {
        token: h.adminToken,
        body: { name, provider: "openai-compatible", capability, organizations, config: JSON.stringify({ baseURL: "http://127.0.0.1:9/v1", apiKey: "k", model: name, ...extra }) },
      }),
      201,
    ),
  );

const png = { name: "plan.png", type: "png", base64: Buffer.from("not really a png").toString("base64") };
const messages = (files: boolean[]) =>
  [
    { role: "system", content: "You are a patent attorney." },
    { role: "user", content: "Look at this." },
    { role: "assistant", content: "Seen." },
    { role: "user", content: "And now?" },
  ].map((m, i) => (files[i] ? { ...m, supplementals: { images: [], files: [png] } } : m));

describe("chains: models in the editor", () => {
  test("editor options list each allowed model's params (defaults, options) and functions", async () => {
    const h = await harness();
    const acme = await org(h, "Acme");
    const params = [
      { name: "top_p", default: "0.9", options: [] },
      { name: "style", default: "formal", options: ["formal", "plain"] },
    ];
    const m = await model(h, "gpt-v", [acme.id], "chat-with-vision", {});
    await json(await h.call("PUT", `/api/v2/nlp/configurations/${m.id}`, { token: h.adminToken, body: { params } }));
    const options = EditorOptions.parse(await json(await h.call("GET", `/api/prompts/editor-options?organizations=${acme.id}`, { token: h.adminToken })));
    expect(options.models).toEqual([{ id: m.id, name: "gpt-v", vision: true, image: false, params, functions: [] }]);
    // An image-generation model is marked, for the editor to offer it to an AI content link only.
    const painter = await model(h, "painter", [acme.id], "image-generation");
    const again = EditorOptions.parse(await json(await h.call("GET", `/api/prompts/editor-options?organizations=${acme.id}`, { token: h.adminToken })));
    expect(again.models.map((o) => [o.name, o.image])).toEqual([
      ["gpt-v", false],
      ["painter", true],
    ]);
    expect(again.models.find((o) => o.image)?.id).toBe(painter.id);
  });

  test("images: only a vision model's user messages before the last user message take them", async () => {
    const h = await harness();
    const acme = await org(h, "Acme");
    const vision = await model(h, "gpt-v", [acme.id], "chat-with-vision");
    const plain = await model(h, "gpt-p", [acme.id], "chat");
    const chain = (model: string, files: boolean[]) => ({
      name: "Images",
      organizations: [acme.id],
      template: { chain: [{ id: "p", type: "prompt", name: "PROMPT 1", model, messages: messages(files) }] },
    });
    const ok = Chain.parse(await json(await h.call("POST", "/api/prompts", { token: h.adminToken, body: chain(vision.id, [false, true]) }), 201));
    const first = ok.template.chain[0]!;
    expect(first.type === "prompt" && first.messages[1]!.supplementals?.files).toEqual([png]);
    for (const [m, files, at] of [
      [plain.id, [false, true], 1],
      [vision.id, [false, false, false, true], 3],
      [vision.id, [false, false, true], 2],
    ] as const) {
      const refused = ChainInvalid.parse(await json(await h.call("POST", "/api/prompts", { token: h.adminToken, body: chain(m, [...files]) }), 400));
      expect(refused.problems).toEqual([{ link: 0, field: `messages[${at}].supplementals.files`, message: CHAIN_MESSAGES.imagesNotAllowed }]);
    }
  });

  test("an AI content link names an image-generation model; a prompt or the chat a model that answers in text", async () => {
    const h = await harness();
    const acme = await org(h, "Acme");
    const painter = await model(h, "painter", [acme.id], "image-generation");
    const plain = await model(h, "gpt-p", [acme.id], "chat");
    const chain = (prompt: string, drawing: string, chat: string) => ({
      name: "Drawings",
      organizations: [acme.id],
      template: {
        chain: [
          { id: "p", type: "prompt", name: "PROMPT 1", model: prompt, messages: messages([]) },
          { id: "c", type: "content", name: "CONTENT 1", source: { type: "ai", value: { model: drawing, template: "Draw {{PROMPT_1_OUTPUT}}" } } },
        ],
        chat: { type: "chat", model: chat, messages: [{ role: "user", content: "More" }] },
      },
    });
    await json(await h.call("POST", "/api/prompts", { token: h.adminToken, body: chain(plain.id, painter.id, plain.id) }), 201);
    const refused = ChainInvalid.parse(await json(await h.call("POST", "/api/prompts", { token: h.adminToken, body: chain(painter.id, plain.id, painter.id) }), 400));
    expect(refused.problems).toEqual([
      { link: 0, field: "model", message: CHAIN_MESSAGES.imageModelInText },
      { link: 1, field: "source.value.model", message: CHAIN_MESSAGES.notImageModel },
      { link: null, chat: true, field: "model", message: CHAIN_MESSAGES.imageModelInText },
    ]);
  });

  test("old data: a link naming a model by its deployment reads as the model's id (chain, draft, version)", async () => {
    const h = await harness();
    const acme = await org(h, "Acme");
    const azure = await model(h, "Azure GPT", [acme.id], "chat", { deployment: "gpt4-prod" });
    const plain = await model(h, "Plain", [acme.id], "chat");
    const created = Chain.parse(
      await json(
        await h.call("POST", "/api/prompts", {
          token: h.adminToken,
          body: {
            name: "Legacy",
            organizations: [acme.id],
            template: {
              chain: [
                { id: "a", type: "prompt", name: "PROMPT 1", model: null, messages: messages([]) },
                { id: "b", type: "prompt", name: "PROMPT 2", model: null, messages: messages([]) },
                { id: "c", type: "prompt", name: "PROMPT 3", model: plain.id, messages: messages([]) },
                { id: "d", type: "content", name: "CONTENT 1", source: { type: "ai", value: { model: null, template: "t" } } },
              ],
            },
          },
        }),
        201,
      ),
    );
    await json(await h.call("PATCH", `/api/prompts/${created.id}/draft`, { token: h.adminToken, body: { data: created } }));
    // What an older system stored: a deployment name where the id goes, or a deployment field and no model.
    const db = openDatabase(h.dir);
    type Raw = { id: string; model?: string | null; deployment?: string; source?: { value: { model: string | null } } };
    const legacy = (text: string, at: (doc: Record<string, unknown>) => { chain: Raw[] }) => {
      const doc = JSON.parse(text) as Record<string, unknown>;
      const [a, b, , d] = at(doc).chain;
      a!.model = "gpt4-prod";
      b!.deployment = "Plain";
      d!.source!.value.model = "gone-model";
      return JSON.stringify(doc);
    };
    const asTemplate = (doc: Record<string, unknown>) => doc as unknown as { chain: Raw[] };
    const inDocument = (doc: Record<string, unknown>) => doc.template as { chain: Raw[] };
    const row = db.prepare("select template from chains where id = ?").get(created.id) as { template: string };
    db.prepare("update chains set template = ? where id = ?").run(legacy(row.template, asTemplate), created.id);
    const draft = db.prepare("select data from versioned_drafts where document_id = ?").get(created.id) as { data: string };
    db.prepare("update versioned_drafts set data = ? where document_id = ?").run(legacy(draft.data, inDocument), created.id);
    const version = db.prepare("select data from versioned_revisions where document_id = ? and revision = 1").get(created.id) as { data: string };
    db.prepare("update versioned_revisions set data = ? where document_id = ? and revision = 1").run(legacy(version.data, inDocument), created.id);
    db.close();

    const read = Chain.parse(await json(await h.call("GET", `/api/prompts/${created.id}`, { token: h.adminToken })));
    const drafted = ChainDraft.parse(await json(await h.call("GET", `/api/prompts/${created.id}/draft`, { token: h.adminToken })));
    const first = HistoryVersion.parse(await json(await h.call("GET", `/api/prompts/${created.id}/history/1`, { token: h.adminToken })));
    for (const doc of [read, drafted.data, first.data]) {
      const [a, b, c, d] = doc.template.chain;
      expect([a, b, c].map((l) => l?.type === "prompt" && l.model)).toEqual([azure.id, plain.id, plain.id]);
      expect(b).not.toHaveProperty("deployment");
      // A name no model's config carries stays as it was: the save names it as an unknown model.
      expect(d?.type === "content" && d.source.type === "ai" && d.source.value.model).toBe("gone-model");
    }
  });
});
