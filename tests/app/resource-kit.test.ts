import { describe, expect, it } from "vitest";
import { ORGANIZATION_MESSAGES } from "@contract/organizations";
import { assistantsTeamName } from "@contract/teams";
import { ORGANIZATIONS } from "~/organizations/texts";
import { PEOPLE } from "~/people/texts";
import { TRY_LATER } from "~/lib/toast.server";
import { appAsAdmin, uniq } from "../helpers/app";

/** The resource kit's route helpers, through the organizations screens and the real Remix handler. */
const { app, admin } = appAsAdmin();

const EDIT_DATA = "_data=routes%2F_app.organizations.%24id.edit";

const api = (method: string, path: string, body?: unknown) => app.adminApi(method, path, body);

async function createOrganization(name: string): Promise<string> {
  const r = await admin.post("/organizations/new", { name });
  expect(r.status).toBe(302);
  const page = (await (await api("GET", `/api/organizations/?q=${encodeURIComponent(name)}`)).json()) as {
    items: { id: string; name: string }[];
  };
  return page.items.find((o) => o.name === name)!.id;
}

describe("resource kit: list", () => {
  it("searches, remembers the sort, clamps the page and says what the user may do", async () => {
    const tag = uniq();
    for (const n of ["b", "a", "c"]) await createOrganization(`Kit ${tag} ${n}`);
    const r = await admin.get(`/organizations?_data=routes%2F_app.organizations._index&q=${tag}&sort=newest&page=999`);
    expect(r.status).toBe(200);
    expect(r.headers.get("Set-Cookie")).toMatch(/^prefs=/);
    const data = (await r.json()) as { rows: { name: string; createdAt: string }[]; page: number; total: number; may: { create: boolean } };
    expect(data.rows.map((o) => o.name)).toEqual([`Kit ${tag} c`, `Kit ${tag} a`, `Kit ${tag} b`]);
    expect(data).toMatchObject({ page: 1, total: 3, may: { create: true } });
    expect(data.rows[0]!.createdAt).toMatch(/^[A-Z][a-z]+ \d{1,2}, \d{4}, /);
    // The sort is remembered: no sort in the URL, newest first still.
    const again = (await (await admin.get(`/organizations?_data=routes%2F_app.organizations._index&q=${tag}`)).json()) as {
      rows: { name: string }[];
      sort: string;
    };
    expect(again.sort).toBe("newest");
  });
});

