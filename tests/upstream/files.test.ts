import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { describe, expect, test, vi } from "vitest";
import { FILE_MESSAGES, FILE_TTL_MS, MAX_FILE_BYTES, StoredFile } from "@contract/files";
import { GenerateAnswer, ParseAnswer, joinParagraphs, type ContextObjectAnswer } from "@contract/nlp";
import { FileStoreError, LocalFileStore, keySegments } from "../../upstream/src/lib/files";
import { attachment, uploadName, uploadType } from "../../upstream/src/files/routes";
import { patentDocx } from "../fixtures/docx";
import { harness, message, tempDir, type Harness } from "./helpers";

function upload(h: Harness, token: string | null, parts: [string, string | File][]) {
  const form = new FormData();
  for (const [k, v] of parts) form.append(k, v);
  return h.up.fetch(
    new Request("http://upstream.test/api/files", {
      method: "POST",
      headers: token ? { authorization: `Bearer ${token}` } : {},
      body: form,
    }),
  );
}

async function uploaded(h: Harness, token: string, file: File): Promise<StoredFile> {
  const res = await upload(h, token, [["file", file]]);
  expect(res.status, await res.clone().text()).toBe(201);
  return StoredFile.parse(await res.json());
}

const read = async (stream: Readable) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

describe("LocalFileStore", () => {
  test("refuses keys that could leave the root: .., absolute, NUL, backslash, empty segments", async () => {
    const store = new LocalFileStore(path.join(tempDir(), "files"));
    for (const key of [
      "../x",
      "a/../../x",
      "/etc/passwd",
      "a\u0000b",
      "a\\..\\x",
      "a//b",
      "./a",
      "",
      "a/.",
      "..",
      "a\nb",
    ]) {
      expect(() => keySegments(key), JSON.stringify(key)).toThrow(FileStoreError);
      await expect(store.put(key, Buffer.from("x")), JSON.stringify(key)).rejects.toThrow(FileStoreError);
      expect(() => store.stream(key)).toThrow(FileStoreError);
    }
    expect(keySegments("uploads/abc.docx")).toEqual(["uploads", "abc.docx"]);
  });

  test("keys name files, not folders: deleting a folder's last file removes the emptied folders, never the root; puts beside deletions all land", async () => {
    const root = path.join(tempDir(), "files");
    const store = new LocalFileStore(root);
    await store.put("jobs/1/input", Buffer.from("a"));
    await store.put("jobs/1/result", Buffer.from("b"));
    await store.delete("jobs/1/input");
    expect(fs.readdirSync(path.join(root, "jobs", "1"))).toEqual(["result"]);
    await store.delete("jobs/1/result");
    expect(fs.existsSync(path.join(root, "jobs"))).toBe(false);
    expect(fs.existsSync(root)).toBe(true);
    // A deletion beside it empties (and removes) the folder a put has just made, before the put opens its file: the
    // put makes it again and lands, whole.
    const mkdir = fs.promises.mkdir;
    let raced = 0;
    const spy = vi.spyOn(fs.promises, "mkdir").mockImplementation(async (...args: Parameters<typeof mkdir>) => {
      const made = await mkdir(...args);
      if (raced++ === 0) await fs.promises.rmdir(args[0]);
      return made;
    });
    try {
      await store.put("race/file", Readable.from([Buffer.from("whole")]));
    } finally {
      spy.mockRestore();
    }
    expect(raced).toBe(2);
    expect(store.stat("race/file")?.size).toBe(5);
  });

  test("put (size, sha256, temp file renamed), stream byte-identical, stat, delete; overwrite: false; maxBytes", async () => {
    const root = path.join(tempDir(), "files");
    const store = new LocalFileStore(root);
    const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => i % 251));
    const put = await store.put("a/b.bin", Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]));
    expect(put).toEqual({
      key: "a/b.bin",
      size: bytes.length,
      sha256: (await import("node:crypto")).createHash("sha256").update(bytes).digest("hex"),
    });
    expect(fs.readdirSync(path.join(root, "a"))).toEqual(["b.bin"]); // no temporary file left
    expect((await read(store.stream("a/b.bin")!)).equals(bytes)).toBe(true);
    expect(store.stat("a/b.bin")?.size).toBe(bytes.length);
    await expect(store.put("a/b.bin", Buffer.from("new"), { overwrite: false })).rejects.toMatchObject({
      reason: "exists",
    });
    await expect(store.put("a/c.bin", bytes, { maxBytes: 100 })).rejects.toMatchObject({ reason: "tooLarge" });
    expect(fs.readdirSync(path.join(root, "a"))).toEqual(["b.bin"]);
    expect(await store.delete("a/b.bin")).toBe(true);
    expect(await store.delete("a/b.bin")).toBe(false);
    expect(store.stream("a/b.bin")).toBeNull();
    expect(store.stat("a")).toBeNull(); // a directory is not a file
  });
});

