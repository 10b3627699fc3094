import { describe, expect, it } from "vitest";
import { botChoices } from "~/people/bots";
import { PEOPLE } from "~/people/texts";
import { appAsAdmin, uniq } from "../helpers/app";

const { app, admin } = appAsAdmin();

const escape = (s: string) => s.replace(/"/g, "&quot;");

async function createBot(email: string): Promise<string> {
  const r = await admin.post("/people/new", {
    intent: "save", firstName: "Robo", lastName: "Bot", email, password: "secret-123", isBot: "on",
  });
  expect(r.status).toBe(302);
  const list = await app.context.upstream(`/api/auth/users?q=${encodeURIComponent(email)}`, {
    headers: { Authorization: `Bearer ${await app.adminToken()}` },
  });
  return ((await list.json()) as { items: Array<{ id: string }> }).items[0]!.id;
}

async function upload(id: string, script: string, content: string, message: string) {
  const form = new FormData();
  form.set("intent", "upload");
  form.set("uploadScript", script);
  form.set("message", message);
  form.set("file", new File([content], "main.js", { type: "text/javascript" }));
  return admin.send(new Request(`http://localhost/people/${id}`, { method: "POST", body: form, headers: { Cookie: admin.header() } }));
}

describe("bot choices (spec 1 §3, §4)", () => {
  it("picks the script named like the email's local part, case-insensitively", () => {
    expect(botChoices.candidateOf(["alpha", "Reporter"], "REPORTER@x.io")).toBe("Reporter");
    expect(botChoices.candidateOf(["alpha"], "reporter@x.io")).toBeNull();
    expect(botChoices.candidateOf(["alpha"], "")).toBeNull();
  });
  it("offers only keys ending in js, the version parsed from the key", () => {
    const v = (Key: string) => ({ Key, Metadata: { message: "m", date: "2026-01-01T00:00:00.000Z" } });
    expect(botChoices.offered([v("r/v3/main.js"), v("r/v2/conf.json"), v("r/v1/old.mjs")])).toEqual([
      { key: "r/v3/main.js", version: 3, message: "m", date: "2026-01-01T00:00:00.000Z" },
      { key: "r/v1/old.mjs", version: 1, message: "m", date: "2026-01-01T00:00:00.000Z" },
    ]);
  });
});

describe("bots", () => {
  it("uploads script versions on the bot edit screen, then offers the candidate with its versions on create", async () => {
    const local = `rep${uniq()}`;
    const first = await createBot(`${local}@one.test`);
    const up = await upload(first, local, "console.log(1)", "first version");
    expect(up.status).toBe(302);
    expect(up.headers.get("Location")).toBe(`/people/${first}`);
    expect((await upload(first, local, "console.log(2)", "second version")).status).toBe(302);
    const edit = await (await admin.get(`/people/${first}`)).text();
    expect(edit).toContain(`value="${local}/v2/main.js" selected=""`);
    expect(edit).toContain(PEOPLE.bot.uploadTitle);

    // Without JavaScript: Is Bot on + "Load scripts and versions" → candidate, hint, first version pre-selected.
    const round = await admin.post("/people/new", {
      intent: "bot", firstName: "Kept", lastName: "Typed", email: `${local.toUpperCase()}@two.test`, password: "secret-123", isBot: "on",
    });
    const html = await round.text();
    expect(html).toContain(escape(PEOPLE.bot.hint(local)));
    expect(html).toContain(`value="${local}" selected=""`);
    expect(html).toContain(`value="${local}/v2/main.js" selected=""`);
    expect(html).toContain('value="Kept"');

    // The resource route the JavaScript form uses answers the same.
    const json = (await (await admin.get(`/people/bot-scripts?email=${local}%40x.test&preselect=1`)).json()) as {
      script: string; scriptKey: string; candidate: string; versions: Array<{ version: number; message: string }>;
    };
    expect(json).toMatchObject({ script: local, candidate: local, scriptKey: `${local}/v2/main.js` });
    expect(json.versions.map((v) => [v.version, v.message])).toEqual([[2, "second version"], [1, "first version"]]);

    const saved = await admin.post("/people/new", {
      intent: "save", firstName: "Two", lastName: "Bot", email: `${local}@two.test`, password: "secret-123",
      isBot: "on", script: local, scriptKey: `${local}/v1/main.js`,
    });
    expect(saved.status).toBe(302);
    const list = await (await admin.get(`/people?q=${local}%40two.test`)).text();
    expect(list).toContain(PEOPLE.botTitle);
  });

  it("switching Is Bot off clears script and version; the edit hint adds Click update to save it.", async () => {
    const local = `cand${uniq()}`;
    const owner = await createBot(`${local}@one.test`);
    await upload(owner, local, "x", "m");
    const other = await createBot(`${local}@two.test`);
    // The bot's key is set by the upload on the first; the second has none → candidate on edit.
    const round = await admin.post(`/people/${other}`, { intent: "bot", firstName: "a", lastName: "b", isBot: "on" });
    expect(await round.text()).toContain(escape(PEOPLE.bot.hintEdit(local)));
    const off = await admin.post(`/people/${other}`, { intent: "bot", firstName: "a", lastName: "b", script: local });
    const html = await off.text();
    expect(html).not.toContain('id="bot-script"');
    const update = await admin.post(`/people/${other}`, {
      intent: "update", firstName: "a", lastName: "b", script: local, scriptKey: `${local}/v1/main.js`,
    });
    expect(update.status).toBe(302);
    const user = await app.context.upstream(`/api/auth/users/${other}`, { headers: { Authorization: `Bearer ${await app.adminToken()}` } });
    expect(((await user.json()) as { scriptKey: string | null }).scriptKey).toBeNull();
  });

  it("refuses an upload without a file, and without users.write", async () => {
    const id = await createBot(`nofile${uniq()}@x.test`);
    const form = new FormData();
    form.set("intent", "upload");
    const r = await admin.send(new Request(`http://localhost/people/${id}`, { method: "POST", body: form, headers: { Cookie: admin.header() } }));
    expect(r.status).toBe(400);
    expect(await r.text()).toContain(PEOPLE.bot.fileRequired);
    const email = `rd-${uniq()}@test.local`;
    await app.createUser(email, ["users.read"]);
    const reader = app.browser();
    await reader.signIn(email, "secret-123");
    expect((await reader.post(`/people/${id}`, { intent: "upload" })).status).toBe(404);
    expect((await app.browser().get("/people/bot-scripts")).status).toBe(302);
  });
});
