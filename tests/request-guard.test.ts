import { describe, expect, it } from "vitest";
import { safeRedirect } from "~/auth/redirect";
import { loadConfig } from "~/lib/config.server";
import { RULE_LIMITS } from "@contract/rules";
import { FORM_LIMITS, checkForm, fieldNameProblem, intentProblem, listLimitsOf } from "../server/form-check";
import { isSameOrigin } from "../server/guard";

describe("safeRedirect", () => {
  it.each([
    ["/\t/evil.example"],
    ["/\n/evil.example"],
    ["/\\evil.example"],
    ["/\\/evil.example"],
    ["//evil.example"],
    ["/%0d%0aSet-Cookie:x"].map(decodeURIComponent),
    ["/\r\nSet-Cookie: x=1"],
    ["/people\u0000x"],
    ["/\u007f"],
    ["/€"],
    ["/people/\u{1F600}"],
    ["https://evil.example/"],
    ["evil.example"],
    [""],
    ["/login?redirectTo=/x"],
    ["/logout"],
  ])("sends %j to the fallback", (to) => {
    expect(safeRedirect(to)).toBe("/");
    expect(safeRedirect(to, "/home")).toBe("/home");
  });

  it("keeps a path on this site as written", () => {
    for (const to of ["/", "/people?q=a&page=2", "/people/1%2F2", "/specifications/x?help=context#top", "/teams/%E2%82%AC"]) {
      expect(safeRedirect(to)).toBe(to);
    }
  });

  it("falls back for anything but a string", () => {
    expect(safeRedirect(null)).toBe("/");
    expect(safeRedirect(undefined)).toBe("/");
    expect(safeRedirect(new File(["/x"], "x"))).toBe("/");
  });
});

describe("field names", () => {
  it("refuses what would make conform build a huge array or throw", () => {
    expect(fieldNameProblem("organizations[10000000]")).toContain(`index above ${FORM_LIMITS.index}`);
    expect(fieldNameProblem(`organizations[${FORM_LIMITS.index + 1}]`)).toContain(`index above ${FORM_LIMITS.index}`);
    expect(fieldNameProblem(`a${"[0]".repeat(20)}`)).toContain("deeper");
    expect(fieldNameProblem("__proto__.polluted")).toContain("malformed");
    expect(fieldNameProblem("a.constructor")).toContain("malformed");
    expect(fieldNameProblem("a]")).toContain("malformed");
    expect(fieldNameProblem("a..b")).toContain("malformed");
    expect(fieldNameProblem("x".repeat(1001))).toContain("longer");
  });
  it("takes every name the forms use", () => {
    for (const name of ["", "email", "redirectTo", "organizations[0]", `organizations[${FORM_LIMITS.index}]`, "items[]", "a.b[3].c", "intent"]) {
      expect(fieldNameProblem(name), name).toBeNull();
    }
  });
});

