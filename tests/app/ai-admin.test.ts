import { describe, expect, it } from "vitest";
import { AI_ADMIN_MESSAGES, inUseMessage, organizationInUseMessage } from "@contract/ai-admin";
import { LLM_MESSAGES, maskSecret } from "@contract/llm";
import { AI_ADMIN, MODELS, ORGANIZATION_AI, STT_SERVICES } from "~/ai-admin/texts";
import { type FakeLlm } from "../../upstream/src/llm/fake-server";
import { withFakeLlm } from "../helpers/fake-llm";
import { appAsAdmin, browserWith, unescapeHtml, uniq } from "../helpers/app";

const { app, admin } = appAsAdmin();
const DATA = {
  newModel: "routes%2F_app.models._index",
  model: "routes%2F_app.models.%24id",
  newService: "routes%2F_app.sttservices._index",
  service: "routes%2F_app.sttservices.%24id",
  orgEdit: "routes%2F_app.organizations.%24id.edit",
};

let fake: FakeLlm;
withFakeLlm((started) => (fake = started));

const configOf = (over: Record<string, unknown> = {}) =>
  JSON.stringify({ baseURL: fake.baseURL, apiKey: fake.apiKey, model: "fake-chat", maxRetries: 0, ...over }, null, 2);

async function apiJson<T>(method: string, path: string, body?: unknown, status = 200): Promise<T> {
  const r = await app.adminApi(method, path, body);
  if (r.status !== status) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
  return (await r.json()) as T;
}
const organization = (name: string) => apiJson<{ id: string }>("POST", "/api/organizations", { name }, 201);
const model = (name: string, organizations: string[] = []) =>
  apiJson<{ id: string; config: string }>(
    "POST",
    "/api/v2/nlp/configurations",
    { name, provider: "openai-compatible", capability: "chat", config: configOf(), organizations },
    201,
  );
const service = (name: string) =>
  apiJson<{ id: string }>("POST", "/api/v2/nlp/stt", { name, sttProvider: "openai-compatible", config: configOf({ model: "whisper-1" }) }, 201);

type Reply = { error?: Record<string, string[]>; initialValue?: Record<string, unknown>; toast?: { message: string; description?: string } | null };

