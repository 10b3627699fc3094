/**
 * Template figures, measured on the production build through the pages a user posts to (not timed tests):
 *   1. template uploads by size, up to the largest accepted (MAX_TEMPLATE_BYTES): the create POST (multipart, to the
 *      redirect) and the download (streamed back, compared byte for byte);
 *   2. the template-storage backup with a realistic library (BENCH_TEMPLATES Word templates of 1 MB, Visio templates
 *      with masters, drawings, forms): export time and archive size, import time, and every file compared after the
 *      round trip.
 *   BUILD_DIR=.cache/build-x npx tsx bench/templates.ts
 */
import crypto from "node:crypto";
import { MAX_TEMPLATE_BYTES } from "@contract/templates";
import { largeDotx, modelXml, officePackage, pdf } from "../tests/fixtures/office";
import { fmt, rssMb, signIn, startBackoffice, table } from "./lib";

const TEMPLATES = Number(process.env.BENCH_TEMPLATES ?? 60);
const MB = 1024 * 1024;

type Session = { base: string; cookie: string };

async function post(s: Session, path: string, fields: Record<string, string | File>) {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.set(k, v);
  const t = performance.now();
  const response = await fetch(`${s.base}${path}`, { method: "POST", body, headers: { Cookie: s.cookie, Origin: s.base }, redirect: "manual" });
  await response.arrayBuffer();
  const ms = performance.now() - t;
  if (response.status !== 302) throw new Error(`POST ${path} answered ${response.status}`);
  return ms;
}

