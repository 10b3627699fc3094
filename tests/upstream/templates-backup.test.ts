import { describe, expect, it } from "vitest";
import { BACKUP_MESSAGES } from "@contract/template-storage";
import { openZip } from "../../upstream/src/lib/zip";
import { createZipWriter } from "../../upstream/src/lib/zip-writer";
import { modelXml, officePackage, pdf } from "../fixtures/office";
import { harness, message, type Harness } from "./helpers";
import { bytesOf, sendMultipart, withPermissions, type Json } from "./templates-helpers";
import JSZip from "jszip";
import { checkBackupRows } from "../../upstream/src/templates/backup-rows";
import { watchEventLoop } from "../helpers/event-loop";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { databaseFile } from "../../upstream/src/db";

async function seed(h: Harness) {
  await sendMultipart(h, "POST", "/api/docs/word/", { description: "d", tags: ["x"], isPublic: true }, { fileTemplate: { name: "Letter.dotx", bytes: await officePackage("dotx", { core: { title: "T" } }) } });
  await sendMultipart(h, "POST", "/api/docs/visio/", {}, { fileTemplate: { name: "Flow.vstx", bytes: await officePackage("vstx", { masters: [{ id: 1, name: "Box" }] }) } });
  await sendMultipart(h, "POST", "/api/drawings/", { textTemplate: "{{x}}" }, { fileTemplate: { name: "Fig.vsdx", bytes: await officePackage("vsdx") } });
  await sendMultipart(h, "POST", "/api/forms/", { type: "xfdf", fileNameTemplate: "f" }, { formFile: { name: "F.pdf", bytes: pdf() }, modelFile: { name: "m.xfdf", bytes: modelXml() } });
}

/** Every record of every table, and every file's bytes, as the API answers them. */
async function snapshot(h: Harness) {
  const out: Record<string, unknown[]> = {};
  const files: Record<string, string> = {};
  for (const path of ["/api/docs/word/", "/api/docs/visio/", "/api/drawings/", "/api/shapes/", "/api/forms/"]) {
    const page = (await (await h.call("GET", `${path}?pageSize=100`, { token: h.adminToken })).json()) as { items: Record<string, Json>[] };
    out[path] = page.items;
    for (const item of page.items) {
      for (const url of [item.contentUrl, item.formUrl, item.modelUrl, item.thumbnailUrl]) {
        if (url) files[url] = (await bytesOf(await h.call("GET", url, { token: h.adminToken }))).toString("base64");
      }
    }
  }
  return { out, files };
}

