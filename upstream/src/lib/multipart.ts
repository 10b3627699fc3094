/**
 * The one multipart/form-data reader of the process, for the back office's forms (app/lib/form.server.ts readForm)
 * and the upstream's uploads. undici's `request.formData()` and Hono's `parseBody()` parse a whole multipart body in
 * one synchronous pass, and every other request waits for it: seconds for the largest uploads the routes allow.
 * This one feeds busboy (the streaming parser) at most SLICE bytes at a time and gives the event loop a turn
 * (setImmediate) after each SLICE bytes, whether the body arrives from a socket or already in memory as one chunk.
 *
 * The result is the same FormData as `formData()`'s: text fields as strings, files as File objects, in body order.
 * busboy decides "file" by a non-empty filename or the type application/octet-stream, undici by the presence of a
 * filename parameter; the two differ only on parts no browser sends (an octet-stream part without a filename is a
 * File named "" here; a text/plain part with `filename=""` is a text field here), and routes take neither for a file.
 *
 * This module imports nothing of the upstream: the back office uses it too.
 */
import busboy from "busboy";

/** The bounds of one body. `bytes`: the whole body; a field or a file is bounded by it unless given its own. */
export type MultipartLimits = { parts: number; bytes: number; fieldBytes?: number; fileBytes?: number };

/**
 * The defaults: at most 1000 parts (the page forms' FORM_LIMITS.fields in server/guard.ts; the largest form has a few
 * dozen). Bytes are bounded before the body is read, by route (the request guard for pages, body-limit.ts for the
 * API), so none here unless a caller gives one.
 */
const MULTIPART_LIMITS: MultipartLimits = { parts: 1000, bytes: Number.POSITIVE_INFINITY };

/** Bytes handed to the parser between two turns of the event loop: ~1 ms of parsing. */
const SLICE = 256 * 1024;

export type MultipartProblem = "malformed" | "tooManyParts" | "tooLarge";

/** Why a body could not be read as multipart; callers answer it as the client's fault (400, or 413 for `tooLarge`). */
export class MultipartError extends Error {
  constructor(
    readonly problem: MultipartProblem,
    message: string,
  ) {
    super(message);
    this.name = "MultipartError";
  }
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

type Source = ReadableStream<Uint8Array> | Uint8Array | null;

async function* chunksOf(body: Source): AsyncGenerator<Uint8Array> {
  if (body === null) return;
  if (body instanceof Uint8Array) {
    yield body;
    return;
  }
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    // Stops the source when parsing fails part way (the rest is never read); a no-op once it has ended.
    reader.cancel().catch(() => {});
  }
}

/** A control byte that HTTP header values may not hold (busboy refuses them; tab, CR and LF are not among them). */
const isControl = (b: number) => (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d) || b === 0x7f;
const HEADER_END = [0x0d, 0x0a, 0x0d, 0x0a];
const NOTHING = Buffer.alloc(0);

/**
 * Drops control bytes from the part headers, slice by slice. Browsers escape only CR, LF and `"` in a file name and
 * send other control characters as they are (a name made on Linux may hold one); undici took them, busboy refuses the
 * whole body. The routes strip control characters from names anyway (files/routes.ts uploadName). Part bodies pass
 * untouched; a slice is copied only when it has a byte to drop.
 */
class HeaderControls {
  readonly #delimiter: Buffer;
  /** The last bytes of the body part seen, for a delimiter cut between two slices (busboy's leading CRLF first). */
  #tail: Buffer = Buffer.from("\r\n");
  #inHeader = false;
  #headerEnd = 0;
  constructor(boundary: string) {
    this.#delimiter = Buffer.from(`\r\n--${boundary}`);
  }

