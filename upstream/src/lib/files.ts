import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";

/** What `put` stored. */
export type PutResult = { key: string; size: number; sha256: string };

export type PutOptions = {
  /** Refuse (a `FileStoreError` "exists") instead of replacing a file already stored under the key. */
  overwrite?: boolean;
  /** Stop and store nothing (a `FileStoreError` "tooLarge") once more bytes than this arrive. */
  maxBytes?: number;
};

/** A refused key, a file too large for `maxBytes`, or a key already taken with `overwrite: false`. */
export class FileStoreError extends Error {
  constructor(readonly reason: "badKey" | "tooLarge" | "exists", message: string) {
    super(message);
    this.name = "FileStoreError";
  }
}

/**
 * Where the upstream keeps file bytes (the resource kit). Keys are relative, `/`-separated paths
 * (`uploads/{id}`, `{script}/v{version}/{file}`); metadata (names, owners, content types) lives in the database.
 *
 * This is the seam an object store implements later: an S3-compatible `FileStore` maps `put` to PutObject (a
 * multipart upload for streams), `stream` to GetObject's body, `stat` to HeadObject and `delete` to DeleteObject,
 * under a bucket prefix, with the same key rules. Nothing outside a `FileStore` touches the bytes' location.
 */
export interface FileStore {
  /** Stores the bytes under `key` (whole or not at all), answering their size and SHA-256 (hex). */
  put(key: string, content: Readable | Buffer, options?: PutOptions): Promise<PutResult>;
  /** The bytes of `key`, or null when nothing is stored there. */
  stream(key: string): Readable | null;
  /** Size and last change of `key`, or null. */
  stat(key: string): { size: number; modifiedAt: Date } | null;
  /** Deletes `key`; false when nothing was stored there. */
  delete(key: string): Promise<boolean>;
}

/**
 * The size and SHA-256 of what `store` holds under `key`, or null when nothing is there: whether bytes about to be
 * stored under a key in use are the ones already there (then nothing is written), read as a stream (any size).
 */
export async function storedDigest(store: FileStore, key: string): Promise<{ size: number; sha256: string } | null> {
  const body = store.stream(key);
  if (!body) return null;
  const hash = crypto.createHash("sha256");
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    hash.update(chunk);
  }
  return { size, sha256: hash.digest("hex") };
}

// A key segment: no control characters (NUL included), no backslash, not "." or "..".
// eslint-disable-next-line no-control-regex
const BAD_CHARACTERS = /[\u0000-\u001f\u007f\\]/;

/** The key's segments, or a `FileStoreError` for a key that could name a place outside the store. */
export function keySegments(key: string): string[] {
  const segments = key.split("/");
  const bad =
    !key ||
    key.length > 1024 ||
    BAD_CHARACTERS.test(key) ||
    path.isAbsolute(key) ||
    segments.some((s) => s === "" || s === "." || s === "..");
  if (bad) throw new FileStoreError("badKey", "Refused file key.");
  return segments;
}

/**
 * Files on the local disk under `root` (`${DATA_DIR}/files` for uploads, `${DATA_DIR}/bot-scripts` for bot scripts).
 * Keys are checked (`keySegments`) and the resolved path must stay under `root`; a write goes to a temporary file
 * beside the target and is renamed into place only once complete (or linked, which refuses an existing file, when
 * `overwrite` is false), so a reader never sees half a file.
 */
export class LocalFileStore implements FileStore {
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  /** The absolute path of `key`, refused unless it stays under the root. */
  private pathOf(key: string): string {
    const file = path.resolve(this.root, ...keySegments(key));
    if (!file.startsWith(this.root + path.sep)) throw new FileStoreError("badKey", "Refused file key.");
    return file;
  }

  async put(key: string, content: Readable | Buffer, options: PutOptions = {}): Promise<PutResult> {
    const file = this.pathOf(key);
    const temp = path.join(path.dirname(file), `.${path.basename(file)}.${crypto.randomUUID()}.tmp`);
    // The temporary file is opened before any byte is read, so a folder that a deletion beside it removed in between
    // (see delete) is made again and the open retried, with nothing of the content consumed.
    let target: fs.WriteStream | null = null;
    for (let attempt = 0; !target; attempt++) {
      await fs.promises.mkdir(path.dirname(file), { recursive: true });
      target = await new Promise<fs.WriteStream | null>((resolve, reject) => {
        const stream = fs.createWriteStream(temp, { flags: "wx", mode: 0o600 });
        stream.once("open", () => resolve(stream));
        stream.once("error", (error: NodeJS.ErrnoException) => (error.code === "ENOENT" && attempt < 3 ? resolve(null) : reject(error)));
      });
    }
    const hash = crypto.createHash("sha256");
    let size = 0;
    const count = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        if (options.maxBytes !== undefined && size > options.maxBytes) {
          done(new FileStoreError("tooLarge", `The file is larger than ${options.maxBytes} bytes.`));
          return;
        }
        hash.update(chunk);
        done(null, chunk);
      },
    });
    try {
      const source = Buffer.isBuffer(content) ? Readable.from([content]) : content;
      await pipeline(source, count, target);
      if (options.overwrite === false) {
        await fs.promises.link(temp, file).catch((error: NodeJS.ErrnoException) => {
          throw error.code === "EEXIST"
            ? new FileStoreError("exists", "A file is already stored under this key.")
            : error;
        });
      } else {
        await fs.promises.rename(temp, file);
      }
    } finally {
      await fs.promises.rm(temp, { force: true });
    }
    return { key, size, sha256: hash.digest("hex") };
  }

  stream(key: string): Readable | null {
    const file = this.pathOf(key);
    let fd: number;
    try {
      fd = fs.openSync(file, "r");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
    if (!fs.fstatSync(fd).isFile()) {
      fs.closeSync(fd);
      return null;
    }
    // Opened above: a delete from now on does not cut the read short.
    return fs.createReadStream(file, { fd });
  }

  stat(key: string): { size: number; modifiedAt: Date } | null {
    const stats = fs.statSync(this.pathOf(key), { throwIfNoEntry: false });
    return stats?.isFile() ? { size: stats.size, modifiedAt: stats.mtime } : null;
  }

  async delete(key: string): Promise<boolean> {
    const file = this.pathOf(key);
    if (!this.stat(key)) return false;
    await fs.promises.rm(file, { force: true });
    // Keys name files, not folders (as in an object store): a folder emptied by this deletion goes with it.
    for (let dir = path.dirname(file); dir !== this.root && dir.startsWith(this.root + path.sep); dir = path.dirname(dir)) {
      const removed = await fs.promises.rmdir(dir).then(
        () => true,
        () => false,
      );
      if (!removed) break;
    }
    return true;
  }
}
