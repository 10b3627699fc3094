import crypto from "node:crypto";
import type { Readable } from "node:stream";
import type { DocProperties, RecordFile } from "../../contract/record-files";
import type { FileStore } from "./files";

/**
 * A record's file as stored in its record (the `data` column): the answered `RecordFile` without its `url` (derived
 * from where the record lives) plus the store `key`, never answered.
 */
export type StoredRecordFile = Omit<RecordFile, "url"> & { key: string };

/** One uploaded part, checked by the resource's `files` hook before anything is stored. */
export type FileUpload = { name: string; contentType: string; bytes: Buffer };

/** True for a value shaped like a stored record file (a data field holding one). */
export function isStoredRecordFile(value: unknown): value is StoredRecordFile {
  const v = value as Partial<StoredRecordFile> | null;
  return !!v && typeof v === "object" && typeof v.key === "string" && typeof v.sha256 === "string";
}

/**
 * The bytes of records' files (resource kit): under `records/{resource}/{uuid}` in a `FileStore`, a new key per
 * upload (a replacement never overwrites what a reader may be streaming; the old key is deleted once the record
 * names the new one).
 */
export class RecordFiles {
  constructor(
    readonly store: FileStore,
    private readonly now: () => number,
  ) {}

  /** Stores one upload of `resource`; answers what its record keeps. */
  async put(resource: string, upload: FileUpload, properties: DocProperties | null): Promise<StoredRecordFile> {
    const key = `records/${resource}/${crypto.randomUUID()}`;
    const stored = await this.store.put(key, upload.bytes, { overwrite: false });
    return {
      key,
      name: upload.name,
      size: stored.size,
      contentType: upload.contentType,
      sha256: stored.sha256,
      uploadedAt: new Date(this.now()).toISOString(),
      properties,
    };
  }

  open(file: StoredRecordFile): Readable | null {
    return this.store.stream(file.key);
  }

  /** Deletes the bytes of files no record names any more (best effort: a missing key is fine). */
  async discard(files: readonly (StoredRecordFile | null | undefined)[]): Promise<void> {
    for (const file of files) if (file) await this.store.delete(file.key).catch(() => false);
  }
}

/** A stored record file as answered: the key dropped, the download `url` added. */
export function answeredFile(file: StoredRecordFile, url: string): RecordFile {
  const { key: _key, ...rest } = file;
  return { ...rest, url };
}
