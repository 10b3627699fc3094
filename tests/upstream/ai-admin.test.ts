import { describe, expect, test } from "vitest";
import {
  AI_ADMIN_MESSAGES,
  ConfigurationLists,
  ConnectionTest,
  ModelConfiguration,
  SttService,
  inUseMessage,
  organizationInUseMessage,
} from "@contract/ai-admin";
import { LLM_MESSAGES, maskSecret } from "@contract/llm";
import { Organization } from "@contract/organizations";
import { NotConfigured, createAiAdmin } from "../../upstream/src/ai-admin/service";
import { openDatabase } from "../../upstream/src/db";
import { type FakeLlm } from "../../upstream/src/llm/fake-server";
import { withFakeLlm } from "../helpers/fake-llm";
import { START, harness, message, tempDir, type Harness } from "./helpers";

let fake: FakeLlm;
withFakeLlm((started) => (fake = started));

const configOf = (over: Record<string, unknown> = {}) =>
  JSON.stringify({ baseURL: fake.baseURL, apiKey: fake.apiKey, model: "fake-chat", maxRetries: 0, ...over }, null, 2);

async function json<T>(res: Response, status = 200): Promise<T> {
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

async function org(h: Harness, name: string) {
  return Organization.parse(await json(await h.call("POST", "/api/organizations", { token: h.adminToken, body: { name } }), 201));
}

async function model(h: Harness, body: Record<string, unknown> = {}) {
  const res = await h.call("POST", "/api/v2/nlp/configurations", {
    token: h.adminToken,
    body: { name: "Fake chat", provider: "openai-compatible", capability: "chat", config: configOf(), ...body },
  });
  return ModelConfiguration.parse(await json(res, 201));
}

async function service(h: Harness, name = "Whisper") {
  const res = await h.call("POST", "/api/v2/nlp/stt", {
    token: h.adminToken,
    body: { name, sttProvider: "openai-compatible", config: configOf({ model: "whisper-1" }) },
  });
  return SttService.parse(await json(res, 201));
}

describe("models", () => {
  test("create, read, update, delete; the apiKey never answered in full; the masked key sent back keeps it", async () => {
    const h = await harness();
    const acme = await org(h, "Acme");
    const m = await model(h, { organizations: [acme.id], version: "1", description: "Drafts", params: [{ name: "tone", default: "formal", options: ["formal", "plain"] }] });
    expect(m).toMatchObject({ name: "Fake chat", capability: "chat", version: "1", organizations: [acme.id], createdBy: "admin@example.com" });
    expect(m.params).toEqual([{ name: "tone", default: "formal", options: ["formal", "plain"] }]);
    expect(m.config).not.toContain(fake.apiKey);
    expect(JSON.parse(m.config)).toMatchObject({ apiKey: maskSecret(fake.apiKey), model: "fake-chat" });

    const lists = ConfigurationLists.parse(await json(await h.call("GET", "/api/v2/nlp/configurations", { token: h.adminToken })));
    expect(lists.providers.map((p) => p.name)).toEqual(["openai-compatible"]);
    expect(lists.models.map((x) => x.id)).toEqual([m.id]);
    expect(JSON.stringify(lists)).not.toContain(fake.apiKey);
    expect(lists.permissions).toEqual([{ organization: acme.id, model: m.id }]);
    expect(lists.contentSources[0]).toBe("file");

    // Saved with the masked config as answered: the stored key stays and the model still answers.
    const put = await h.call("PUT", `/api/v2/nlp/configurations/${m.id}`, { token: h.adminToken, body: { name: "Renamed", config: m.config } });
    expect(ModelConfiguration.parse(await json(put)).name).toBe("Renamed");
    const tested = ConnectionTest.parse(await json(await h.call("POST", `/api/v2/nlp/configurations/${m.id}/test`, { token: h.adminToken })));
    expect(tested).toMatchObject({ ok: true });
    expect(tested.message).toMatch(/^The model answered in \d+ ms\.$/);

    // A new key replaces it: the provider now refuses.
    await json(await h.call("PUT", `/api/v2/nlp/configurations/${m.id}`, { token: h.adminToken, body: { config: configOf({ apiKey: "sk-wrong-key" }) } }));
    const refused = ConnectionTest.parse(await json(await h.call("POST", `/api/v2/nlp/configurations/${m.id}/test`, { token: h.adminToken })));
    expect(refused).toEqual({ ok: false, failure: "auth", message: LLM_MESSAGES.auth(401) });

    expect((await h.call("DELETE", `/api/v2/nlp/configurations/${m.id}`, { token: h.adminToken })).status).toBe(204);
    const gone = await h.call("GET", `/api/v2/nlp/configurations/${m.id}`, { token: h.adminToken });
    expect(gone.status).toBe(404);
    expect(await message(gone)).toBe(AI_ADMIN_MESSAGES.modelNotFound);
    expect(Organization.parse(await json(await h.call("GET", `/api/organizations/${acme.id}`, { token: h.adminToken }))).models).toEqual([]);
  });

  test("the config must parse (where it does not is said) and name the provider's keys; unknown provider and organizations", async () => {
    const h = await harness();
    const post = (body: Record<string, unknown>) =>
      h.call("POST", "/api/v2/nlp/configurations", {
        token: h.adminToken,
        body: { name: "M", provider: "openai-compatible", capability: "chat", config: configOf(), ...body },
      });
    const broken = await post({ config: '{\n  "baseURL": \n}' });
    expect(broken.status).toBe(400);
    expect(await message(broken)).toMatch(/^Config is not valid JSON: line 3, column 1: /);
    const noKey = await post({ config: JSON.stringify({ baseURL: fake.baseURL, model: "x" }) });
    expect(await message(noKey)).toBe("Config: apiKey is required");
    expect(await message(await post({ provider: "acme-ai" }))).toBe(AI_ADMIN_MESSAGES.unknownProvider("acme-ai"));
    expect(await message(await post({ organizations: ["nope"] }))).toBe(AI_ADMIN_MESSAGES.unknownOrganizations(["nope"]));
    expect(await message(await post({ name: "  " }))).toBe(`name: ${AI_ADMIN_MESSAGES.nameRequired}`);
    expect(await message(await post({ capability: "poetry" }))).toMatch(/^capability: /);
  });

  test("Test connection of an unsaved config: ok, the provider's 401, the masked key of a saved model", async () => {
    const h = await harness();
    const test = async (body: Record<string, unknown>) =>
      ConnectionTest.parse(await json(await h.call("POST", "/api/v2/nlp/configurations/test", { token: h.adminToken, body })));
    expect(await test({ config: configOf() })).toMatchObject({ ok: true });
    expect(await test({ config: configOf({ apiKey: "sk-nope" }) })).toEqual({ ok: false, failure: "auth", message: LLM_MESSAGES.auth(401) });
    expect(await test({ config: "{" })).toMatchObject({ ok: false, message: expect.stringMatching(/^Config is not valid JSON/) });
    const m = await model(h);
    expect(await test({ id: m.id, config: m.config })).toMatchObject({ ok: true });
    expect(fake.requests.at(-1)?.body).toMatchObject({ model: "fake-chat", max_tokens: 1 });
  });
});

describe("in-use rules (spec 3 §5) with §8's texts", () => {
  test("an organization using the model for speech post-processing cannot be taken from it, from either side", async () => {
    const h = await harness();
    const acme = await org(h, "Acme");
    const globex = await org(h, "Globex");
    const m = await model(h, { organizations: [acme.id, globex.id] });
    const s = await service(h);
    const patched = await h.call("PATCH", `/api/organizations/${acme.id}`, {
      token: h.adminToken,
      body: { enableSpeechToText: true, speechToTextService: { id: s.id }, speechPostProcessingModel: { id: m.id } },
    });
    expect(Organization.parse(await json(patched))).toMatchObject({ enableSpeechToText: true, speechToTextService: { id: s.id }, models: [m.id] });

    const fromModel = await h.call("PUT", `/api/v2/nlp/configurations/${m.id}`, { token: h.adminToken, body: { organizations: [globex.id], name: "Changed" } });
    expect(fromModel.status).toBe(409);
    expect(await message(fromModel)).toBe(organizationInUseMessage("Acme"));
    expect(organizationInUseMessage("Acme")).toContain("Cannot delete Acme from this model because it is in use");
    const kept = ModelConfiguration.parse(await json(await h.call("GET", `/api/v2/nlp/configurations/${m.id}`, { token: h.adminToken })));
    expect(kept).toMatchObject({ name: "Fake chat", organizations: [acme.id, globex.id] });

    const link = await h.call("POST", `/api/v2/nlp/permissions/models/${m.id}/organizations`, { token: h.adminToken, body: { organizations: [] } });
    expect(link.status).toBe(409);
    const orgSide = await h.call("POST", `/api/v2/nlp/permissions/organizations/${acme.id}/models`, { token: h.adminToken, body: { models: [] } });
    expect(orgSide.status).toBe(409);
    expect(await message(orgSide)).toBe(organizationInUseMessage("Acme"));
    const orgPatch = await h.call("PATCH", `/api/organizations/${acme.id}`, { token: h.adminToken, body: { models: [] } });
    expect(await message(orgPatch)).toBe(organizationInUseMessage("Acme"));
    // Globex does not use it: it may go.
    expect(await json<string[]>(await h.call("POST", `/api/v2/nlp/permissions/models/${m.id}/organizations`, { token: h.adminToken, body: { organizations: [acme.id] } }))).toEqual([acme.id]);
    // Changing the post-processing model and dropping the old one at once is allowed.
    const other = await model(h, { name: "Other", organizations: [acme.id] });
    const both = await h.call("PATCH", `/api/organizations/${acme.id}`, { token: h.adminToken, body: { speechPostProcessingModel: { id: other.id }, models: [other.id] } });
    expect(Organization.parse(await json(both)).models).toEqual([other.id]);
    // The model in use cannot be deleted.
    const del = await h.call("DELETE", `/api/v2/nlp/configurations/${other.id}`, { token: h.adminToken });
    expect(del.status).toBe(409);
    expect(await message(del)).toBe(inUseMessage("Other", ["Acme"]));
  });

  test("a service used by an organization with speech to text enabled cannot be deleted; listing the organizations", async () => {
    const h = await harness();
    const acme = await org(h, "Acme");
    const beta = await org(h, "Beta");
    const s = await service(h);
    for (const o of [acme, beta]) {
      await json(await h.call("PATCH", `/api/organizations/${o.id}`, { token: h.adminToken, body: { enableSpeechToText: true, speechToTextService: { id: s.id } } }));
    }
    const refused = await h.call("DELETE", `/api/v2/nlp/stt/${s.id}`, { token: h.adminToken });
    expect(refused.status).toBe(409);
    expect(await message(refused)).toBe(inUseMessage("Whisper", ["Acme", "Beta"]));
    expect(inUseMessage("Whisper", ["Acme", "Beta"])).toMatch(/^Cannot delete Whisper because it is in use\. .*Acme, Beta/);
    // Speech to text off: the service may go, and the organizations forget it.
    for (const o of [acme, beta]) {
      await json(await h.call("PATCH", `/api/organizations/${o.id}`, { token: h.adminToken, body: { enableSpeechToText: false } }));
    }
    expect((await h.call("DELETE", `/api/v2/nlp/stt/${s.id}`, { token: h.adminToken })).status).toBe(204);
    expect(Organization.parse(await json(await h.call("GET", `/api/organizations/${acme.id}`, { token: h.adminToken }))).speechToTextService).toBeNull();
  });

  test("an organization's AI fields name a service and models that exist", async () => {
    const h = await harness();
    const acme = await org(h, "Acme");
    const bad = await h.call("PATCH", `/api/organizations/${acme.id}`, { token: h.adminToken, body: { speechToTextService: { id: "nope" } } });
    expect(bad.status).toBe(400);
    expect(await message(bad)).toBe(AI_ADMIN_MESSAGES.unknownService("nope"));
    const badModels = await h.call("POST", `/api/v2/nlp/permissions/organizations/${acme.id}/models`, { token: h.adminToken, body: { models: ["nope"] } });
    expect(await message(badModels)).toBe(AI_ADMIN_MESSAGES.unknownModel("nope"));
  });
});

describe("services", () => {
  test("CRUD, providers, masked config", async () => {
    const h = await harness();
    const s = await service(h);
    expect(s.config).not.toContain(fake.apiKey);
    expect(await json(await h.call("GET", "/api/v2/nlp/stt/providers", { token: h.adminToken }))).toEqual([{ name: "openai-compatible", functions: [] }]);
    const put = await h.call("PUT", `/api/v2/nlp/stt/${s.id}`, { token: h.adminToken, body: { description: "Dictation", config: s.config } });
    expect(SttService.parse(await json(put)).description).toBe("Dictation");
    const list = SttService.array().parse(await json(await h.call("GET", "/api/v2/nlp/stt", { token: h.adminToken })));
    expect(list.map((x) => x.name)).toEqual(["Whisper"]);
    const bad = await h.call("PUT", `/api/v2/nlp/stt/${s.id}`, { token: h.adminToken, body: { config: "[1," } });
    expect(await message(bad)).toMatch(/^Config is not valid JSON: line 1, column 4/);
    expect((await h.call("DELETE", `/api/v2/nlp/stt/${s.id}`, { token: h.adminToken })).status).toBe(204);
    expect(await message(await h.call("GET", `/api/v2/nlp/stt/${s.id}`, { token: h.adminToken }))).toBe(AI_ADMIN_MESSAGES.serviceNotFound);
  });
});

describe("permissions", () => {
  test("403 from every endpoint without administration; administration.read reads the landing's lists only", async () => {
    const h = await harness();
    const acme = await org(h, "Acme");
    const m = await model(h, { organizations: [acme.id] });
    const s = await service(h);
    const user = await h.createUser({ email: "reader@example.com" });
    const setPermissions = (permissions: string[]) =>
      h.call("PATCH", `/api/auth/users/${user.id}`, { token: h.adminToken, body: { id: user.id, permissions } });
    const calls: [string, string, unknown?][] = [
      ["GET", "/api/v2/nlp/configurations"],
      ["POST", "/api/v2/nlp/configurations", { name: "X", provider: "openai-compatible", capability: "chat", config: configOf() }],
      ["POST", "/api/v2/nlp/configurations/test", { config: configOf() }],
      ["GET", `/api/v2/nlp/configurations/${m.id}`],
      ["PUT", `/api/v2/nlp/configurations/${m.id}`, { name: "Y" }],
      ["PATCH", `/api/v2/nlp/configurations/${m.id}`, { name: "Y" }],
      ["DELETE", `/api/v2/nlp/configurations/${m.id}`],
      ["POST", `/api/v2/nlp/configurations/${m.id}/test`],
      ["GET", "/api/v2/nlp/stt"],
      ["GET", "/api/v2/nlp/stt/providers"],
      ["POST", "/api/v2/nlp/stt", { name: "X", sttProvider: "openai-compatible", config: configOf() }],
      ["GET", `/api/v2/nlp/stt/${s.id}`],
      ["PUT", `/api/v2/nlp/stt/${s.id}`, { name: "Y" }],
      ["DELETE", `/api/v2/nlp/stt/${s.id}`],
      ["GET", "/api/v2/nlp/permissions"],
      ["GET", `/api/v2/nlp/permissions/organizations/${acme.id}/models`],
      ["POST", `/api/v2/nlp/permissions/organizations/${acme.id}/models`, { models: [] }],
      ["GET", `/api/v2/nlp/permissions/models/${m.id}/organizations`],
      ["POST", `/api/v2/nlp/permissions/models/${m.id}/organizations`, { organizations: [] }],
    ];
    await setPermissions(["organizations"]);
    let token = await h.login("reader@example.com", "secret1");
    for (const [method, url, body] of calls) {
      expect([method, url, (await h.call(method, url, { token, body })).status]).toEqual([method, url, 403]);
    }
    // An organizations manager without administration changes names, never the AI fields.
    const aiField = await h.call("PATCH", `/api/organizations/${acme.id}`, { token, body: { enableSpeechToText: true } });
    expect(aiField.status).toBe(403);
    expect(await message(aiField)).toBe(AI_ADMIN_MESSAGES.aiFieldsForbidden);
    expect((await h.call("PATCH", `/api/organizations/${acme.id}`, { token, body: { name: "Acme Corp" } })).status).toBe(200);

    await setPermissions(["administration.read"]);
    token = await h.login("reader@example.com", "secret1");
    const readable = new Set(["GET /api/v2/nlp/configurations", "GET /api/v2/nlp/stt", "GET /api/v2/nlp/stt/providers", "GET /api/v2/nlp/permissions", `GET /api/v2/nlp/permissions/organizations/${acme.id}/models`, `GET /api/v2/nlp/permissions/models/${m.id}/organizations`]);
    for (const [method, url, body] of calls) {
      const status = (await h.call(method, url, { token, body })).status;
      expect([method, url, status]).toEqual([method, url, readable.has(`${method} ${url}`) ? 200 : 403]);
    }
  });
});

describe("the adapter for a model an organization may use (the chains' entry)", () => {
  test("the allowed model, else 'no model configured'", async () => {
    const dir = tempDir();
    const db = openDatabase(dir);
    try {
      const ai = createAiAdmin(db, () => START);
      db.prepare("insert into organizations (id, name, data, created_at, updated_at) values ('o1', 'Acme', '{}', 'x', 'x'), ('o2', 'Beta', '{}', 'x', 'x')").run();
      expect(() => ai.modelFor("o1")).toThrow(NotConfigured);
      expect(() => ai.modelFor("o1")).toThrow(LLM_MESSAGES.notConfigured);
      const m = ai.models.create({ name: "Chat", provider: "openai-compatible", capability: "chat", version: "", description: "", config: configOf(), params: [] }, null);
      ai.permissions.setForModel(m.id, ["o1"]);
      expect(ai.modelFor("o1").config.model).toBe("fake-chat");
      expect(ai.modelFor("o1", m.id).config.apiKey).toBe(fake.apiKey);
      expect(() => ai.modelFor("o2", m.id)).toThrow(LLM_MESSAGES.notConfigured);
      expect(() => ai.modelFor("o1", null, { vision: true })).toThrow(NotConfigured);
      expect(() => ai.speechToTextFor("o1")).toThrow(LLM_MESSAGES.sttNotConfigured);
    } finally {
      db.close();
    }
  });
});
