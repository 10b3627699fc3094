import { describe, expect, test } from "vitest";
import {
  MESSAGE_LIMITS,
  MESSAGE_MESSAGES,
  Message,
  MessagePage,
  RECIPIENT_ROLES,
  RECIPIENT_VARIABLES,
  TOO_MANY_RECIPIENTS,
  isRecipient,
} from "@contract/messages";
import { TEXT_LIMITS } from "@contract/limits";
import { suggestVariables } from "../../upstream/src/messages/routes";
import { harness, message } from "./helpers";
import { tokenWith } from "./token-with";

describe("recipients (spec 2 §5, §9)", () => {
  test("every variable of §9, generated from one definition: 12 roles × 4 + 3 ranked roles × 2 ranks × 4", () => {
    expect(RECIPIENT_VARIABLES).toHaveLength(72);
    expect(new Set(RECIPIENT_VARIABLES).size).toBe(72);
    for (const role of RECIPIENT_ROLES) {
      for (const suffix of ["", ".work", ".mailing", ".home"]) expect(isRecipient(`@${role}${suffix}`)).toBe(true);
    }
    for (const role of ["assignees", "applicants", "clients"]) {
      for (const rank of [".primary", ".secondary"]) {
        for (const suffix of ["", ".work", ".mailing", ".home"]) expect(isRecipient(`@${role}${rank}${suffix}`)).toBe(true);
      }
    }
    expect(RECIPIENT_VARIABLES).toContain("@foreignAssociates.home");
    expect(RECIPIENT_VARIABLES).toContain("@secretaries.mailing");
  });

  test("empty, e-mail-shaped or a variable; nothing else", () => {
    for (const ok of ["", "  ", "ann@example.com", " a.b+c@mail.example.org ", "@clients.primary.work"]) expect(isRecipient(ok)).toBe(true);
    for (const bad of [
      "ann",
      "ann@",
      "ann@example",
      "a b@example.com",
      "@inventors.primary", // only assignees, applicants and clients are ranked
      "@secretaries.secondary.home",
      "@clients.work.primary", // rank before address kind
      "@client",
      "@Clients",
      "@clients.office",
      // Markup or quoting around an @ and a dot is not an address (it would be rendered into the message).
      "<script>@x.com",
      "<script>alert(1)</script>@x.com",
      "ann@example.com<script>",
      '"ann"@example.com',
      "ann@exam<b>ple.com",
      "ann@example.c",
    ]) {
      expect(isRecipient(bad), bad).toBe(false);
    }
  });

  test("variable suggestions: those starting with the text first, @ optional", () => {
    expect(suggestVariables("@clients.pri", 20)).toEqual([
      "@clients.primary",
      "@clients.primary.work",
      "@clients.primary.mailing",
      "@clients.primary.home",
    ]);
    const s = suggestVariables("home", 100);
    expect(s.every((v) => v.endsWith(".home"))).toBe(true);
    expect(s).toHaveLength(RECIPIENT_ROLES.length + 6);
  });
});

