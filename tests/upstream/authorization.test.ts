import { describe, expect, test } from "vitest";
import { PairAuthorization } from "@contract/authorization";
import { harness, message } from "./helpers";

describe("pair-authorizator endpoints", () => {
  test("get (empty by default), put, list users and practitioners", async () => {
    const h = await harness();
    const t = { token: h.adminToken };
    const ann = await h.createUser({ email: "ann@example.com" });
    const bob = await h.createUser({ email: "bob@example.com" });
    expect(await (await h.call("GET", `/api/pair-authorizator/users/${ann.id}`, t)).json()).toEqual({
      id: ann.id, email: "ann@example.com", registrationNumbers: [], customerNumbers: [],
    });
    const put = await h.call("PUT", `/api/pair-authorizator/users/${ann.id}`, {
      ...t, body: { registrationNumbers: [" 12345 ", "12345", "654321"], customerNumbers: ["987654"] },
    });
    expect(put.status).toBe(200);
    expect(PairAuthorization.parse(await put.json())).toMatchObject({ registrationNumbers: ["12345", "654321"], customerNumbers: ["987654"] });
    await h.call("PUT", `/api/pair-authorizator/users/${bob.id}`, { ...t, body: { registrationNumbers: ["12345"], customerNumbers: [] } });
    const users = (await (await h.call("GET", "/api/pair-authorizator/users", t)).json()) as PairAuthorization[];
    expect(users.map((u) => u.email)).toEqual(["ann@example.com", "bob@example.com"]);
    expect(await (await h.call("GET", "/api/pair-authorizator/practitioners", t)).json()).toEqual([
      { registrationNumber: "12345", emails: ["ann@example.com", "bob@example.com"] },
      { registrationNumber: "654321", emails: ["ann@example.com"] },
    ]);
  });

  test("?emails= answers only those users' rows (a list page's), any case; bounded", async () => {
    const h = await harness();
    const t = { token: h.adminToken };
    for (const name of ["ann", "bob", "cid"]) {
      const u = await h.createUser({ email: `${name}@example.com` });
      await h.call("PUT", `/api/pair-authorizator/users/${u.id}`, { ...t, body: { registrationNumbers: ["12345"], customerNumbers: [] } });
    }
    const some = (await (await h.call("GET", "/api/pair-authorizator/users?emails=CID@example.com,ann@example.com,zed@example.com", t)).json()) as PairAuthorization[];
    expect(some.map((u) => u.email)).toEqual(["ann@example.com", "cid@example.com"]);
    const none = (await (await h.call("GET", "/api/pair-authorizator/users?emails=", t)).json()) as PairAuthorization[];
    expect(none).toEqual([]);
    const many = Array.from({ length: 201 }, (_, i) => `u${i}@example.com`).join(",");
    expect((await h.call("GET", `/api/pair-authorizator/users?emails=${many}`, t)).status).toBe(400);
  });

  test("bad input: number formats, unknown user, not JSON", async () => {
    const h = await harness();
    const t = { token: h.adminToken };
    const ann = await h.createUser({ email: "ann@example.com" });
    const url = `/api/pair-authorizator/users/${ann.id}`;
    const reg = await h.call("PUT", url, { ...t, body: { registrationNumbers: ["12a45"], customerNumbers: [] } });
    expect(reg.status).toBe(400);
    expect(await message(reg)).toBe('registrationNumbers: "12a45" is not a registration number (5 or 6 digits).');
    const cust = await h.call("PUT", url, { ...t, body: { registrationNumbers: [], customerNumbers: ["12"] } });
    expect(await message(cust)).toBe('customerNumbers: "12" is not a customer number (5 to 9 digits).');
    expect((await h.call("PUT", url, { ...t, rawBody: "nope" })).status).toBe(400);
    expect((await h.call("PUT", "/api/pair-authorizator/users/nobody", { ...t, body: { registrationNumbers: [], customerNumbers: [] } })).status).toBe(404);
    expect((await h.call("GET", "/api/pair-authorizator/users/nobody", t)).status).toBe(404);
  });

  test("permissions", async () => {
    const h = await harness();
    const reader = await h.createUser({ email: "reader@example.com" });
    await h.call("PATCH", `/api/auth/users/${reader.id}`, { token: h.adminToken, body: { id: reader.id, permissions: ["users.read"] } });
    await h.createUser({ email: "none@example.com" });
    const r = await h.login("reader@example.com", "secret1");
    const n = await h.login("none@example.com", "secret1");
    for (const url of ["/api/pair-authorizator/practitioners", "/api/pair-authorizator/users", `/api/pair-authorizator/users/${reader.id}`]) {
      expect((await h.call("GET", url)).status).toBe(401);
      expect((await h.call("GET", url, { token: n })).status).toBe(403);
      expect((await h.call("GET", url, { token: r })).status).toBe(200);
    }
    const body = { registrationNumbers: [], customerNumbers: [] };
    expect((await h.call("PUT", `/api/pair-authorizator/users/${reader.id}`, { token: r, body })).status).toBe(403);
  });
});