async function collect(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Every stored file's bytes (by path under the file store) and every backed-up table's rows, read from disk. */
function onDisk(h: Harness) {
  const root = path.join(h.dir, "files");
  const files: Record<string, string> = {};
  for (const name of fs.readdirSync(root, { recursive: true }) as string[]) {
    const file = path.join(root, name);
    if (fs.statSync(file).isFile()) files[name] = crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex");
  }
  const db = new Database(databaseFile(h.dir), { readonly: true });
  try {
    const rows = Object.fromEntries(
      ["word_templates", "visio_templates", "drawings", "shapes", "forms"].map((t) => [t, db.prepare(`select * from ${t} order by id`).all()]),
    );
    return { files, rows };
  } finally {
    db.close();
  }
}

/**
 * A backup whose first Word template's file has other bytes (its record saying so: size and SHA-256 match) under the
 * key the library already uses, so that restoring it must replace that file.
 */
async function withReplacedWordFile(archive: Buffer) {
  const zip = await JSZip.loadAsync(archive);
  const rows = JSON.parse(await zip.file("records/word_templates.json")!.async("string")) as { data: string }[];
  const data = JSON.parse(rows[0]!.data) as Record<string, { key: string; size: number; sha256: string }>;
  const file = Object.values(data).find((v) => v && typeof v === "object" && "key" in v)!;
  const bytes = await officePackage("dotx", { core: { title: "Other" } });
  file.size = bytes.length;
  file.sha256 = crypto.createHash("sha256").update(bytes).digest("hex");
  rows[0]!.data = JSON.stringify(data);
  zip.file("records/word_templates.json", JSON.stringify(rows));
  zip.file(`files/${file.key}`, bytes);
  return { zip, key: file.key, bytes };
}

async function importZip(h: Harness, bytes: Buffer, token = h.adminToken) {
  const body = new FormData();
  body.set("file", new Blob([new Uint8Array(bytes)]), "backup.zip");
  return h.up.fetch(new Request("http://upstream.test/api/template-storage/import", { method: "POST", headers: { authorization: `Bearer ${token}` }, body }));
}

describe("template-storage backup", () => {
  it("round trip: export, wipe, import gives back every record and file byte for byte, and says what was imported", async () => {
    const h = await harness();
    await seed(h);
    const before = await snapshot(h);
    const exported = await h.call("GET", "/api/template-storage/export-url", { token: h.adminToken });
    expect(exported.headers.get("content-type")).toBe("application/zip");
    expect(exported.headers.get("content-disposition")).toMatch(/^attachment; filename="template-storage-2025-01-01\.zip"/);
    const archive = await bytesOf(exported);
    const zip = await openZip(archive);
    expect(zip.names.filter((n) => n.startsWith("files/"))).toHaveLength(5);

    for (const [path, items] of Object.entries(before.out)) {
      for (const item of items as { id: string }[]) if (path !== "/api/shapes/") await h.call("DELETE", `${path}${item.id}`, { token: h.adminToken });
    }
    expect(Object.values((await snapshot(h)).out).flat()).toEqual([]);

    const res = await importZip(h, archive);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ records: { word_templates: 1, visio_templates: 1, drawings: 1, shapes: 1, forms: 1 }, files: 5 });
    expect(await snapshot(h)).toEqual(before);
    expect(((await (await h.call("GET", "/api/template-storage/import", { token: h.adminToken })).json()) as Json).last.files).toBe(5);
  });

  it("a bad or hostile archive changes nothing", async () => {
    const h = await harness();
    await seed(h);
    const before = await snapshot(h);
    const good = await bytesOf(await h.call("GET", "/api/template-storage/export-url", { token: h.adminToken }));
    const load = async () => JSZip.loadAsync(good);

    const cases: [string, Buffer, number, string | RegExp][] = [];
    cases.push(["not a zip", Buffer.from("hello"), 400, BACKUP_MESSAGES.notBackup]);
    const noManifest = await load();
    noManifest.remove("manifest.json");
    cases.push(["no manifest", await noManifest.generateAsync({ type: "nodebuffer" }), 400, BACKUP_MESSAGES.notBackup]);
    const badVersion = await load();
    badVersion.file("manifest.json", JSON.stringify({ format: "backoffice-template-storage", version: 9 }));
    cases.push(["version", await badVersion.generateAsync({ type: "nodebuffer" }), 400, BACKUP_MESSAGES.badVersion(9)]);
    const tampered = await load();
    const fileName = Object.keys(tampered.files).find((n) => n.startsWith("files/"))!;
    tampered.file(fileName, "tampered");
    cases.push(["tampered file", await tampered.generateAsync({ type: "nodebuffer" }), 400, BACKUP_MESSAGES.badFile(fileName.slice(6))]);
    const extra = await load();
    extra.file("files/../../etc/passwd", "x");
    cases.push(["path traversal", await extra.generateAsync({ type: "nodebuffer" }), 400, BACKUP_MESSAGES.notBackup]);
    const badRows = await load();
    badRows.file("records/forms.json", JSON.stringify([{ id: "x", name: "y", evil: 1 }]));
    cases.push(["bad rows", await badRows.generateAsync({ type: "nodebuffer" }), 400, /^The backup's Forms records are damaged/]);
    const badKey = await load();
    const rows = JSON.parse(await badKey.file("records/drawings.json")!.async("string")) as { data: string }[];
    const data = JSON.parse(rows[0]!.data) as { fileTemplate: { key: string } };
    data.fileTemplate.key = "../../../secret";
    rows[0]!.data = JSON.stringify(data);
    badKey.file("records/drawings.json", JSON.stringify(rows));
    cases.push(["bad key", await badKey.generateAsync({ type: "nodebuffer" }), 400, /bad file key/]);
    // A bomb: an entry inflating past the reader's limits.
    const bomb = createZipWriter();
    const bombBytes = collect(bomb.output);
    await bomb.add("manifest.json", Buffer.alloc(60 * 1024 * 1024, 0x20), { deflate: true });
    await bomb.finish();
    cases.push(["bomb", await bombBytes, 413, /too large when uncompressed/]);

    for (const [label, bytes, status, text] of cases) {
      const res = await importZip(h, bytes);
      expect(res.status, label).toBe(status);
      const said = await message(res);
      if (typeof text === "string") expect(said, label).toBe(text);
      else expect(said, label).toMatch(text);
    }
    expect(await snapshot(h)).toEqual(before);
  }, 60_000);

  it("a row the database would refuse (a NOT NULL column null) is a 400 naming it, and every file stays byte for byte", async () => {
    const h = await harness();
    await seed(h);
    const { zip } = await withReplacedWordFile(await bytesOf(await h.call("GET", "/api/template-storage/export-url", { token: h.adminToken })));
    const shapes = JSON.parse(await zip.file("records/shapes.json")!.async("string")) as Record<string, unknown>[];
    shapes[0]!.template_id = null;
    zip.file("records/shapes.json", JSON.stringify(shapes));
    const before = onDisk(h);
    const snap = await snapshot(h);

    const res = await importZip(h, await zip.generateAsync({ type: "nodebuffer" }));
    expect(res.status).toBe(400);
    expect(await message(res)).toBe(BACKUP_MESSAGES.badRecords("Shapes", "item 0: template_id must not be null"));
    expect(onDisk(h)).toEqual(before);
    expect(await snapshot(h)).toEqual(snap);
  });

  it("a write the database refuses in the transaction is a 400 naming the row; the files replaced come back as they were", async () => {
    const h = await harness();
    await seed(h);
    const { zip } = await withReplacedWordFile(await bytesOf(await h.call("GET", "/api/template-storage/export-url", { token: h.adminToken })));
    const formId = (JSON.parse(await zip.file("records/forms.json")!.async("string")) as { id: string }[])[0]!.id;
    // A rule the checks cannot know (a trigger), so the refusal comes from inside the records' transaction.
    const db = new Database(databaseFile(h.dir));
    db.exec("create trigger refuse_forms before insert on forms begin select raise(abort, 'refused by a rule'); end");
    db.close();
    const before = onDisk(h);
    const snap = await snapshot(h);

    const res = await importZip(h, await zip.generateAsync({ type: "nodebuffer" }));
    expect(res.status).toBe(400);
    expect(await message(res)).toBe(BACKUP_MESSAGES.badRecords("Forms", `item 0 (${formId}): refused by a rule`));
    expect(onDisk(h)).toEqual(before);
    expect(await snapshot(h)).toEqual(snap);
  });

  it("an import over the library replaces a file under a key in use only once the records name it", async () => {
    const h = await harness();
    await seed(h);
    const { zip, bytes: other } = await withReplacedWordFile(await bytesOf(await h.call("GET", "/api/template-storage/export-url", { token: h.adminToken })));
    const res = await importZip(h, await zip.generateAsync({ type: "nodebuffer" }));
    expect(res.status).toBe(200);
    const word = (await (await h.call("GET", "/api/docs/word/?pageSize=10", { token: h.adminToken })).json()) as { items: Json[] };
    const bytes = await bytesOf(await h.call("GET", word.items[0].contentUrl as string, { token: h.adminToken }));
    expect(bytes.equals(other)).toBe(true);
    // The old bytes are gone: the store holds the five files the records name, no more.
    expect(Object.keys(onDisk(h).files)).toHaveLength(5);
  });

  it("checks a records entry off the event loop: 16 MB of hostile JSON leaves the server answering", async () => {
    const h = await harness();
    await seed(h);
    const before = await snapshot(h);
    const good = await JSZip.loadAsync(await bytesOf(await h.call("GET", "/api/template-storage/export-url", { token: h.adminToken })));
    // Empty objects: about JSON.parse's slowest input per byte (16 MB took ~1.7 s here, in one go on the thread).
    good.file("records/forms.json", `[${"{},".repeat(Math.floor((16 * 1024 * 1024) / 3))}{}]`, { compression: "STORE" });
    const hostile = await good.generateAsync({ type: "nodebuffer" });
    const { result, longest } = await watchEventLoop(() => importZip(h, hostile));
    expect(result.status).toBe(400);
    expect(await message(result)).toBe(BACKUP_MESSAGES.badRecords("Forms", "item 0 does not have this version's columns"));
    expect(longest).toBeLessThan(500);
    expect(await snapshot(h)).toEqual(before);
  }, 60_000);

  it("the rows check: the first problem of each kind, the file candidates of each row", async () => {
    const cols = ["id", "name", "data"];
    const check = (rows: unknown) => checkBackupRows(typeof rows === "string" ? rows : JSON.stringify(rows), cols);
    expect(await check("{")).toEqual({ error: "not JSON" });
    expect(await check({ a: 1 })).toEqual({ error: "not a list" });
    expect(await check([null])).toEqual({ error: "item 0 is not a record" });
    expect(await check([{ id: "a", name: "n" }])).toEqual({ error: "item 0 does not have this version's columns" });
    expect(await check([{ id: "a", name: "n", data: true }])).toEqual({ error: "item 0: data" });
    expect(await check([{ id: "a", name: "n", data: null }, { id: "a", name: "m", data: null }])).toEqual({ error: "item 1: id" });
    expect(await check([{ id: "a", name: 3, data: null }])).toEqual({ error: "item 0: name" });
    expect(await check([{ id: "a", name: "n", data: "{" }])).toEqual({ error: "item 0: data" });
    const file = { key: "records/forms/x", sha256: "s", size: 1 };
    expect(await check([{ id: "a", name: "n", data: JSON.stringify({ formFile: file, other: { key: 1 }, n: 2 }) }, { id: "b", name: "m", data: null }])).toEqual({
      rows: [{ id: "a", name: "n", data: JSON.stringify({ formFile: file, other: { key: 1 }, n: 2 }) }, { id: "b", name: "m", data: null }],
      files: [[file], []],
    });
  });

  it("needs administration to import, administration.read to export", async () => {
    const h = await harness();
    await withPermissions(h, "a@x.test", ["administration.read"]);
    const reader = await h.login("a@x.test", "secret1");
    expect((await h.call("GET", "/api/template-storage/export-url", { token: reader })).status).toBe(200);
    expect((await importZip(h, Buffer.from("x"), reader)).status).toBe(403);
    await withPermissions(h, "t@x.test", ["templates"]);
    const templates = await h.login("t@x.test", "secret1");
    expect((await h.call("GET", "/api/template-storage/export-url", { token: templates })).status).toBe(403);
  });

  it("the zip writer's archives read back through the safe reader (stored, deflated, streamed)", async () => {
    const zip = createZipWriter();
    const done = collect(zip.output);
    await zip.add("a.txt", Buffer.from("hello"));
    await zip.add("b/ü.json", Buffer.from("{}".repeat(1000)), { deflate: true });
    await zip.add("c.bin", (async function* () {
      yield Buffer.from([1, 2]);
      yield Buffer.from([3]);
    })());
    await zip.finish();
    const archive = await openZip(await done);
    expect(archive.names).toEqual(["a.txt", "b/ü.json", "c.bin"]);
    expect(await archive.readText("a.txt")).toBe("hello");
    expect((await archive.read("b/ü.json"))!.length).toBe(2000);
    expect([...(await archive.read("c.bin"))!]).toEqual([1, 2, 3]);
  });
});