describe("list indexes by each list's own maximum", () => {
  const rule = listLimitsOf("/rules/create");
  it("bounds a rule's deadlines by RULE_LIMITS.deadlines, on create and edit, whatever the default", () => {
    expect(rule).toEqual({ deadlines: RULE_LIMITS.deadlines });
    expect(listLimitsOf("/rules/abc/edit")).toEqual(rule);
    expect(listLimitsOf("/people/new")).toEqual({});
    expect(fieldNameProblem("deadlines[999].label", rule)).toBe(`A field name has an index above ${RULE_LIMITS.deadlines}, the most "deadlines" takes.`);
    // One row too many still reaches the schema, which answers with its own "at most" message.
    expect(fieldNameProblem(`deadlines[${RULE_LIMITS.deadlines}].extension.times`, rule)).toBeNull();
    expect(fieldNameProblem(`deadlines[${RULE_LIMITS.deadlines + 1}].label`, rule)).toContain("index above");
  });
  it("names a nested list by its path, indexes as []; a list no entry names takes the small default", () => {
    expect(fieldNameProblem("a[0].b[7]", { "a[].b": 7 })).toBeNull();
    expect(fieldNameProblem("a[0].b[8]", { "a[].b": 7 })).toBe('A field name has an index above 7, the most "a[].b" takes.');
    expect(fieldNameProblem("deadlines[0][21]", rule)).toContain(`index above ${FORM_LIMITS.index}, the most "deadlines[]"`);
    expect(fieldNameProblem("constructor[1]", { constructor: 5 })).toContain("malformed");
    expect(fieldNameProblem("toString[21]")).toContain("index above");
  });
  it("checks conform's intents (JSON) as fields: names, and positions by the list's maximum", () => {
    const intent = (type: string, payload: object) => JSON.stringify({ type, payload });
    expect(intentProblem(intent("update", { name: "deadlines[99999]", value: { label: "x" } }), rule)).toContain("index above 20");
    expect(intentProblem(intent("update", { name: "deadlines", index: 99999 }), rule)).toContain("index above 20");
    expect(intentProblem(intent("reset", { name: "deadlines[0].extension", index: 21 }), rule)).toContain('"deadlines[].extension"');
    expect(intentProblem(intent("insert", { name: "deadlines", index: 21 }), rule)).toContain("index above 20");
    expect(intentProblem(intent("reorder", { name: "deadlines", from: 0, to: 1e9 }), rule)).toContain("index above 20");
    expect(intentProblem(intent("remove", { name: "deadlines", index: -1 }), rule)).toBe("The form's intent cannot be read.");
    expect(intentProblem(intent("update", { name: "__proto__.x" }), rule)).toContain("malformed");
    for (const bad of ["{", "null", "1", '{"type":1,"payload":{}}', '{"type":"update"}', '{"type":"update","payload":{"name":1}}']) {
      expect(intentProblem(bad, rule), bad).toBe("The form's intent cannot be read.");
    }
    for (const ok of [
      intent("insert", { name: "deadlines" }),
      intent("insert", { name: "deadlines", defaultValue: { label: "x" } }),
      intent("remove", { name: "deadlines", index: 3 }),
      intent("reorder", { name: "deadlines", from: 0, to: 19 }),
      intent("update", { name: "deadlines[2].label", value: "x" }),
      intent("validate", { name: "name" }),
      intent("reset", {}),
    ]) {
      expect(intentProblem(ok, rule), ok).toBeNull();
    }
  });
  it("refuses in checkForm a body whose names, intent or state conform could not take (400, never conform's 500)", async () => {
    const form = (fields: Record<string, string>) => Buffer.from(new URLSearchParams(fields).toString());
    const type = "application/x-www-form-urlencoded";
    expect(await checkForm(form({ "deadlines[999].label": "x" }), type, rule)).toMatchObject({ ok: false, status: 400 });
    expect(await checkForm(form({ "deadlines[20].label": "x" }), type, rule)).toMatchObject({ ok: true });
    expect(await checkForm(form({ __intent__: "{" }), type, rule)).toMatchObject({ ok: false, status: 400 });
    expect(await checkForm(form({ __state__: "{" }), type, rule)).toMatchObject({ ok: false, status: 400, message: "The form's state cannot be read." });
    expect(await checkForm(form({ __state__: "{}", __intent__: '{"type":"validate","payload":{}}' }), type, rule)).toMatchObject({ ok: true });
    const parts = new FormData();
    parts.set("__intent__", new File(["{}"], "x.json"));
    const sent = new Response(parts);
    const body = Buffer.from(await sent.arrayBuffer());
    expect(await checkForm(body, sent.headers.get("content-type")!, rule)).toMatchObject({ ok: false, status: 400 });
  });
});

describe("production origin (PUBLIC_URL or ALLOWED_HOSTS)", () => {
  const production = { NODE_ENV: "production", SESSION_SECRET: "0123456789abcdef0123" };
  it("refuses to start in production without either, naming both", () => {
    expect(() => loadConfig(production)).toThrow(/PUBLIC_URL: is required in production .* or ALLOWED_HOSTS/);
    expect(loadConfig({ ...production, PUBLIC_URL: "https://bo.example.com/" }).publicUrl).toBe("https://bo.example.com");
    expect(loadConfig({ ...production, ALLOWED_HOSTS: " BO.example.com, bo ,[::1]" }).allowedHosts).toEqual(["bo.example.com", "bo", "[::1]"]);
    expect(() => loadConfig({ ...production, ALLOWED_HOSTS: "https://bo.example.com" })).toThrow(/ALLOWED_HOSTS: must be/);
    expect(() => loadConfig({ ...production, ALLOWED_HOSTS: "bo.example.com:3000" })).toThrow(/ALLOWED_HOSTS: must be/);
  });
  it("leaves development as it was (the Host header's origin)", () => {
    const config = loadConfig({});
    expect(config.publicUrl).toBeUndefined();
    expect(config.allowedHosts).toBeUndefined();
  });
});