  filter(slice: Buffer): Buffer {
    const d = this.#delimiter;
    const drop: number[] = [];
    let i = 0;
    while (i < slice.length) {
      if (this.#inHeader) {
        for (; i < slice.length; i++) {
          const b = slice[i]!;
          if (b === HEADER_END[this.#headerEnd]) this.#headerEnd++;
          else this.#headerEnd = b === 0x0d ? 1 : 0;
          if (isControl(b)) drop.push(i);
          if (this.#headerEnd === 4) {
            this.#inHeader = false;
            this.#headerEnd = 0;
            i++;
            break;
          }
        }
        continue;
      }
      const tail = this.#tail;
      this.#tail = NOTHING;
      if (tail.length > 0) {
        // A delimiter that starts in the tail ends in this slice.
        const at = Buffer.concat([tail, slice.subarray(i, i + d.length - 1)]).indexOf(d);
        if (at !== -1 && at < tail.length) {
          i += at + d.length - tail.length;
          this.#inHeader = true;
          continue;
        }
      }
      const at = slice.indexOf(d, i);
      if (at !== -1) {
        i = at + d.length;
        this.#inHeader = true;
        continue;
      }
      const rest = slice.subarray(i);
      const keep = d.length - 1;
      this.#tail = rest.length >= keep ? Buffer.from(rest.subarray(rest.length - keep)) : Buffer.concat([tail, rest]).subarray(-keep);
      i = slice.length;
    }
    if (drop.length === 0) return slice;
    const out = Buffer.allocUnsafe(slice.length - drop.length);
    let from = 0;
    let to = 0;
    for (const at of drop) {
      to += slice.copy(out, to, from, at);
      from = at + 1;
    }
    slice.copy(out, to, from);
    return out;
  }
}

/**
 * Reads `body` (a request's body stream, or bytes already in memory) of type `contentType` as a multipart form,
 * without holding the event loop. Throws MultipartError: not multipart or no boundary, a malformed or truncated body
 * ("malformed"), more than `limits.parts` parts ("tooManyParts"), or past a byte bound ("tooLarge").
 */
export async function readMultipart(body: Source, contentType: string | null | undefined, limits: Partial<MultipartLimits> = {}): Promise<FormData> {
  const { parts, bytes, fieldBytes = bytes, fileBytes = bytes } = { ...MULTIPART_LIMITS, ...limits } as MultipartLimits;
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": contentType ?? "" },
      // As undici: the file name as sent (routes keep its last segment themselves), parameters read as UTF-8.
      preservePath: true,
      defParamCharset: "utf8",
      // busboy cuts a value that *reaches* its limit: one more byte, so that a value of exactly the bound passes.
      limits: { fieldSize: Math.min(fieldBytes + 1, Number.MAX_SAFE_INTEGER), fileSize: fileBytes + 1, parts: parts + 1 },
    });
  } catch {
    throw new MultipartError("malformed", "The body is not multipart/form-data with a boundary.");
  }

  // Each part's entry in body order: a file's value is set when its stream ends, after later fields may have come.
  const entries: { name: string; value: string | File | null }[] = [];
  let failure: MultipartError | null = null;
  const fail = (error: MultipartError) => {
    failure ??= error;
    // After busboy's own handler has returned: it goes on touching the part's state right after emitting.
    process.nextTick(() => parser.destroy());
  };
  const counted = () => {
    if (entries.length < parts) return true;
    fail(new MultipartError("tooManyParts", `A form may have at most ${parts} parts.`));
    return false;
  };
  const tooLarge = (what: string) => new MultipartError("tooLarge", `${what} is larger than allowed.`);

  parser.on("field", (name, value, info) => {
    if (info.valueTruncated) return fail(tooLarge("A field"));
    if (counted()) entries.push({ name, value });
  });
  parser.on("file", (name, stream, info) => {
    // Each piece becomes a Blob as it comes (one copy of a slice's worth per turn); the File made of those Blobs at
    // the end shares their bytes. A File made of the raw pieces at the end would copy the whole file in one go.
    const pieces: Blob[] = [];
    const entry = counted() ? { name, value: null as File | null } : null;
    if (entry) entries.push(entry);
    stream.on("data", (chunk: Buffer) => {
      if (entry) pieces.push(new Blob([chunk as Uint8Array<ArrayBuffer>]));
    });
    stream.on("limit", () => fail(tooLarge("A file")));
    // A file cut short by a failure: the failure is the answer.
    stream.on("error", () => {});
    stream.on("end", () => {
      if (entry && !stream.truncated) entry.value = new File(pieces, info.filename ?? "", { type: info.mimeType });
    });
  });
  const done = new Promise<void>((resolve) => {
    parser.on("close", resolve);
    parser.on("error", (error: unknown) => {
      fail(new MultipartError("malformed", error instanceof Error ? error.message : "The multipart body cannot be read."));
      resolve();
    });
  });

  const boundary = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? "");
  const controls = new HeaderControls(boundary?.[1] ?? boundary?.[2] ?? "");
  let total = 0;
  let sinceTurn = 0;
  // Each write is parsed synchronously within it; the writable's own buffer only fills while a file stream is paused,
  // which ours never are (a `data` listener each).
  // A failure ends `done` too, so that no write is left waiting on a destroyed parser.
  const write = (slice: Uint8Array) => Promise.race([new Promise<void>((resolve) => parser.write(slice, () => resolve())), done]);
  for await (const chunk of chunksOf(body)) {
    for (let at = 0; at < chunk.byteLength && !failure; at += SLICE) {
      const slice = chunk.subarray(at, Math.min(at + SLICE, chunk.byteLength));
      total += slice.byteLength;
      if (total > bytes) {
        fail(tooLarge("The body"));
        break;
      }
      await write(controls.filter(Buffer.from(slice.buffer, slice.byteOffset, slice.byteLength)));
      sinceTurn += slice.byteLength;
      if (sinceTurn >= SLICE) {
        sinceTurn = 0;
        await turn();
      }
    }
    if (failure) break;
  }
  if (!failure) parser.end();
  await done;
  if (failure) throw failure;
  const form = new FormData();
  for (const { name, value } of entries) if (value !== null) form.append(name, value);
  return form;
}

