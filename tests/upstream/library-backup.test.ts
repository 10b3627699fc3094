/** The drawings' library settings (their `library` column) travel with the template-storage backup. */
import { describe, expect, it } from "vitest";
import { LibraryCategory, LibraryItem, LibraryStats } from "@contract/library";
import { officePackage } from "../fixtures/office";
import { harness } from "./helpers";
import { bytesOf, sendMultipart, type Json } from "./templates-helpers";

describe("template-storage backup and the library", () => {
  it("a drawing's library settings (public, generic, organizations, categories) survive export, delete and import", async () => {
    const h = await harness();
    const t = h.adminToken;
    const category = LibraryCategory.parse(await (await h.call("POST", "/api/categories/create", { token: t, body: { name: "Figures" } })).json());
    const made = (await (
      await sendMultipart(h, "POST", "/api/drawings/", { textTemplate: "{{x}}" }, { fileTemplate: { name: "Fig.vsdx", bytes: await officePackage("vsdx") } })
    ).json()) as Json;
    const settings = { name: "Figure one", description: "A figure", tags: ["EP"], isPublic: true, isGeneric: true, organizations: ["org-1"], categories: [category.id] };
    const saved = await h.call("PATCH", `/api/library/items/${made.id}`, { token: t, body: settings });
    expect(`${saved.status} ${await saved.text()}`).toMatch(/^200/);
    const before = LibraryItem.parse(await (await h.call("GET", `/api/library/items/${made.id}`, { token: t })).json());
    const stats = async () => LibraryStats.parse(await (await h.call("GET", "/api/library/stats", { token: t })).json());
    const statsBefore = await stats();

    const archive = await bytesOf(await h.call("GET", "/api/template-storage/export-url", { token: t }));
    expect((await h.call("DELETE", `/api/drawings/${made.id}`, { token: t })).status).toBe(204);
    expect((await h.call("GET", `/api/library/items/${made.id}`, { token: t })).status).toBe(404);
    const body = new FormData();
    body.set("file", new Blob([new Uint8Array(archive)]), "backup.zip");
    const imported = await h.up.fetch(
      new Request("http://upstream.test/api/template-storage/import", { method: "POST", headers: { authorization: `Bearer ${t}` }, body }),
    );
    expect(`${imported.status} ${await imported.clone().text()}`).toMatch(/^200/);

    const after = LibraryItem.parse(await (await h.call("GET", `/api/library/items/${made.id}`, { token: t })).json());
    expect(after).toEqual(before);
    expect(after).toMatchObject({ isPublic: true, isGeneric: true, organizations: ["org-1"], categories: [category.id] });
    // The index and its counts follow the restored rows (the triggers run on the import's writes).
    expect(await stats()).toEqual(statsBefore);
  });
});