describe("the model form", () => {
  it("creates a model (back to /administration, the overview lists it with its organizations); the apiKey shows masked", async () => {
    const acme = await organization(`Acme ${uniq()}`);
    const name = `Fake chat ${uniq()}`;
    const saved = await admin.post("/models", {
      intent: "save",
      name,
      provider: "openai-compatible",
      capability: "chat-with-vision",
      version: "2",
      description: "",
      organizations: [acme.id],
      config: configOf(),
      "params[0].name": "tone",
      "params[0].default": "formal",
      "params[0].options": "formal; plain",
    });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe("/administration");
    const landing = unescapeHtml(await (await admin.get("/administration")).text());
    expect(landing).toContain(MODELS.toasts.created);
    expect(landing).toContain(name);
    expect(landing).toContain(MODELS.capabilities["chat-with-vision"]);
    expect(landing).toContain(AI_ADMIN.backup.link);
    const lists = await apiJson<{ models: { id: string; name: string; params: unknown; organizations: string[] }[] }>("GET", "/api/v2/nlp/configurations");
    const created = lists.models.find((m) => m.name === name)!;
    expect(created).toMatchObject({ organizations: [acme.id], params: [{ name: "tone", default: "formal", options: ["formal", "plain"] }] });
    const page = await (await admin.get(`/models/${created.id}`)).text();
    expect(page).not.toContain(fake.apiKey);
    expect(unescapeHtml(page)).toContain(maskSecret(fake.apiKey));
  });

  it("a config that does not parse is said under it, where, with everything typed kept; nothing saved", async () => {
    const config = '{\n  "baseURL": "http://x",\n  "apiKey": \n}';
    const r = await admin.post(`/models?_data=${DATA.newModel}`, { intent: "save", name: "Broken", provider: "openai-compatible", capability: "chat", config });
    expect(r.status).toBe(400);
    const reply = (await r.json()) as Reply;
    expect(reply.error?.config?.[0]).toMatch(/^Config is not valid JSON: line 4, column 1: /);
    expect(reply.initialValue).toMatchObject({ name: "Broken", config });
    const page = await admin.post("/models", { intent: "save", name: "", provider: "openai-compatible", capability: "chat", config });
    expect(page.status).toBe(400);
    const html = unescapeHtml(await page.text());
    expect(html).toContain("Config is not valid JSON: line 4, column 1");
    expect(html).toContain(AI_ADMIN_MESSAGES.nameRequired);
  });

  it("Test connection: 'The model answered in N ms', or the provider's error (401); the form as typed", async () => {
    const m = await model(`Tested ${uniq()}`);
    const fields = { intent: "test", name: "Tested", provider: "openai-compatible", capability: "chat", config: m.config };
    const ok = (await (await admin.post(`/models/${m.id}?_data=${DATA.model}`, fields)).json()) as Reply & { test: { ok: boolean; message: string } };
    expect(ok.test.ok).toBe(true);
    expect(ok.test.message).toMatch(/^The model answered in \d+ ms\.$/);
    const bad = await admin.post(`/models?_data=${DATA.newModel}`, { ...fields, config: configOf({ apiKey: "sk-wrong" }) });
    const refused = (await bad.json()) as Reply & { test: { ok: boolean; message: string } };
    expect(refused.test).toMatchObject({ ok: false, message: LLM_MESSAGES.auth(401) });
    expect(refused.initialValue).toMatchObject({ name: "Tested" });
    // Without JavaScript the page shows the result.
    const html = unescapeHtml(await (await admin.post(`/models/${m.id}`, fields)).text());
    expect(html).toMatch(/The model answered in \d+ ms\./);
  });

  it("taking an organization that uses the model for post-processing off it: 'Failed to update model' with the in-use text; it stays ticked", async () => {
    const acme = await organization(`Acme ${uniq()}`);
    const modelName = `Post ${uniq()}`;
    const m = await model(modelName, [acme.id]);
    await apiJson("PATCH", `/api/organizations/${acme.id}`, { speechPostProcessingModel: { id: m.id } });
    const r = await admin.post(`/models/${m.id}?_data=${DATA.model}`, {
      intent: "save",
      name: "Post",
      provider: "openai-compatible",
      capability: "chat",
      config: m.config,
    });
    expect(r.status).toBe(409);
    const reply = (await r.json()) as Reply;
    const orgName = (await apiJson<{ name: string }>("GET", `/api/organizations/${acme.id}`)).name;
    expect(reply.toast).toEqual({ type: "error", message: MODELS.toasts.updateFailed, description: organizationInUseMessage(orgName) });
    expect(reply.toast?.description).toContain(AI_ADMIN_MESSAGES.organizationInUse(orgName));
    expect(reply.initialValue?.organizations).toEqual([acme.id]);
    // Deleting it: 'Failed to delete model', in use.
    const del = await admin.post(`/models/${m.id}?_data=${DATA.model}`, { intent: "delete", confirmed: "yes" });
    expect(((await del.json()) as Reply).toast).toEqual({ type: "error", message: MODELS.toasts.deleteFailed, description: inUseMessage(modelName, [orgName]) });
  });

  it("deletes a model after the confirmation, back to /administration", async () => {
    const m = await model(`Doomed ${uniq()}`);
    const ask = await admin.post(`/models/${m.id}?_data=${DATA.model}`, { intent: "delete" });
    expect(await ask.json()).toMatchObject({ confirm: "delete" });
    const gone = await admin.post(`/models/${m.id}`, { intent: "delete", confirmed: "yes" });
    expect(gone.headers.get("Location")).toBe("/administration");
    expect((await app.adminApi("GET", `/api/v2/nlp/configurations/${m.id}`)).status).toBe(404);
  });
});

describe("the speech-to-text service form", () => {
  it("creates, and a service in use cannot be deleted: 'Failed to delete speech to text service' listing the organizations", async () => {
    const name = `Whisper ${uniq()}`;
    const created = await admin.post("/sttservices", { intent: "save", name, sttProvider: "openai-compatible", description: "Dictation", config: configOf({ model: "whisper-1" }) });
    expect(created.headers.get("Location")).toBe("/administration");
    const list = await apiJson<{ id: string; name: string }[]>("GET", "/api/v2/nlp/stt");
    const s = list.find((x) => x.name === name)!;
    const orgName = `Acme ${uniq()}`;
    const acme = await organization(orgName);
    await apiJson("PATCH", `/api/organizations/${acme.id}`, { enableSpeechToText: true, speechToTextService: { id: s.id } });
    const del = await admin.post(`/sttservices/${s.id}?_data=${DATA.service}`, { intent: "delete", confirmed: "yes" });
    expect(del.status).toBe(409);
    expect(((await del.json()) as Reply).toast).toEqual({
      type: "error",
      message: STT_SERVICES.toasts.deleteFailed,
      description: inUseMessage(name, [orgName]),
    });
    const update = await admin.post(`/sttservices/${s.id}?_data=${DATA.service}`, { intent: "save", name: "", sttProvider: "openai-compatible", config: "{" });
    expect(((await update.json()) as Reply).error).toMatchObject({ name: [AI_ADMIN_MESSAGES.nameRequired], config: [expect.stringMatching(/^Config is not valid JSON/)] });
    expect(STT_SERVICES.toasts.updateFailed).toBe("Failed to update speech to text service");
    expect(MODELS.toasts.createFailed).toBe("Failed to create model");
  });

  it("an update the upstream refuses shows 'Failed to update speech to text service' with the server's message", async () => {
    const s = await service(`Svc ${uniq()}`);
    const r = await admin.post(`/sttservices/${s.id}?_data=${DATA.service}`, { intent: "save", name: "Svc", sttProvider: "carrier-pigeon", config: configOf() });
    expect(((await r.json()) as Reply).toast).toEqual({
      type: "error",
      message: STT_SERVICES.toasts.updateFailed,
      description: AI_ADMIN_MESSAGES.unknownProvider("carrier-pigeon"),
    });
  });
});