/** Hono's `parseBody` answer: each name's value (the last one), or every value as a list with `all` (or a `[]` name). */
export type BodyData = Record<string, string | File | (string | File)[]>;

/**
 * `c.req.parseBody(options)` of Hono, reading multipart bodies with `readMultipart`: pass `c.req.raw`. An urlencoded
 * body (bounded to API_BODY_LIMIT, the parse is quick) is read by its `formData()`; any other type is `{}`, as
 * Hono's. Throws as `formData()` does on an unreadable body (MultipartError for multipart).
 */
export async function parseMultipartBody(request: Request, options: { all?: boolean; limits?: Partial<MultipartLimits> } = {}): Promise<BodyData> {
  const contentType = request.headers.get("content-type");
  const type = contentType?.split(";")[0]!.trim().toLowerCase();
  let form: FormData;
  if (type === "multipart/form-data") form = await readMultipart(request.body, contentType, options.limits);
  else if (type === "application/x-www-form-urlencoded") form = await request.formData();
  else return {};
  const data: BodyData = Object.create(null) as BodyData;
  form.forEach((value, key) => {
    const list = key.endsWith("[]");
    if (!options.all && !list) {
      data[key] = value;
      return;
    }
    const earlier = data[key];
    if (earlier === undefined) data[key] = list ? [value] : value;
    else if (Array.isArray(earlier)) earlier.push(value);
    else data[key] = [earlier, value];
  });
  return data;
}

/**
 * The bytes of a File or Blob as one Buffer, read SLICE by SLICE with a turn of the event loop between: Node's
 * `arrayBuffer()`, `bytes()`, `text()` and even `stream()` read a Blob in one synchronous pass, which for an upload of
 * tens of MB holds the event loop as long as a parse did. Use it for every uploaded file.
 */
export async function blobBytes(blob: Blob): Promise<Buffer> {
  const out = Buffer.allocUnsafe(blob.size);
  for (let at = 0; at < out.byteLength; at += SLICE) {
    if (at > 0) await turn();
    out.set(new Uint8Array(await blob.slice(at, Math.min(at + SLICE, out.byteLength)).arrayBuffer()), at);
  }
  return out;
}
