import type { Readable } from "node:stream";
import zlib from "node:zlib";
import yauzl from "yauzl";

/**
 * The one reader for zip-based files (docx, docm, dotx, pptx, vsdx, vstx, backups…). Nothing else in the product
 * opens a zip.
 *
 * - The central directory is parsed by yauzl (entries listed lazily, file names checked: no absolute paths, no `..`,
 *   no backslashes; here also no control characters and no duplicates).
 * - Only the entries the caller asks for are inflated, through node:zlib's asynchronous streams (the work runs off the
 *   event loop), and the bytes are counted as they come out: the read stops the moment a limit is crossed. The sizes
 *   the archive declares are used only to refuse early, never trusted: an entry that inflates to more than it declares
 *   is refused as damaged, as is a wrong CRC-32.
 * - Failures are {@link ZipError}s with an HTTP status: 413 when the content is too large once inflated (per entry, in
 *   total, too many entries, or compressed more than {@link ZIP_MAX_RATIO}:1), 400 when it is not a valid zip.
 *
 * Limits (defaults; a caller may only make them tighter for its format, e.g. the .docx reader):
 */
const MiB = 1024 * 1024;
/** At most this many entries in the central directory (a 50-page Word document has about 15). */
export const ZIP_MAX_ENTRIES = 2_000;
/** At most this many bytes in one entry once inflated. */
export const ZIP_MAX_ENTRY_BYTES = 50 * MiB;
/** At most this many bytes inflated over all the entries read from one archive. */
const ZIP_MAX_TOTAL_BYTES = 100 * MiB;
/** An entry past {@link ZIP_RATIO_FROM_BYTES} inflated may not be more than this many times its compressed size. */
const ZIP_MAX_RATIO = 100;
/** Entries smaller than this once inflated are not held to the ratio (tiny XML parts compress very well). */
const ZIP_RATIO_FROM_BYTES = 1 * MiB;

export type ZipLimits = {
  maxEntries: number;
  maxEntryBytes: number;
  maxTotalBytes: number;
  maxRatio: number;
  ratioFromBytes: number;
};

const ZIP_LIMITS: Readonly<ZipLimits> = Object.freeze({
  maxEntries: ZIP_MAX_ENTRIES,
  maxEntryBytes: ZIP_MAX_ENTRY_BYTES,
  maxTotalBytes: ZIP_MAX_TOTAL_BYTES,
  maxRatio: ZIP_MAX_RATIO,
  ratioFromBytes: ZIP_RATIO_FROM_BYTES,
});

export type ZipErrorReason = "invalid" | "tooManyEntries" | "entryTooLarge" | "totalTooLarge" | "ratio";

/** A zip the reader refuses: `status` 413 (too large once inflated) or 400 (not a valid zip), `message` for the user. */
export class ZipError extends Error {
  constructor(
    readonly status: 400 | 413,
    readonly reason: ZipErrorReason,
    message: string,
    /** What went wrong inside the archive, for logs (never shown to users). */
    readonly detail?: string,
  ) {
    super(message);
    this.name = "ZipError";
  }
}

export type ZipOptions = {
  /** Tighter limits for a format (each must be at most the default). */
  limits?: Partial<ZipLimits>;
  /** How messages name the file: "The document" → "The document is too large when uncompressed (over 50 MB)." */
  subject?: string;
  /** What a valid file is: ".docx document" → "The file is not a valid .docx document." */
  kind?: string;
};

export type ZipArchive = {
  /** Every entry name in the archive (already checked), directories included. */
  readonly names: readonly string[];
  has(name: string): boolean;
  /** The inflated bytes of `name`, or null when the archive has no such entry. */
  read(name: string): Promise<Buffer | null>;
  /** `read` decoded as UTF-8 (a byte-order mark is dropped). */
  readText(name: string): Promise<string | null>;
};

const mb = (bytes: number) => `${Math.round((bytes / MiB) * 10) / 10} MB`;

function resolveLimits(options: ZipOptions): ZipLimits {
  const limits = { ...ZIP_LIMITS };
  for (const key of Object.keys(ZIP_LIMITS) as (keyof ZipLimits)[]) {
    const value = options.limits?.[key];
    if (value === undefined) continue;
    // ratioFromBytes is a threshold: lowering it is the tighter direction, like every other limit.
    if (!(value > 0) || value > ZIP_LIMITS[key]) throw new RangeError(`zip limit ${key} must be in (0, ${ZIP_LIMITS[key]}]`);
    limits[key] = value;
  }
  return limits;
}

function messages(options: ZipOptions, limits: ZipLimits) {
  const subject = options.subject ?? "The file";
  const kind = options.kind ?? "zip archive";
  return {
    invalid: (detail: string) => new ZipError(400, "invalid", `The file is not a valid ${kind}.`, detail),
    tooManyEntries: (count: number) =>
      new ZipError(413, "tooManyEntries", `${subject} has too many parts (${count}, at most ${limits.maxEntries}).`),
    entryTooLarge: (name: string) =>
      new ZipError(413, "entryTooLarge", `${subject} is too large when uncompressed (over ${mb(limits.maxEntryBytes)}).`, name),
    totalTooLarge: () =>
      new ZipError(413, "totalTooLarge", `${subject} is too large when uncompressed (over ${mb(limits.maxTotalBytes)}).`),
    ratio: (name: string) =>
      new ZipError(
        413,
        "ratio",
        `${subject} is too large when uncompressed (a part expands more than ${limits.maxRatio} times).`,
        name,
      ),
  };
}
type Messages = ReturnType<typeof messages>;

