import { describe, expect, it } from "vitest";
import { INSTALLER_PATH } from "@contract/application-crawler";
import { blobBytes, MultipartError, parseMultipartBody, readMultipart } from "../../upstream/src/lib/multipart";
import { watchEventLoop } from "../helpers/event-loop";
import { harness } from "./helpers";

const MB = 1024 * 1024;
const TYPE = "multipart/form-data; boundary=----b0undary";

/** A body as a browser writes it: CRLF lines, `filename=""` for an empty file input, control bytes sent as they are. */
function browserBody(): Buffer {
  const part = (headers: string[], content: string | Buffer) =>
    Buffer.concat([Buffer.from(`------b0undary\r\n${headers.join("\r\n")}\r\n\r\n`), Buffer.from(content), Buffer.from("\r\n")]);
  return Buffer.concat([
    part(['Content-Disposition: form-data; name="title"'], "héllo\r\nworld"),
    part(['Content-Disposition: form-data; name="tags"'], "a"),
    part(['Content-Disposition: form-data; name="file"; filename="Résumé \u0007final.csv"', "Content-Type: text/csv"], Buffer.from("a,b\r\n------b0undar,y\r\n")),
    part(['Content-Disposition: form-data; name="tags"'], "b"),
    part(['Content-Disposition: form-data; name="empty"; filename=""', "Content-Type: application/octet-stream"], ""),
    Buffer.from("------b0undary--\r\n"),
  ]);
}

async function entries(form: FormData) {
  const out: [string, string | { name: string; type: string; bytes: string }][] = [];
  for (const [name, value] of form) {
    out.push([name, typeof value === "string" ? value : { name: value.name, type: value.type, bytes: (await blobBytes(value)).toString("latin1") }]);
  }
  return out;
}

/** `bytes` as a stream of chunks of `size` bytes. */
function chunked(bytes: Buffer, size: number): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(at, (at += size)));
    },
  });
}

describe("readMultipart", () => {
  it("reads what formData() reads: fields, repeated names, UTF-8, control bytes in a name, files, in body order", async () => {
    const body = browserBody();
    const expected = await entries(await new Response(new Uint8Array(body), { headers: { "content-type": TYPE } }).formData());
    expect(expected.map(([name]) => name)).toEqual(["title", "tags", "file", "tags", "empty"]);
    // Whole, and cut anywhere (a delimiter or a header cut between two chunks).
    for (const source of [body, chunked(body, 1), chunked(body, 7), chunked(body, 64)]) {
      const got = await entries(await readMultipart(source, TYPE));
      // The control byte is dropped from the name (the routes strip it anyway); everything else is as undici's.
      expect(got).toEqual(expected.map(([n, v]) => [n, typeof v === "string" || v.name !== "Résumé \u0007final.csv" ? v : { ...v, name: "Résumé final.csv" }]));
    }
  });

  it("refuses a body without a boundary, a truncated or malformed one, more parts than allowed, past its bound", async () => {
    const body = browserBody();
    const problem = (p: Promise<unknown>) => p.then(() => "read", (e: unknown) => (e instanceof MultipartError ? e.problem : String(e)));
    expect(await problem(readMultipart(body, "multipart/form-data"))).toBe("malformed");
    expect(await problem(readMultipart(body.subarray(0, body.length - 30), TYPE))).toBe("malformed");
    expect(await problem(readMultipart(Buffer.from("------b0undary\r\nno colon here\r\n\r\nx\r\n------b0undary--"), TYPE))).toBe("malformed");
    expect(await problem(readMultipart(null, TYPE))).toBe("malformed");
    expect(await problem(readMultipart(body, TYPE, { parts: 4 }))).toBe("tooManyParts");
    expect(await problem(readMultipart(body, TYPE, { parts: 5 }))).toBe("read");
    expect(await problem(readMultipart(body, TYPE, { bytes: body.length - 1 }))).toBe("tooLarge");
    expect(await problem(readMultipart(body, TYPE, { bytes: body.length }))).toBe("read");
    // The file has 22 bytes, the longest field 13 (UTF-8): a bound of exactly that passes.
    expect(await problem(readMultipart(body, TYPE, { fileBytes: 21 }))).toBe("tooLarge");
    expect(await problem(readMultipart(body, TYPE, { fileBytes: 22 }))).toBe("read");
    expect(await problem(readMultipart(body, TYPE, { fieldBytes: 12 }))).toBe("tooLarge");
    expect(await problem(readMultipart(body, TYPE, { fieldBytes: 13 }))).toBe("read");
  });

  it("parseMultipartBody answers as Hono's parseBody: the last value, or all with `all`; {} for other types", async () => {
    const request = () => new Request("http://x/", { method: "POST", headers: { "content-type": TYPE }, body: new Uint8Array(browserBody()) });
    expect((await parseMultipartBody(request())).tags).toBe("b");
    expect((await parseMultipartBody(request(), { all: true })).tags).toEqual(["a", "b"]);
    expect(await parseMultipartBody(new Request("http://x/", { method: "POST", body: "x", headers: { "content-type": "text/plain" } }))).toEqual({});
  });
});

/** A multipart body of one `size` file plus a version field, as bytes, and its content type. */
async function upload(size: number) {
  const form = new FormData();
  form.append("version", "1.0.0");
  form.append("file", new File([Buffer.alloc(size, "MZ\r\n--")], "Setup.exe", { type: "application/octet-stream" }));
  const request = new Request("http://x/", { method: "PUT", body: form });
  return { type: request.headers.get("content-type")!, bytes: Buffer.from(await request.arrayBuffer()) };
}

describe("no upload holds the event loop", () => {
  // formData() held it ~2 s for 50 MB on a busy machine (the longest wait below is wall time, load included).
  it("the reader alone: a 50 MB body already in memory, in one chunk", async () => {
    const { type, bytes } = await upload(50 * MB);
    const { result, longest } = await watchEventLoop(async () => blobBytes((await readMultipart(bytes, type)).get("file") as File));
    expect(result.length).toBe(50 * MB);
    expect(longest).toBeLessThan(400);
  }, 60_000);

  it("the API: a 16 MB and a 50 MB installer (PUT /api/application-crawler/installer)", async () => {
    const h = await harness();
    for (const size of [16 * MB, 50 * MB - 64 * 1024]) {
      const { type, bytes } = await upload(size);
      const request = new Request(`http://upstream.test${INSTALLER_PATH}`, {
        method: "PUT",
        headers: { authorization: `Bearer ${h.adminToken}`, "content-type": type, "content-length": String(bytes.length) },
        body: bytes,
      });
      const { result, longest } = await watchEventLoop(() => h.up.fetch(request));
      expect(result.status, await result.clone().text()).toBe(200);
      expect(((await result.json()) as { installer: { size: number } }).installer.size).toBe(size);
      expect(longest, `${size} bytes`).toBeLessThan(600);
    }
  }, 120_000);
});