describe("the organization form's AI fields", () => {
  it("sets speech to text, its service, the post-processing model and the allowed models in one save", async () => {
    const acme = await organization(`Acme ${uniq()}`);
    const m = await model(`Allowed ${uniq()}`);
    const s = await service(`Svc ${uniq()}`);
    const form = unescapeHtml(await (await admin.get(`/organizations/${acme.id}/edit`)).text());
    expect(form).toContain(ORGANIZATION_AI.enable);
    const missing = await admin.post(`/organizations/${acme.id}/edit?_data=${DATA.orgEdit}`, { intent: "update", name: "Acme", enableSpeechToText: "on" });
    expect(((await missing.json()) as Reply).error).toEqual({ speechToTextService: [ORGANIZATION_AI.serviceRequired] });
    const saved = await admin.post(`/organizations/${acme.id}/edit`, {
      intent: "update",
      name: "Acme",
      enableSpeechToText: "on",
      speechToTextService: s.id,
      speechPostProcessingModel: m.id,
      models: [m.id],
    });
    expect(saved.status).toBe(302);
    expect(await apiJson("GET", `/api/organizations/${acme.id}`)).toMatchObject({
      enableSpeechToText: true,
      speechToTextService: { id: s.id },
      speechPostProcessingModel: { id: m.id },
      models: [m.id],
    });
    // No model ticked on update: the list is sent (always), and the in-use rule refuses it.
    const refused = await admin.post(`/organizations/${acme.id}/edit?_data=${DATA.orgEdit}`, { intent: "update", name: "Acme", enableSpeechToText: "on", speechToTextService: s.id, speechPostProcessingModel: m.id });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as Reply).toast?.description).toContain(organizationInUseMessage("Acme"));
  });

  it("without administration: no AI fields, and the name still saves", async () => {
    const acme = await organization(`Acme ${uniq()}`);
    const manager = await browserWith(app, ["organizations"]);
    const html = unescapeHtml(await (await manager.get(`/organizations/${acme.id}/edit`)).text());
    expect(html).not.toContain(ORGANIZATION_AI.enable);
    const saved = await manager.post(`/organizations/${acme.id}/edit`, { intent: "update", name: "Renamed" });
    expect(saved.status).toBe(302);
  });
});

describe("permissions", () => {
  it("every page is 'Nothing here :(' (404) without administration; administration.read sees the landing only", async () => {
    const m = await model(`Hidden ${uniq()}`);
    const s = await service(`Hidden ${uniq()}`);
    const pages = ["/administration", "/models", `/models/${m.id}`, "/sttservices", `/sttservices/${s.id}`];
    const nobody = await browserWith(app, ["organizations"]);
    for (const page of pages) {
      const r = await nobody.get(page);
      expect([page, r.status]).toEqual([page, 404]);
      expect(await r.text()).toContain("Nothing here :(");
    }
    const post = await nobody.post("/models", { intent: "save", name: "X", provider: "openai-compatible", capability: "chat", config: configOf() });
    expect(post.status).toBe(404);
    const reader = await browserWith(app, ["administration.read"]);
    const landing = await reader.get("/administration");
    expect(landing.status).toBe(200);
    const html = unescapeHtml(await landing.text());
    expect(html).not.toContain('href="/models"');
    expect(html).not.toContain(fake.apiKey);
    for (const page of pages.slice(1)) expect([page, (await reader.get(page)).status]).toEqual([page, 404]);
  });
});