// Control characters (C0, DEL, C1) never belong in an entry name.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Opens a zip held in memory: reads its central directory (entry count and names checked) and returns a reader of
 * single entries. Throws {@link ZipError}.
 */
export async function openZip(bytes: Uint8Array, options: ZipOptions = {}): Promise<ZipArchive> {
  const limits = resolveLimits(options);
  const say = messages(options, limits);
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(buffer, {
      lazyEntries: true,
      autoClose: false,
      decodeStrings: true,
      validateEntrySizes: true,
      strictFileNames: false,
    });
  } catch (error) {
    throw say.invalid((error as Error).message);
  }
  // Declared by the end-of-central-directory record; yauzl reads no more entries than this.
  if (zip.entryCount > limits.maxEntries) throw say.tooManyEntries(zip.entryCount);
  const entries = new Map<string, yauzl.Entry>();
  try {
    for await (const entry of zip.eachEntry()) {
      const name = entry.fileName;
      if (!name || CONTROL.test(name) || name.length > 1024) throw say.invalid(`bad entry name ${JSON.stringify(name)}`);
      if (entries.has(name)) throw say.invalid(`duplicate entry ${name}`);
      entries.set(name, entry);
    }
  } catch (error) {
    if (error instanceof ZipError) throw error;
    // yauzl: bad central directory record, absolute path, "..", backslash, bad sizes of a stored entry…
    throw say.invalid((error as Error).message);
  }

  const budget = { total: 0 };
  const read = async (name: string): Promise<Buffer | null> => {
    const entry = entries.get(name);
    if (!entry || name.endsWith("/")) return null;
    return inflateEntry(zip, entry, limits, budget, say);
  };
  return {
    names: [...entries.keys()],
    has: (name) => entries.has(name),
    read,
    readText: async (name) => {
      const bytes = await read(name);
      if (!bytes) return null;
      const text = bytes.toString("utf8");
      return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    },
  };
}

/** Reads the named entries (absent ones left out of the map). Throws {@link ZipError}. */
export async function readZipEntries(
  bytes: Uint8Array,
  names: readonly string[],
  options: ZipOptions = {},
): Promise<Map<string, Buffer>> {
  const archive = await openZip(bytes, options);
  const found = new Map<string, Buffer>();
  for (const name of names) {
    const data = await archive.read(name);
    if (data) found.set(name, data);
  }
  return found;
}

const crc32: ((data: Uint8Array, value?: number) => number) | undefined =
  typeof zlib.crc32 === "function" ? zlib.crc32 : undefined;

async function inflateEntry(
  zip: yauzl.ZipFile,
  entry: yauzl.Entry,
  limits: ZipLimits,
  budget: { total: number },
  say: Messages,
): Promise<Buffer> {
  const name = entry.fileName;
  if (entry.isEncrypted()) throw say.invalid(`${name} is encrypted`);
  if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
    throw say.invalid(`${name} uses compression method ${entry.compressionMethod}`);
  }
  // The declared size refuses early an archive that says it is too large; a smaller declared size proves nothing.
  if (entry.uncompressedSize > limits.maxEntryBytes) throw say.entryTooLarge(name);
  if (budget.total + entry.uncompressedSize > limits.maxTotalBytes) throw say.totalTooLarge();

  let raw: Readable;
  try {
    // Raw bytes: the inflating is ours, so that we count every byte it produces and can stop it at once.
    raw = await zip.openReadStreamPromise(entry, { decodeFileData: false });
  } catch (error) {
    throw say.invalid(`${name}: ${(error as Error).message}`);
  }
  const inflater = entry.compressionMethod === 8 ? zlib.createInflateRaw() : null;
  const out: Readable = inflater ?? raw;

  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let crc = 0;
    let settled = false;
    const stop = (error: ZipError) => {
      if (settled) return;
      settled = true;
      chunks.length = 0;
      if (inflater) raw.unpipe(inflater);
      raw.destroy();
      inflater?.destroy();
      reject(error);
    };
    raw.on("error", (error: Error) => stop(say.invalid(`${name}: ${error.message}`)));
    inflater?.on("error", (error: Error) => stop(say.invalid(`${name}: ${error.message}`)));
    out.on("data", (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      budget.total += chunk.length;
      if (size > limits.maxEntryBytes) return stop(say.entryTooLarge(name));
      if (budget.total > limits.maxTotalBytes) return stop(say.totalTooLarge());
      if (size > limits.ratioFromBytes && size > limits.maxRatio * Math.max(entry.compressedSize, 1)) {
        return stop(say.ratio(name));
      }
      if (size > entry.uncompressedSize) {
        return stop(say.invalid(`${name} inflates to more than its declared ${entry.uncompressedSize} bytes`));
      }
      if (crc32) crc = crc32(chunk, crc);
      chunks.push(chunk);
    });
    out.on("end", () => {
      if (settled) return;
      if (size !== entry.uncompressedSize) {
        return stop(say.invalid(`${name} inflates to ${size} bytes, not the declared ${entry.uncompressedSize}`));
      }
      if (crc32 && crc >>> 0 !== entry.crc32 >>> 0) return stop(say.invalid(`${name} fails its CRC-32 check`));
      settled = true;
      resolve(Buffer.concat(chunks, size));
    });
    if (inflater) raw.pipe(inflater);
  });
}