describe("/api/messages", () => {
  test("create (trimmed, defaults), get, list with search, patch, delete", async () => {
    const h = await harness();
    const t = h.adminToken;
    const r = await h.call("POST", "/api/messages", {
      token: t,
      body: { name: "  Office action reminder ", tags: ["OA", "oa", "uspto"], to: ["@clients.primary.work", "", " ann@example.com "] },
    });
    expect(r.status).toBe(201);
    const m = Message.parse(await r.json());
    expect(m).toMatchObject({
      name: "Office action reminder",
      description: "",
      tags: ["OA", "uspto"],
      subject: "",
      body: "",
      to: ["@clients.primary.work", "ann@example.com"],
      cc: [],
      bcc: [],
      createdBy: "admin@example.com",
    });
    await h.call("POST", "/api/messages", { token: t, body: { name: "Filing receipt" } });
    const page = MessagePage.parse(await (await h.call("GET", "/api/messages?q=office", { token: t })).json());
    expect(page.items.map((x) => x.name)).toEqual(["Office action reminder"]);
    const patched = await h.call("PATCH", `/api/messages/${m.id}`, {
      token: t,
      body: { subject: "Re: {{matter.number}}", bcc: ["@responsibleAttorneys.work"] },
    });
    expect(Message.parse(await patched.json())).toMatchObject({ name: "Office action reminder", subject: "Re: {{matter.number}}", bcc: ["@responsibleAttorneys.work"] });
    expect((await h.call("DELETE", `/api/messages/${m.id}`, { token: t })).status).toBe(204);
    const gone = await h.call("GET", `/api/messages/${m.id}`, { token: t });
    expect(gone.status).toBe(404);
    expect(await message(gone)).toBe("Message not found.");
  });

  test("400s: name required, bad recipient, too many recipients, too long a subject", async () => {
    const h = await harness();
    const t = h.adminToken;
    const empty = await h.call("POST", "/api/messages", { token: t, body: { name: "   " } });
    expect(empty.status).toBe(400);
    expect(await message(empty)).toBe(`name: ${MESSAGE_MESSAGES.nameRequired}`);
    const bad = await h.call("POST", "/api/messages", { token: t, body: { name: "x", cc: ["@inventors.primary"] } });
    expect(bad.status).toBe(400);
    expect(await message(bad)).toContain(MESSAGE_MESSAGES.badRecipient("@inventors.primary"));
    const markup = await h.call("POST", "/api/messages", { token: t, body: { name: "x", to: ["<script>@x.com"] } });
    expect(markup.status).toBe(400);
    expect(await message(markup)).toBe(`to.0: ${MESSAGE_MESSAGES.badRecipient("<script>@x.com")}`);
    const many = Array.from({ length: MESSAGE_LIMITS.recipients + 1 }, (_, i) => `p${i}@example.com`);
    const tooMany = await h.call("POST", "/api/messages", { token: t, body: { name: "x", to: many } });
    expect(await message(tooMany)).toContain(TOO_MANY_RECIPIENTS);
    const long = await h.call("POST", "/api/messages", { token: t, body: { name: "x", subject: "s".repeat(MESSAGE_LIMITS.subject + 1) } });
    expect(long.status).toBe(400);
  });

  test("clone: 201, a name told apart ('(copy)', then '(copy 2)'), within the name limit; 404 when missing", async () => {
    const h = await harness();
    const t = h.adminToken;
    const m = Message.parse(await (await h.call("POST", "/api/messages", { token: t, body: { name: "Reminder", to: ["@clients"] } })).json());
    const c1 = await h.call("POST", `/api/messages/${m.id}/clone`, { token: t });
    expect(c1.status).toBe(201);
    const copy = Message.parse(await c1.json());
    expect(copy).toMatchObject({ name: "Reminder (copy)", to: ["@clients"] });
    expect(copy.id).not.toBe(m.id);
    const c2 = Message.parse(await (await h.call("POST", `/api/messages/${m.id}/clone`, { token: t })).json());
    expect(c2.name).toBe("Reminder (copy 2)");
    const longName = "L".repeat(TEXT_LIMITS.name);
    const long = Message.parse(await (await h.call("POST", "/api/messages", { token: t, body: { name: longName } })).json());
    const longCopy = Message.parse(await (await h.call("POST", `/api/messages/${long.id}/clone`, { token: t })).json());
    expect(longCopy.name).toHaveLength(TEXT_LIMITS.name);
    expect(longCopy.name.endsWith(" (copy)")).toBe(true);
    const missing = await h.call("POST", "/api/messages/nope/clone", { token: t });
    expect(missing.status).toBe(404);
    expect(await message(missing)).toBe("Message not found.");
  });

  test("preview renders subject and body against the sample context; a template error is a 400 naming the field", async () => {
    const h = await harness();
    const t = h.adminToken;
    const ok = await h.call("POST", "/api/messages/preview", {
      token: t,
      body: { subject: "{{matter.number}}: {{deadline.label}}", body: "Dear {{client.name}},\n{{#each inventors}}{{name}};{{/each}}" },
    });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({
      subject: "ACME-0042-US: Response to Office Action",
      body: "Dear Acme Robotics Inc.,\nAna Ruiz;Wei Chen;",
    });
    const broken = await h.call("POST", "/api/messages/preview", { token: t, body: { subject: "ok", body: "{{#if matter}}unclosed" } });
    expect(broken.status).toBe(400);
    expect(await message(broken)).toMatch(/^Body: Template error: /);
    const brokenSubject = await h.call("POST", "/api/messages/preview", { token: t, body: { subject: "{{", body: "" } });
    expect(await message(brokenSubject)).toMatch(/^Subject: Template error: /);
  });

  test("recipient suggestions: people and variables; only variables for a text starting with @", async () => {
    const h = await harness();
    await h.createUser({ email: "clara.client@example.com" });
    const t = h.adminToken;
    const people = (await (await h.call("GET", "/api/messages/suggest/recipients?q=cl", { token: t })).json()) as string[];
    expect(people[0]).toBe("clara.client@example.com");
    expect(people).toContain("@clients");
    const vars = (await (await h.call("GET", "/api/messages/suggest/recipients?q=%40cl", { token: t })).json()) as string[];
    expect(vars).not.toContain("clara.client@example.com");
    expect(vars[0]).toBe("@clients");
    expect(await (await h.call("GET", "/api/messages/suggest/recipients?q=", { token: t })).json()).toEqual([]);
  });

  test("permissions: messages.read lists, reads, suggests and previews; `messages` creates, clones, edits, deletes", async () => {
    const h = await harness();
    const m = Message.parse(await (await h.call("POST", "/api/messages", { token: h.adminToken, body: { name: "Perm" } })).json());
    const reader = await tokenWith(h, "reader@example.com", ["messages.read"]);
    expect((await h.call("GET", "/api/messages", { token: reader })).status).toBe(200);
    expect((await h.call("GET", `/api/messages/${m.id}`, { token: reader })).status).toBe(200);
    expect((await h.call("GET", "/api/messages/suggest/recipients?q=a", { token: reader })).status).toBe(200);
    expect((await h.call("POST", "/api/messages/preview", { token: reader, body: { subject: "", body: "" } })).status).toBe(200);
    expect((await h.call("POST", "/api/messages", { token: reader, body: { name: "No" } })).status).toBe(403);
    expect((await h.call("POST", `/api/messages/${m.id}/clone`, { token: reader })).status).toBe(403);
    expect((await h.call("PATCH", `/api/messages/${m.id}`, { token: reader, body: { name: "No" } })).status).toBe(403);
    expect((await h.call("DELETE", `/api/messages/${m.id}`, { token: reader })).status).toBe(403);
    const writer = await tokenWith(h, "writer@example.com", ["messages"]);
    expect((await h.call("POST", `/api/messages/${m.id}/clone`, { token: writer })).status).toBe(201);
    const none = await tokenWith(h, "none@example.com", ["templates"]);
    expect((await h.call("GET", "/api/messages", { token: none })).status).toBe(403);
    expect((await h.call("GET", "/api/messages/suggest/recipients?q=a", { token: none })).status).toBe(403);
  });
});