describe("/api/files", () => {
  test("upload, download byte-identical with its type and name, delete; only the owner sees it", async () => {
    const h = await harness();
    const bytes = Buffer.from(Array.from({ length: 200_000 }, (_, i) => (i * 7) % 256));
    const file = await uploaded(
      h,
      h.adminToken,
      new File([bytes], "C:\\docs\\Résumé \u0007final.docx", { type: "Application/Vnd.Test" }),
    );
    expect(file).toMatchObject({ name: "Résumé final.docx", size: bytes.length, contentType: "application/vnd.test" });
    expect(file.createdAt).toBe(new Date(h.clock.t).toISOString());
    expect(Date.parse(file.expiresAt) - Date.parse(file.createdAt)).toBe(FILE_TTL_MS);

    const got = await h.call("GET", `/api/files/${file.id}`, { token: h.adminToken });
    expect(got.status).toBe(200);
    expect(got.headers.get("content-type")).toBe("application/vnd.test");
    expect(got.headers.get("content-disposition")).toBe(attachment("Résumé final.docx"));
    expect(got.headers.get("x-content-type-options")).toBe("nosniff");
    expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true);

    await h.createUser({ email: "other@example.com" });
    const other = await h.login("other@example.com", "secret1");
    for (const method of ["GET", "DELETE"]) {
      const res = await h.call(method, `/api/files/${file.id}`, { token: other });
      expect(res.status, method).toBe(404);
      expect(await message(res)).toBe(FILE_MESSAGES.notFound);
    }
    expect((await h.call("GET", `/api/files/${file.id}`)).status).toBe(401);
    expect((await upload(h, null, [["file", new File(["x"], "x.txt")]])).status).toBe(401);

    expect((await h.call("DELETE", `/api/files/${file.id}`, { token: h.adminToken })).status).toBe(204);
    expect((await h.call("GET", `/api/files/${file.id}`, { token: h.adminToken })).status).toBe(404);
    // Nothing is left of it: an emptied folder goes with its last file.
    const uploads = path.join(h.dir, "files", "uploads");
    expect(fs.existsSync(uploads) ? fs.readdirSync(uploads) : []).toEqual([]);
  });

  test("expires after a day: 404, and its bytes are deleted at the next upload", async () => {
    const h = await harness();
    const old = await uploaded(h, h.adminToken, new File(["old"], "old.txt"));
    h.clock.advance(FILE_TTL_MS - 1);
    const token = await h.login(); // the first token has expired by now
    expect((await h.call("GET", `/api/files/${old.id}`, { token })).status).toBe(200);
    h.clock.advance(1);
    expect((await h.call("GET", `/api/files/${old.id}`, { token })).status).toBe(404);
    expect(fs.existsSync(path.join(h.dir, "files", "uploads", old.id))).toBe(true);
    const fresh = await uploaded(h, token, new File(["new"], "new.txt"));
    expect(fs.readdirSync(path.join(h.dir, "files", "uploads"))).toEqual([fresh.id]);
  });

  test("bad uploads: 400 without a file, with two, not multipart; 413 over 10 MB before reading", async () => {
    const h = await harness();
    const none = await upload(h, h.adminToken, [["other", "x"]]);
    expect(none.status).toBe(400);
    expect(await message(none)).toBe(`file: ${FILE_MESSAGES.required}`);
    const empty = await upload(h, h.adminToken, [["file", new File([], "empty.txt")]]);
    expect(await message(empty)).toBe(`file: ${FILE_MESSAGES.required}`);
    const two = await upload(h, h.adminToken, [
      ["file", new File(["a"], "a.txt")],
      ["file", new File(["b"], "b.txt")],
    ]);
    expect(two.status).toBe(400);
    expect(await message(two)).toBe(`file: ${FILE_MESSAGES.oneFile}`);
    const json = await h.call("POST", "/api/files", { token: h.adminToken, body: { file: "x" } });
    expect(json.status).toBe(400);
    expect(await message(json)).toBe(FILE_MESSAGES.notMultipart);

    const big = await upload(h, h.adminToken, [
      ["file", new File([Buffer.alloc(MAX_FILE_BYTES + 100_000)], "big.docx")],
    ]);
    expect(big.status).toBe(413);
    expect(await message(big)).toMatch(/^Request body is too large: a file may be/);
    // Just under the body limit but over the file limit: the route's own check.
    const over = await upload(h, h.adminToken, [["file", new File([Buffer.alloc(MAX_FILE_BYTES + 10)], "b.docx")]]);
    expect(over.status).toBe(413);
    expect(await message(over)).toBe(FILE_MESSAGES.tooLarge);
    const exact = await upload(h, h.adminToken, [["file", new File([Buffer.alloc(MAX_FILE_BYTES)], "max.bin")]]);
    expect(exact.status).toBe(201);
    expect(fs.readdirSync(path.join(h.dir, "files", "uploads"))).toHaveLength(1);
  });

  test("names and types are cleaned", () => {
    expect(uploadName("../../etc/passwd")).toBe("passwd");
    expect(uploadName("  \u0000 ")).toBe("file");
    expect(uploadName("x".repeat(300))).toHaveLength(255);
    expect(uploadType("text/html; charset=utf-8")).toBe("text/html");
    expect(uploadType("not a type")).toBe("application/octet-stream");
    expect(uploadType("")).toBe("application/octet-stream");
    expect(attachment('a"b\\%.docx')).toBe(`attachment; filename="a_b__.docx"; filename*=UTF-8''a%22b%5C%25.docx`);
  });
});