async function get(s: Session, path: string) {
  const t = performance.now();
  const response = await fetch(`${s.base}${path}`, { headers: { Cookie: s.cookie } });
  const bytes = Buffer.from(await response.arrayBuffer());
  if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}`);
  return { bytes, ms: performance.now() - t };
}

/** The ids in a list's edit links, page after page. */
async function idsOn(s: Session, list: string): Promise<string[]> {
  const ids = new Set<string>();
  for (let page = 1; ; page++) {
    const html = (await get(s, `${list}?page=${page}`)).bytes.toString();
    const before = ids.size;
    for (const m of html.matchAll(new RegExp(`${list}/([0-9a-f-]{36})/edit`, "g"))) ids.add(m[1]!);
    if (ids.size === before) return [...ids];
  }
}

const file = (bytes: Buffer, name: string) => new File([new Uint8Array(bytes)], name);
const sha = (b: Buffer) => crypto.createHash("sha256").update(b).digest("hex");

async function uploads(s: Session) {
  const rows: string[][] = [];
  for (const size of [1 * MB, 5 * MB, 10 * MB, MAX_TEMPLATE_BYTES - 64 * 1024]) {
    const bytes = await largeDotx(size);
    const name = `Upload ${bytes.length}`;
    const up = await post(s, "/documents/word/create", { intent: "save", fileTemplate: file(bytes, `${name}.dotx`) });
    const html = (await get(s, `/documents/word?q=${encodeURIComponent(name)}`)).bytes.toString();
    const id = /\/documents\/word\/([0-9a-f-]{36})\/edit/.exec(html)![1]!;
    const down = await get(s, `/documents/word/${id}/file`);
    if (!down.bytes.equals(bytes)) throw new Error(`${name}: the download differs from the upload`);
    rows.push([fmt(bytes.length / MB, 2), fmt(up, 0), fmt(down.ms, 0), "yes"]);
  }
  return table(["MB", "upload (POST → 302) ms", "download ms", "same bytes"], rows);
}

async function backup(s: Session, pid: number) {
  const t0 = performance.now();
  for (let i = 0; i < TEMPLATES; i++) {
    await post(s, "/documents/word/create", { intent: "save", fileTemplate: file(await largeDotx(MB), `Letter ${i}.dotx`), description: `Letter ${i}` });
  }
  for (let i = 0; i < 10; i++) {
    const masters = Array.from({ length: 8 }, (_, m) => ({ id: m + 1, name: `Shape ${i}-${m}`, geometry: (["rect", "ellipse", "triangle"] as const)[m % 3] }));
    await post(s, "/documents/visio/create", { intent: "save", fileTemplate: file(await officePackage("vstx", { masters }), `Flow ${i}.vstx`) });
    await post(s, "/drawings/create", { intent: "save", fileTemplate: file(await officePackage("vsdx"), `Figure ${i}.vsdx`), textTemplate: "{{title}}" });
    await post(s, "/forms/create", { intent: "save", type: "xfa", fileNameTemplate: "{{matter}}.pdf", formFile: file(pdf(`IDS ${i}`), `IDS ${i}.pdf`), modelFile: file(modelXml("xfa"), `ids-${i}.xfa`) });
  }
  const seeded = performance.now() - t0;

  const files = async () => {
    const out = new Map<string, string>();
    for (const [list, path] of [["/documents/word", (id: string) => `/documents/word/${id}/file`], ["/documents/visio", (id: string) => `/documents/visio/${id}/file`], ["/drawings", (id: string) => `/drawings/${id}/file`]] as const) {
      for (const id of await idsOn(s, list)) out.set(path(id), sha((await get(s, path(id))).bytes));
    }
    for (const id of await idsOn(s, "/forms")) for (const f of ["formFile", "modelFile"]) out.set(`/forms/${id}/files/${f}`, sha((await get(s, `/forms/${id}/files/${f}`)).bytes));
    for (const id of await idsOn(s, "/shapes")) out.set(`/shapes/${id}/thumbnail`, sha((await get(s, `/shapes/${id}/thumbnail`)).bytes));
    return out;
  };
  const before = await files();
  const exported = await get(s, "/administration/template-storage/export");
  // Import replaces everything: delete some records first, import the archive, then every download must be as before.
  for (const id of (await idsOn(s, "/documents/word")).slice(0, 10)) await post(s, `/documents/word/${id}/edit`, { intent: "delete", confirmed: "yes" });
  const rssBefore = rssMb(pid);
  const imported = await post(s, "/administration/template-storage", { file: file(exported.bytes, "backup.zip"), replace: "yes" });
  const rss = rssMb(pid);
  await new Promise((resolve) => setTimeout(resolve, 15_000));
  const rssLater = rssMb(pid);
  const screen = (await get(s, "/administration/template-storage")).bytes.toString();
  const summary = /Word templates: \d+, Visio templates: \d+, Drawings: \d+, Shapes: \d+, Forms: \d+; \d+ files?/.exec(screen)?.[0] ?? "?";
  const after = await files();
  const same = before.size === after.size && [...before].every(([k, v]) => after.get(k) === v);
  if (!same) throw new Error(`after the import ${after.size} files, before ${before.size}; differing: ${[...before].filter(([k, v]) => after.get(k) !== v).length}`);
  return `Imported: ${summary}\n\n${table(
    ["downloads checked", "seed s", "archive MB", "export ms", "import ms", "server RSS before → after → 15 s later MB", "all equal"],
    [[String(before.size), fmt(seeded / 1000, 1), fmt(exported.bytes.length / MB, 1), fmt(exported.ms, 0), fmt(imported, 0), `${fmt(rssBefore, 0)} → ${fmt(rss, 0)} → ${fmt(rssLater, 0)}`, "yes"]],
  )}`;
}

const server = await startBackoffice();
try {
  const s = { base: server.base, cookie: await signIn(server.base) };
  console.log(`Load average at start: ${(await import("node:os")).loadavg().map((l) => l.toFixed(2)).join(" ")}\n`);
  console.log("Template uploads through /documents/word/create and back through /documents/word/{id}/file\n");
  console.log(await uploads(s));
  console.log("\nTemplate-storage backup through /administration/template-storage (export, import, every file compared)\n");
  console.log(await backup(s, server.pid));
  console.log(`\nLoad average at end: ${(await import("node:os")).loadavg().map((l) => l.toFixed(2)).join(" ")}`);
} finally {
  await server.stop();
}