describe("a message's Handlebars is parsed when it is saved", () => {
  test("templateSyntaxError: the line and column (from 1) of what Handlebars cannot parse", async () => {
    const { templateSyntaxError } = await import("@contract/template-syntax");
    expect(templateSyntaxError("Dear {{client.name}},\n{{#each inventors}}{{name}}{{/each}}")).toBeNull();
    expect(templateSyntaxError("Dear client,\n  {{#if deadline}}\nDue {{deadline.dueDate}}\n")).toEqual({
      line: 2,
      column: 3,
      message: "{{#if}} is never closed (add {{/if}}).",
    });
    expect(templateSyntaxError("{{#if a}}x{{/each}}")).toEqual({ line: 1, column: 11, message: "{{/each}} does not close {{#if}}." });
    expect(templateSyntaxError("a\nb {{client.name")).toEqual({ line: 2, column: 3, message: "The template ends inside a {{ … }} expression." });
  });

  test("create and update refuse an unclosed block with 400 naming field, line and column; nothing is stored", async () => {
    const h = await harness();
    const t = h.adminToken;
    const bad = await h.call("POST", "/api/messages", { token: t, body: { name: "Broken", body: "Hello\n{{#if matter}}\n" } });
    expect(bad.status).toBe(400);
    expect(await message(bad)).toBe("Body: line 2, column 1: {{#if}} is never closed (add {{/if}}).");
    const ok = Message.parse(await (await h.call("POST", "/api/messages", { token: t, body: { name: "Fine", body: "{{#if a}}x{{/if}}" } })).json());
    const patch = await h.call("PATCH", `/api/messages/${ok.id}`, { token: t, body: { subject: "Due {{deadline.dueDate" } });
    expect(patch.status).toBe(400);
    expect(await message(patch)).toBe("Subject: line 1, column 5: The template ends inside a {{ … }} expression.");
    const kept = Message.parse(await (await h.call("GET", `/api/messages/${ok.id}`, { token: t })).json());
    expect(kept.subject).toBe("");
  });
});
