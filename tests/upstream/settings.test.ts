import { describe, expect, test } from "vitest";
import { UserSettings } from "@contract/settings";
import { harness, message } from "./helpers";

describe("settings endpoints", () => {
  test("put, list, overwrite and delete a user's settings", async () => {
    const h = await harness();
    const t = { token: h.adminToken };
    await h.createUser({ email: "bot@example.com", isBot: true });
    const put = (key: string, body: Record<string, unknown>) =>
      h.call("PUT", `/api/settings/users/${encodeURIComponent(key)}`, { ...t, body: { key, owner: "bot@example.com", ...body } });
    expect((await put("api_key", { value: "s3cret", secured: true })).status).toBe(200);
    expect((await put("mode", { value: { deep: 1 } })).status).toBe(200);
    expect((await put("mode", { value: "fast" })).status).toBe(200);
    const list = UserSettings.parse(await (await h.call("GET", "/api/settings/users/bot@example.com", t)).json());
    expect(list).toEqual([
      { key: "api_key", value: "s3cret", owner: "bot@example.com", secured: true },
      { key: "mode", value: "fast", owner: "bot@example.com", secured: false },
    ]);
    expect((await h.call("DELETE", "/api/settings/mode?owner=bot%40example.com", t)).status).toBe(204);
    expect((await h.call("DELETE", "/api/settings/mode?owner=bot%40example.com", t)).status).toBe(404);
    expect(UserSettings.parse(await (await h.call("GET", "/api/settings/users/bot@example.com", t)).json())).toHaveLength(1);
  });

  test("bad input: key characters, empty key or value, key mismatch, unknown owner", async () => {
    const h = await harness();
    const t = { token: h.adminToken };
    await h.createUser({ email: "bot@example.com" });
    const put = (path: string, body: Record<string, unknown>) =>
      h.call("PUT", `/api/settings/users/${path}`, { ...t, body: { owner: "bot@example.com", value: "v", ...body } });
    expect(await message(await put("a%20b", { key: "a b" }))).toBe(
      "key: Keys hold only letters, digits, hyphens, dots, underscores and tildes.",
    );
    expect(await message(await put("x", { key: "y" }))).toBe("key: Must match the key in the path.");
    expect(await message(await put("x", { key: "x", value: "  " }))).toBe("value: Value is required");
    expect((await put("x", { key: "x", owner: "ghost@example.com" })).status).toBe(404);
    expect((await h.call("GET", "/api/settings/users/ghost@example.com", t)).status).toBe(404);
    expect((await h.call("DELETE", "/api/settings/x", t)).status).toBe(400);
  });

  test("permissions: read needs users.read, writes need users.write", async () => {
    const h = await harness();
    const reader = await h.createUser({ email: "reader@example.com" });
    await h.call("PATCH", `/api/auth/users/${reader.id}`, { token: h.adminToken, body: { id: reader.id, permissions: ["users.read"] } });
    await h.createUser({ email: "none@example.com" });
    const readerToken = await h.login("reader@example.com", "secret1");
    const noneToken = await h.login("none@example.com", "secret1");
    expect((await h.call("GET", "/api/settings/users/reader@example.com")).status).toBe(401);
    expect((await h.call("GET", "/api/settings/users/reader@example.com", { token: noneToken })).status).toBe(403);
    expect((await h.call("GET", "/api/settings/users/reader@example.com", { token: readerToken })).status).toBe(200);
    const body = { key: "k", value: "v", owner: "reader@example.com" };
    expect((await h.call("PUT", "/api/settings/users/k", { token: readerToken, body })).status).toBe(403);
    expect((await h.call("DELETE", "/api/settings/k?owner=reader@example.com", { token: readerToken })).status).toBe(403);
  });
});