describe("resource kit: editor", () => {
  it("create: the contract's message when invalid; saved with the success toast", async () => {
    const bad = await admin.post("/organizations/new", { name: "  " });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain(ORGANIZATION_MESSAGES.nameRequired);
    const name = `Kit ${uniq()}`;
    const r = await admin.post("/organizations/new", { name });
    expect(r.headers.get("Location")).toBe("/organizations");
    expect(await (await admin.get("/organizations")).text()).toContain(ORGANIZATIONS.toasts.created);
  });

  it("update and delete with the confirmation step", async () => {
    const id = await createOrganization(`Kit ${uniq()}`);
    const updated = await admin.post(`/organizations/${id}/edit`, { intent: "update", name: "Kit renamed" });
    expect(updated.status).toBe(302);
    expect(await (await admin.get("/organizations")).text()).toContain(ORGANIZATIONS.toasts.updated);

    const ask = await admin.post(`/organizations/${id}/edit?${EDIT_DATA}`, { intent: "delete" });
    expect(await ask.json()).toEqual({ confirm: "delete", toast: null });
    const askHtml = await (await admin.post(`/organizations/${id}/edit`, { intent: "delete" })).text();
    expect(askHtml).toContain(ORGANIZATIONS.confirmDelete.title);
    expect((await api("GET", `/api/organizations/${id}`)).status).toBe(200);

    const done = await admin.post(`/organizations/${id}/edit`, { intent: "delete", confirmed: "yes" });
    expect(done.headers.get("Location")).toBe("/organizations");
    expect((await api("GET", `/api/organizations/${id}`)).status).toBe(404);
    expect((await admin.get(`/organizations/${id}/edit`)).status).toBe(404);
  });

  it("a failed upstream call: the failure toast and inline text, the input kept, the upstream's status", async () => {
    const id = await createOrganization(`Kit ${uniq()}`);
    const tooLong = "x".repeat(201);
    // Bypass the form's own check: the upstream refuses too; here the form refuses first (400 with the limit message).
    const r = await admin.post(`/organizations/${id}/edit`, { intent: "update", name: tooLong });
    expect(r.status).toBe(400);
    // A delete the upstream refuses (already gone): the delete failure toast.
    await api("DELETE", `/api/organizations/${id}`);
    const gone = await admin.post(`/organizations/${id}/edit?${EDIT_DATA}`, { intent: "delete", confirmed: "yes" });
    expect(gone.status).toBe(404);
    const body = (await gone.json()) as { toast: { type: string; message: string; description: string } };
    expect(body.toast).toMatchObject({ type: "error", message: ORGANIZATIONS.toasts.deleteFailed });
    expect(body.toast.description).toContain(TRY_LATER);
  });

  it("a record deleted by someone else while editing: the failure toast with the input kept, not the not-found page", async () => {
    const id = await createOrganization(`Kit ${uniq()}`);
    expect((await api("DELETE", `/api/organizations/${id}`)).status).toBe(204);
    const typed = `Typed ${uniq()}`;

    // Without JavaScript: the document post renders the edit page again.
    const page = await admin.post(`/organizations/${id}/edit`, { intent: "update", name: typed });
    expect(page.status).toBe(404);
    const html = await page.text();
    expect(html).toContain(ORGANIZATIONS.toasts.updateFailed);
    expect(html).toContain(ORGANIZATIONS.inline.saveFailed);
    expect(html).toContain(`value="${typed}"`);
    expect(html).not.toContain("Nothing here");

    // With JavaScript: the action's data says so (the route's shouldRevalidate keeps the page).
    const data = await admin.post(`/organizations/${id}/edit?${EDIT_DATA}`, { intent: "update", name: typed });
    const body = (await data.json()) as { gone: boolean; toast: { message: string }; initialValue: { name: string } };
    expect(body).toMatchObject({ gone: true, toast: { message: ORGANIZATIONS.toasts.updateFailed }, initialValue: { name: typed } });

    // A plain visit afterwards is the not-found view.
    expect((await admin.get(`/organizations/${id}/edit`)).status).toBe(404);
  });

  it("the route table's write permission: read-only users see no Update and cannot post", async () => {
    const id = await createOrganization(`Kit ${uniq()}`);
    const email = `kit-reader-${uniq()}@test.local`;
    await app.createUser(email, ["organizations.read"]);
    const reader = app.browser();
    await reader.signIn(email, "secret-123");
    const data = (await (await reader.get(`/organizations/${id}/edit?${EDIT_DATA}`)).json()) as { may: { write: boolean } };
    expect(data.may.write).toBe(false);
    const list = (await (await reader.get("/organizations?_data=routes%2F_app.organizations._index")).json()) as { may: { create: boolean } };
    expect(list.may.create).toBe(false);
    expect((await reader.post(`/organizations/${id}/edit`, { intent: "update", name: "nope" })).status).toBe(404);
    expect((await reader.post(`/organizations/${id}/edit`, { intent: "delete", confirmed: "yes" })).status).toBe(404);
    expect((await reader.post("/organizations/new", { name: "nope" })).status).toBe(404);
  });
});

describe("partial success", () => {
  it("a user saved whose assistants team could not be: a warning saying both, not 'Update failed'", async () => {
    const email = `partial-${uniq()}@test.local`;
    const id = await app.createUser(email, []);
    // A plain team already holds the assistants team's name: creating the assistants team answers 409.
    expect((await api("POST", "/api/auth/teams/", { name: assistantsTeamName(email), members: [] })).status).toBe(201);
    const r = await admin.post(`/people/${id}`, {
      intent: "update",
      firstName: "Renamed",
      lastName: "Person",
      assistants: "admin@test.local",
    });
    expect(r.status).toBe(302);
    expect(r.headers.get("Location")).toBe(`/people/${id}`);
    const user = (await (await api("GET", `/api/auth/users/${id}`)).json()) as { firstName: string };
    expect(user.firstName).toBe("Renamed");
    const html = await (await admin.get(`/people/${id}`)).text();
    expect(html).toContain(PEOPLE.toasts.updated);
    expect(html).toContain("The assistants team could not be updated:");
    expect(html).toContain("toast-warning");
    expect(html).not.toContain(PEOPLE.toasts.updateFailed);
  });
});
