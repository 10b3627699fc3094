import { describe, expect, it } from "vitest";
import { PEOPLE } from "~/people/texts";
import { SPECIFICATIONS } from "~/specifications/texts";
import { LIMIT_MESSAGES, TEXT_LIMITS } from "@contract/limits";
import { appAsAdmin, uniq } from "../helpers/app";

/** Bounded fields in the forms: an over-long or control-character field re-renders the form with its message. */

const { app, admin } = appAsAdmin();

const long = (n: number) => `${uniq()}${"x".repeat(n)}`.slice(0, n);
/** React escapes nothing in these values but `"`, `&`, `<`, `>`: plain letters appear as typed. */
const kept = (html: string, value: string) => expect(html).toContain(`value="${value}"`);

async function count(path: string): Promise<number> {
  const r = await app.context.upstream(path, { headers: { Authorization: `Bearer ${await app.adminToken()}` } });
  return ((await r.json()) as { total: number }).total;
}

describe("over-long names are refused by the forms, with the message and every value kept", () => {
  it("/people/new: first name of 201 characters", async () => {
    const before = await count("/api/auth/users");
    const firstName = long(201);
    const email = `long-${uniq()}@test.local`;
    const r = await admin.post("/people/new", { firstName, lastName: "Lee", email, password: "secret-1" });
    expect(r.status).toBe(400);
    const html = await r.text();
    expect(html).toContain(LIMIT_MESSAGES.tooLong(PEOPLE.labels.firstName, TEXT_LIMITS.name));
    expect(html).toContain("First name must be at most 200 characters.");
    kept(html, firstName);
    kept(html, email);
    expect(await count("/api/auth/users")).toBe(before);

    const exact = await admin.post("/people/new", { firstName: long(200), lastName: "Lee", email, password: "secret-1" });
    expect(exact.status).toBe(302);
  });

  it("/organizations/new: name of 201 characters", async () => {
    const name = long(201);
    const r = await admin.post("/organizations/new", { name });
    expect(r.status).toBe(400);
    const html = await r.text();
    expect(html).toContain("Name must be at most 200 characters.");
    kept(html, name);
    expect((await admin.post("/organizations/new", { name: long(200) })).status).toBe(302);
  });

  it("/teams/new: name of 201 characters, and a name with a NUL", async () => {
    const name = long(201);
    const r = await admin.post("/teams/new", { name });
    expect(r.status).toBe(400);
    const html = await r.text();
    expect(html).toContain("Name must be at most 200 characters.");
    kept(html, name);
    const nul = await admin.post("/teams/new", { name: `team\u0000${uniq()}` });
    expect(nul.status).toBe(400);
    expect(await nul.text()).toContain("Name contains characters that are not allowed.");
  });

  it("/specifications/create: name of 201 characters; tags over the limits; tab and newlines in the template pass", async () => {
    const before = await count("/api/specifications/");
    const name = long(201);
    const fields = { type: "abstract", description: "Line one\r\n\tline two", template: "{{#each a}}\r\n\t{{this}}\n{{/each}}" };
    const r = await admin.post("/specifications/create", { ...fields, name });
    expect(r.status).toBe(400);
    const html = await r.text();
    expect(html).toContain("Name must be at most 200 characters.");
    kept(html, name);
    expect(html).toContain("Line one");

    const tooMany = Array.from({ length: 51 }, (_, i) => `t${i}`).join("; ");
    const tags = await admin.post("/specifications/create", { ...fields, name: "Tags spec", tags: tooMany });
    expect(tags.status).toBe(400);
    expect(await tags.text()).toContain(SPECIFICATIONS.limits.tooManyTags);
    const longTag = await admin.post("/specifications/create", { ...fields, name: "Tags spec", tags: `ok; ${"t".repeat(101)}` });
    expect(longTag.status).toBe(400);
    expect(await longTag.text()).toContain("Tag must be at most 100 characters.");
    expect(await count("/api/specifications/")).toBe(before);

    const ok = await admin.post("/specifications/create", { ...fields, name: long(200), tags: "a; b" });
    expect(ok.status).toBe(302);
    expect(await count("/api/specifications/")).toBe(before + 1);
  });
});