describe("the generator reads an upload by fileId", () => {
  test("parse, contextObject and generate with { fileId }; someone else's or an expired id: 404", async () => {
    const h = await harness();
    const t = h.adminToken;
    const file = await uploaded(h, t, new File([new Uint8Array(await patentDocx())], "widget.docx"));
    const document = { fileId: file.id };

    const parsed = await h.call("POST", "/api/nlp/api/v1/parser/parse", { token: t, body: { document } });
    expect(parsed.status).toBe(200);
    expect(ParseAnswer.parse(await parsed.json()).claims.claims).toHaveLength(5);

    const templates = [{ name: "t", body: "{{title}}: {{claims.length}} claims" }];
    const ctx = await h.call("POST", "/api/nlp/api/v1/generator/contextObject", {
      token: t,
      body: { templates, document },
    });
    expect(ctx.status).toBe(200);
    expect(Object.keys((await ctx.json()) as ContextObjectAnswer)).toEqual(["widget.docx"]);
    const gen = await h.call("POST", "/api/nlp/api/v1/generator/generate", { token: t, body: { templates, document } });
    expect(gen.status).toBe(200);
    expect(joinParagraphs(GenerateAnswer.parse(await gen.json()).paragraphs)).toMatch(/: 5 claims$/);

    const { id } = await h.createUser({ email: "other@example.com" });
    const body = { id, permissions: ["specifications.read"] };
    expect((await h.call("PATCH", `/api/auth/users/${id}`, { token: t, body })).status).toBe(200);
    const other = await h.login("other@example.com", "secret1");
    const foreign = await h.call("POST", "/api/nlp/api/v1/generator/generate", {
      token: other,
      body: { templates, document },
    });
    expect(foreign.status).toBe(404);
    expect(await message(foreign)).toBe(FILE_MESSAGES.notFound);

    const text = await uploaded(h, t, new File(["not a docx"], "notes.txt"));
    const notDocx = await h.call("POST", "/api/nlp/api/v1/generator/generate", {
      token: t,
      body: { templates, document: { fileId: text.id } },
    });
    expect(notDocx.status).toBe(400);

    const empty = await h.call("POST", "/api/nlp/api/v1/parser/parse", {
      token: t,
      body: { document: { fileId: "" } },
    });
    expect(empty.status).toBe(400);
    h.clock.advance(FILE_TTL_MS);
    const later = await h.login();
    expect((await h.call("POST", "/api/nlp/api/v1/parser/parse", { token: later, body: { document } })).status).toBe(
      404,
    );
  });
});
