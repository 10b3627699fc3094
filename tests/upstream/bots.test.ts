import fs from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { ScriptUploaded, ScriptVersions } from "@contract/bots";
import { User } from "@contract";
import { harness, message, type Harness } from "./helpers";

function upload(h: Harness, email: string, token: string | null, fields: Record<string, string | File>) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return h.up.fetch(
    new Request(`http://upstream.test/api/auth/bots/${encodeURIComponent(email)}/script`, {
      method: "POST",
      headers: token ? { authorization: `Bearer ${token}` } : {},
      body: form,
    }),
  );
}

const js = (text: string, name = "main.js") => new File([text], name, { type: "text/javascript" });

describe("bot endpoints", () => {
  test("upload stores immutable versions under the data dir and points the bot at the newest", async () => {
    const h = await harness();
    const t = { token: h.adminToken };
    await h.createUser({ email: "reporter@example.com", isBot: true });
    const first = await upload(h, "reporter@example.com", h.adminToken, { file: js("one"), message: "first" });
    expect(first.status).toBe(201);
    const v1 = ScriptUploaded.parse(await first.json());
    expect(v1).toMatchObject({ script: "reporter", version: 1, Key: "reporter/v1/main.js", Metadata: { message: "first" } });
    expect(fs.readFileSync(path.join(h.dir, "bot-scripts", "reporter/v1/main.js"), "utf8")).toBe("one");
    const v2 = ScriptUploaded.parse(await (await upload(h, "reporter@example.com", h.adminToken, { file: js("two") })).json());
    expect(v2.Key).toBe("reporter/v2/main.js");
    expect(fs.readFileSync(path.join(h.dir, "bot-scripts", "reporter/v1/main.js"), "utf8")).toBe("one");
    // A non-js file is stored too, but is a version like any other (the back office offers only keys ending in js).
    await upload(h, "reporter@example.com", h.adminToken, { file: js("{}", "config.json"), script: "other" });

    expect(await (await h.call("GET", "/api/auth/bots/bot/scripts", t)).json()).toEqual(["other", "reporter"]);
    const versions = ScriptVersions.parse(await (await h.call("GET", "/api/auth/bots/reporter/versions", t)).json());
    expect(versions.map((v) => v.Key)).toEqual(["reporter/v2/main.js", "reporter/v1/main.js"]);
    expect(await (await h.call("GET", "/api/auth/bots/nothing/versions", t)).json()).toEqual([]);

    const bot = User.parse(await (await h.call("GET", "/api/auth/bots/", t)).json().then((l: unknown[]) => l[0]));
    expect(bot.scriptKey).toBe("other/v1/config.json");
    expect((await h.call("GET", `/api/auth/bots/${bot.id}/`, t)).status).toBe(200);
    const content = await h.call("GET", "/api/auth/bots/reporter%40example.com/script", t);
    expect(await content.text()).toBe("{}");
    expect(await (await h.call("GET", "/api/auth/bots/reporter@example.com/script/exists", t)).json()).toEqual({ exists: true });
    expect((await h.call("DELETE", "/api/auth/bots/reporter@example.com/script", t)).status).toBe(204);
    expect(await (await h.call("GET", "/api/auth/bots/reporter@example.com/script/exists", t)).json()).toEqual({ exists: false });
    expect((await h.call("DELETE", "/api/auth/bots/reporter@example.com/script", t)).status).toBe(404);
    expect((await h.call("GET", "/api/auth/bots/reporter@example.com/script", t)).status).toBe(404);
    // The versions stay after the bot lets go of its script.
    expect(ScriptVersions.parse(await (await h.call("GET", "/api/auth/bots/reporter/versions", t)).json())).toHaveLength(2);
  });

  test("bad input: no file, bad script name, not a bot, unknown bot", async () => {
    const h = await harness();
    await h.createUser({ email: "bot@example.com", isBot: true });
    const human = await h.createUser({ email: "human@example.com" });
    const noFile = await upload(h, "bot@example.com", h.adminToken, { message: "x" });
    expect(noFile.status).toBe(400);
    expect(await message(noFile)).toBe("file: A script file is required.");
    const badName = await upload(h, "bot@example.com", h.adminToken, { file: js("x"), script: "../etc" });
    expect(badName.status).toBe(400);
    expect((await upload(h, "human@example.com", h.adminToken, { file: js("x") })).status).toBe(404);
    expect((await upload(h, "ghost@example.com", h.adminToken, { file: js("x") })).status).toBe(404);
    expect((await h.call("GET", `/api/auth/bots/${human.id}`, { token: h.adminToken })).status).toBe(404);
    const notMultipart = await h.call("POST", "/api/auth/bots/bot@example.com/script", { token: h.adminToken, body: { a: 1 } });
    expect(notMultipart.status).toBe(400);
  });

  test("permissions: 401 without a token, 403 without users.read, upload needs users.write", async () => {
    const h = await harness();
    await h.createUser({ email: "bot@example.com", isBot: true });
    const reader = await h.createUser({ email: "reader@example.com" });
    await h.call("PATCH", `/api/auth/users/${reader.id}`, { token: h.adminToken, body: { id: reader.id, permissions: ["users.read"] } });
    const none = await h.createUser({ email: "none@example.com" });
    const readerToken = await h.login("reader@example.com", "secret1");
    const noneToken = await h.login("none@example.com", "secret1");
    expect((await h.call("GET", "/api/auth/bots/bot/scripts")).status).toBe(401);
    for (const url of ["/api/auth/bots/", "/api/auth/bots/bot/scripts", "/api/auth/bots/x/versions", `/api/auth/bots/${none.id}`, "/api/auth/bots/bot@example.com/script/exists"]) {
      expect((await h.call("GET", url, { token: noneToken })).status, url).toBe(403);
      expect((await h.call("GET", url, { token: readerToken })).status, url).not.toBe(403);
    }
    expect((await upload(h, "bot@example.com", readerToken, { file: js("x") })).status).toBe(403);
    expect((await h.call("DELETE", "/api/auth/bots/bot@example.com/script", { token: readerToken })).status).toBe(403);
  });
});
