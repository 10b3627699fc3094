import { Readable } from "node:stream";
import zlib from "node:zlib";

/**
 * A minimal streaming zip writer (the template-storage backup): no package that writes zips is a production
 * dependency (jszip is only docx's, a dev dependency; yazl is not installed), so this writes the format's simplest
 * form behind the `ZipSink` interface — swap in yazl here if it is ever added:
 *
 * - entries stored (method 0: the office files inside are already deflated) or deflated (method 8: the JSON records),
 *   each followed by a data descriptor (general purpose bit 3) so that a file is streamed through once, never held
 *   whole; CRC-32 from node:zlib;
 * - UTF-8 names (bit 11), no extra fields, no comments, no encryption, no Zip64: at most 65,535 entries and 4 GiB
 *   in all (refused beyond, never written wrong).
 *
 * The one reader of zips stays upstream/src/lib/zip.ts (yauzl), which reads what this writes (tested).
 */
export interface ZipSink {
  /** Adds one entry from bytes or a stream. */
  add(name: string, content: Buffer | AsyncIterable<Buffer>, options?: { deflate?: boolean }): Promise<void>;
  /** Writes the central directory and ends the output. */
  finish(): Promise<void>;
  /** The archive's bytes, as they are produced. */
  readonly output: Readable;
}

const MAX_ENTRIES = 0xffff;
const MAX_OFFSET = 0xffffffff;

type Central = { name: Buffer; method: number; crc: number; compressed: number; size: number; offset: number; time: number; date: number };

function dosDateTime(at: Date): { time: number; date: number } {
  return {
    time: (at.getHours() << 11) | (at.getMinutes() << 5) | Math.floor(at.getSeconds() / 2),
    date: ((Math.max(at.getFullYear(), 1980) - 1980) << 9) | ((at.getMonth() + 1) << 5) | at.getDate(),
  };
}

/** A `ZipSink` whose `output` is read by the HTTP answer; `add` waits while the reader is slow (backpressure). */
export function createZipWriter(now: Date = new Date()): ZipSink {
  const { time, date } = dosDateTime(now);
  const entries: Central[] = [];
  let offset = 0;
  let waiting: (() => void) | null = null;
  const output = new Readable({
    read() {
      const resume = waiting;
      waiting = null;
      resume?.();
    },
  });
  const push = async (chunk: Buffer) => {
    offset += chunk.length;
    if (offset > MAX_OFFSET) throw new Error("The archive would be larger than 4 GiB (no Zip64).");
    if (!output.push(chunk)) await new Promise<void>((resolve) => (waiting = resolve));
  };

  return {
    output,
    async add(name, content, options = {}) {
      if (entries.length >= MAX_ENTRIES) throw new Error("Too many entries for a zip without Zip64.");
      const nameBytes = Buffer.from(name, "utf8");
      const method = options.deflate ? 8 : 0;
      const start = offset;
      const local = Buffer.alloc(30);
      local.writeUInt32LE(0x04034b50, 0);
      local.writeUInt16LE(20, 4); // version needed
      local.writeUInt16LE(0x0808, 6); // data descriptor, UTF-8 names
      local.writeUInt16LE(method, 8);
      local.writeUInt16LE(time, 10);
      local.writeUInt16LE(date, 12);
      // crc and sizes: in the data descriptor
      local.writeUInt16LE(nameBytes.length, 26);
      await push(Buffer.concat([local, nameBytes]));
      let crc = 0;
      let size = 0;
      let compressed = 0;
      const source = Buffer.isBuffer(content) ? [content] : content;
      if (method === 8) {
        const chunks: Buffer[] = [];
        for await (const chunk of source) {
          crc = zlib.crc32(chunk, crc);
          size += chunk.length;
          chunks.push(chunk);
        }
        const deflated = zlib.deflateRawSync(Buffer.concat(chunks));
        compressed = deflated.length;
        await push(deflated);
      } else {
        for await (const chunk of source) {
          crc = zlib.crc32(chunk, crc);
          size += chunk.length;
          await push(chunk);
        }
        compressed = size;
      }
      const descriptor = Buffer.alloc(16);
      descriptor.writeUInt32LE(0x08074b50, 0);
      descriptor.writeUInt32LE(crc >>> 0, 4);
      descriptor.writeUInt32LE(compressed, 8);
      descriptor.writeUInt32LE(size, 12);
      await push(descriptor);
      entries.push({ name: nameBytes, method, crc: crc >>> 0, compressed, size, offset: start, time, date });
    },
    async finish() {
      const start = offset;
      for (const e of entries) {
        const header = Buffer.alloc(46);
        header.writeUInt32LE(0x02014b50, 0);
        header.writeUInt16LE(20, 4); // made by
        header.writeUInt16LE(20, 6); // needed
        header.writeUInt16LE(0x0808, 8);
        header.writeUInt16LE(e.method, 10);
        header.writeUInt16LE(e.time, 12);
        header.writeUInt16LE(e.date, 14);
        header.writeUInt32LE(e.crc, 16);
        header.writeUInt32LE(e.compressed, 20);
        header.writeUInt32LE(e.size, 24);
        header.writeUInt16LE(e.name.length, 28);
        header.writeUInt32LE(e.offset, 42);
        await push(Buffer.concat([header, e.name]));
      }
      const end = Buffer.alloc(22);
      end.writeUInt32LE(0x06054b50, 0);
      end.writeUInt16LE(entries.length, 8);
      end.writeUInt16LE(entries.length, 10);
      end.writeUInt32LE(offset - start, 12);
      end.writeUInt32LE(start, 16);
      await push(end);
      output.push(null);
    },
  };
}
