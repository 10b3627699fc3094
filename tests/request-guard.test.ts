import { describe, expect, it } from "vitest";
import { safeRedirect } from "../app/auth/redirect";
import { checkForm, fieldNameProblem, isSameOrigin } from "../server/guard";

describe("safeRedirect (issue 8 item 6)", () => {
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

describe("field names (issue 8 item 1)", () => {
  it("refuses what would make conform build a huge array or throw", () => {
    expect(fieldNameProblem("organizations[10000000]")).toContain("index above 1000");
    expect(fieldNameProblem("organizations[1001]")).toContain("index above 1000");
    expect(fieldNameProblem(`a${"[0]".repeat(20)}`)).toContain("deeper");
    expect(fieldNameProblem("__proto__.polluted")).toContain("malformed");
    expect(fieldNameProblem("a.constructor")).toContain("malformed");
    expect(fieldNameProblem("a]")).toContain("malformed");
    expect(fieldNameProblem("a..b")).toContain("malformed");
    expect(fieldNameProblem("x".repeat(1001))).toContain("longer");
  });
  it("takes every name the forms use", () => {
    for (const name of ["", "email", "redirectTo", "organizations[0]", "organizations[1000]", "items[]", "a.b[3].c", "intent"]) {
      expect(fieldNameProblem(name), name).toBeNull();
    }
  });
});

describe("form bodies (issue 8 items 1 and 8)", () => {
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

describe("same origin (issue 8 item 5)", () => {
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
