import { describe, expect, it } from "vitest";
import { MASK, validateRows, stripSettingKey } from "~/people/settings";
import { PEOPLE } from "~/people/texts";
import { appAsAdmin, uniq } from "../helpers/app";

const { app, admin } = appAsAdmin();

const S = PEOPLE.settings;

async function stored(email: string) {
  const r = await app.context.upstream(`/api/settings/users/${encodeURIComponent(email)}`, {
    headers: { Authorization: `Bearer ${await app.adminToken()}` },
  });
  return (await r.json()) as Array<{ key: string; value: unknown; secured: boolean }>;
}

const row = (i: number, key: string, value: string, extra: Record<string, string> = {}) => ({
  [`key.${i}`]: key, [`value.${i}`]: value, ...Object.fromEntries(Object.entries(extra).map(([k, v]) => [`${k}.${i}`, v])),
});

describe("user settings rules (spec 1 §5)", () => {
  it("strips key characters other than letters, digits, - . _ ~", () => {
    expect(stripSettingKey("my key/é?x_1.2-3~")).toBe("mykeyx_1.2-3~");
  });
  it("requires key and value and refuses duplicates", () => {
    const r = (key: string, value: string) => ({ key, value, secured: false, saved: false, object: false });
    expect(validateRows([r("", ""), r("a", "1"), r("a", "2")])).toEqual([
      { key: S.keyRequired, value: S.valueRequired }, {}, { key: S.duplicate("a") },
    ]);
  });
});

describe("/people/:id/user-settings", () => {
  it("saves rows, masks secured values, keeps a masked value, refuses duplicates, removes saved rows", async () => {
    const email = `set-${uniq()}@test.local`;
    const id = await app.createUser(email, []);
    const url = `/people/${id}/user-settings`;

    const dup = await admin.post(url, { intent: "save", rows: "2", ...row(0, "api_key", "1"), ...row(1, "api_key", "2") });
    expect(dup.status).toBe(400);
    expect(await dup.text()).toContain(S.duplicate("api_key").replace(/"/g, "&quot;"));
    const empty = await admin.post(url, { intent: "save", rows: "1", ...row(0, "", "") });
    const emptyHtml = await empty.text();
    expect(emptyHtml).toContain(S.keyRequired);
    expect(emptyHtml).toContain(S.valueRequired);

    const ok = await admin.post(url, {
      intent: "save", rows: "2",
      ...row(0, "api key!", "top-secret", { secured: "on" }), ...row(1, "mode", "fast"),
    });
    expect(ok.status).toBe(302);
    expect(await stored(email)).toEqual([
      { key: "apikey", value: "top-secret", secured: true, owner: email },
      { key: "mode", value: "fast", secured: false, owner: email },
    ]);
    const page = await (await admin.get(url)).text();
    expect(page).not.toContain("top-secret");
    expect(page).toContain(MASK);

    // The mask posted back keeps the stored value; a new value replaces it.
    await admin.post(url, {
      intent: "save", rows: "2",
      ...row(0, "apikey", MASK, { secured: "on", saved: "1" }), ...row(1, "mode", "slow", { saved: "1" }),
    });
    expect((await stored(email)).map((s) => s.value)).toEqual(["top-secret", "slow"]);

    // Without JavaScript: add row keeps what was typed.
    const added = await admin.post(url, { intent: "add", rows: "1", ...row(0, "typed", "kept") });
    const addedHtml = await added.text();
    expect(addedHtml).toContain('value="typed"');
    expect(addedHtml).toContain('name="key.1"');

    const removed = await admin.post(url, {
      intent: "remove.1", rows: "2",
      ...row(0, "apikey", MASK, { secured: "on", saved: "1" }), ...row(1, "mode", "slow", { saved: "1" }),
    });
    expect(removed.status).toBe(200);
    expect(await removed.text()).toContain(S.deleted);
    expect((await stored(email)).map((s) => s.key)).toEqual(["apikey"]);
  });

  it("shows object values read-only and never overwrites them", async () => {
    const email = `obj-${uniq()}@test.local`;
    const id = await app.createUser(email, []);
    await app.context.upstream("/api/settings/users/shape", {
      method: "PUT",
      headers: { Authorization: `Bearer ${await app.adminToken()}`, "Content-Type": "application/json" },
      body: JSON.stringify({ key: "shape", value: { a: 1 }, owner: email }),
    });
    const html = await (await admin.get(`/people/${id}/user-settings`)).text();
    expect(html).toContain(S.objectValue);
    await admin.post(`/people/${id}/user-settings`, { intent: "save", rows: "1", ...row(0, "shape", "hacked", { saved: "1", object: "1" }) });
    expect((await stored(email))[0]!.value).toEqual({ a: 1 });
  });

  it("refuses saving without users.write", async () => {
    const email = `ro-${uniq()}@test.local`;
    const id = await app.createUser(email, ["users.read"]);
    const b = app.browser();
    await b.signIn(email, "secret-123");
    expect((await b.get(`/people/${id}/user-settings`)).status).toBe(200);
    expect((await b.post(`/people/${id}/user-settings`, { intent: "save", rows: "0" })).status).toBe(404);
  });
});