describe("form bodies", () => {
  const urlencoded = "application/x-www-form-urlencoded";
  it("counts fields before parsing", async () => {
    const many = Array.from({ length: 1001 }, (_, i) => `f${i}=1`).join("&");
    expect(await checkForm(Buffer.from(many), urlencoded)).toMatchObject({ ok: false, status: 400 });
    expect(await checkForm(Buffer.from("a=1&b=2"), urlencoded)).toMatchObject({ ok: true });
  });
  it("refuses what is not a form with 415, a broken multipart with 400; an empty body is an empty form", async () => {
    expect(await checkForm(Buffer.from("{}"), "application/json")).toMatchObject({ ok: false, status: 415 });
    expect(await checkForm(Buffer.from("a=1"), "text/plain")).toMatchObject({ ok: false, status: 415 });
    expect(await checkForm(Buffer.from("a=1"), undefined)).toMatchObject({ ok: false, status: 415 });
    expect(await checkForm(Buffer.from("x"), "multipart/form-data")).toMatchObject({ ok: false, status: 400 });
    expect(await checkForm(Buffer.from("x"), "multipart/form-data; boundary=b")).toMatchObject({ ok: false, status: 400 });
    expect(await checkForm(Buffer.alloc(0), "application/json")).toMatchObject({ ok: true, contentType: urlencoded });
  });
  it("keeps a multipart body as sent once the routes' parser (undici's) has read it", async () => {
    const form = new FormData();
    form.set("intent", "upload");
    form.set("file", new File(["console.log(1)"], "bot.js", { type: "text/javascript" }));
    const sent = new Response(form);
    const bytes = Buffer.from(await sent.arrayBuffer());
    const checked = await checkForm(bytes, sent.headers.get("content-type")!);
    if (!checked.ok) throw new Error(checked.message);
    expect(checked.body).toBe(bytes);
    const back = await new Response(checked.body as Uint8Array<ArrayBuffer>, { headers: { "content-type": checked.contentType } }).formData();
    expect(back.get("intent")).toBe("upload");
    expect(await (back.get("file") as File).text()).toBe("console.log(1)");
    expect(checked.contentType).toMatch(/^multipart\/form-data; boundary=[^;"]+$/);
  });
});

describe("same origin", () => {
  const site = "https://backoffice.example";
  it("judges by Origin, then Sec-Fetch-Site, then Referer; accepts a request with none (not a browser)", () => {
    expect(isSameOrigin({ origin: site }, site)).toBe(true);
    expect(isSameOrigin({ origin: `${site}:443` }, site)).toBe(true);
    expect(isSameOrigin({ origin: "https://evil.example" }, site)).toBe(false);
    expect(isSameOrigin({ origin: "http://backoffice.example" }, site)).toBe(false);
    expect(isSameOrigin({ origin: "null" }, site)).toBe(false);
    expect(isSameOrigin({ origin: "null", "sec-fetch-site": "same-origin" }, site)).toBe(true);
    expect(isSameOrigin({ origin: "garbage" }, site)).toBe(false);
    expect(isSameOrigin({ "sec-fetch-site": "same-origin" }, site)).toBe(true);
    expect(isSameOrigin({ "sec-fetch-site": "none" }, site)).toBe(true);
    expect(isSameOrigin({ "sec-fetch-site": "same-site", referer: `${site}/x` }, site)).toBe(false);
    expect(isSameOrigin({ "sec-fetch-site": "cross-site" }, site)).toBe(false);
    expect(isSameOrigin({ referer: `${site}/people` }, site)).toBe(true);
    expect(isSameOrigin({ referer: "https://evil.example/" }, site)).toBe(false);
    expect(isSameOrigin({}, site)).toBe(true);
  });
});
