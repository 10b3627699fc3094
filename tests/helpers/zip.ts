import zlib from "node:zlib";

/**
 * A tiny zip writer for hostile archives: each entry's bytes are written as given, and the sizes and CRC the headers
 * declare can be anything (to make archives that lie).
 */
export type RawEntry = {
  name: string;
  /** The bytes stored in the archive (already deflated when method is 8). */
  data: Buffer;
  method: 0 | 8;
  crc: number;
  /** What the headers declare. */
  uncompressedSize: number;
  /** General purpose flags (bit 0: encrypted). */
  flags?: number;
};

/** An entry stored or deflated honestly. */
export function entry(name: string, content: string | Buffer, method: 0 | 8 = 8): RawEntry {
  const bytes = typeof content === "string" ? Buffer.from(content) : content;
  return {
    name,
    data: method === 8 ? zlib.deflateRawSync(bytes) : bytes,
    method,
    crc: zlib.crc32(bytes),
    uncompressedSize: bytes.length,
  };
}

/**
 * A deflated entry of `size` bytes: `prefix`, then `fill` repeated, then `suffix`, deflated as a stream (the content is
 * never held in memory): 200 MB of one byte deflates to about 200 KB.
 */
export async function bombEntry(
  name: string,
  size: number,
  options: { prefix?: string; suffix?: string; fill?: number } = {},
): Promise<RawEntry> {
  const prefix = Buffer.from(options.prefix ?? "");
  const suffix = Buffer.from(options.suffix ?? "");
  const deflate = zlib.createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on("data", (c: Buffer) => out.push(c));
  const done = new Promise((resolve, reject) => {
    deflate.on("end", resolve);
    deflate.on("error", reject);
  });
  const block = Buffer.alloc(1024 * 1024, options.fill ?? 0x20);
  let crc = zlib.crc32(prefix);
  const write = (b: Buffer) =>
    new Promise<void>((resolve) => {
      if (deflate.write(b)) resolve();
      else deflate.once("drain", () => resolve());
    });
  await write(prefix);
  let left = size - prefix.length - suffix.length;
  while (left > 0) {
    const part = left >= block.length ? block : block.subarray(0, left);
    crc = zlib.crc32(part, crc);
    await write(part);
    left -= part.length;
  }
  crc = zlib.crc32(suffix, crc);
  deflate.end(suffix);
  await done;
  return { name, data: Buffer.concat(out), method: 8, crc, uncompressedSize: size };
}

/** The zip of `entries` (local headers, data, central directory, end record). */
export function writeZip(entries: RawEntry[], options: { declaredCount?: number } = {}): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, "utf8");
    const flags = (e.flags ?? 0) | 0x800; // UTF-8 names
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(e.method, 8);
    local.writeUInt32LE(0, 10); // time, date
    local.writeUInt32LE(e.crc >>> 0, 14);
    local.writeUInt32LE(e.data.length, 18);
    local.writeUInt32LE(e.uncompressedSize >>> 0, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    parts.push(local, name, e.data);
    const cd = Buffer.alloc(46);
    cd.writeUInt32LE(0x02014b50, 0);
    cd.writeUInt16LE(20, 4);
    cd.writeUInt16LE(20, 6);
    cd.writeUInt16LE(flags, 8);
    cd.writeUInt16LE(e.method, 10);
    cd.writeUInt32LE(0, 12);
    cd.writeUInt32LE(e.crc >>> 0, 16);
    cd.writeUInt32LE(e.data.length, 20);
    cd.writeUInt32LE(e.uncompressedSize >>> 0, 24);
    cd.writeUInt16LE(name.length, 28);
    cd.writeUInt32LE(offset, 42);
    central.push(cd, name);
    offset += local.length + name.length + e.data.length;
  }
  const cdSize = central.reduce((n, b) => n + b.length, 0);
  const count = options.declaredCount ?? entries.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Math.min(count, 0xffff), 8);
  end.writeUInt16LE(Math.min(count, 0xffff), 10);
  end.writeUInt32LE(cdSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, ...central, end]);
}

export const CONTENT_TYPES =
  '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Default Extension="xml" ContentType="application/xml"/></Types>';
const DOC_PREFIX =
  '<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>';
const DOC_SUFFIX = "</w:t></w:r></w:p></w:body></w:document>";

/** A .docx whose word/document.xml is well-formed XML of `size` bytes, nearly all spaces (a zip bomb). */
export async function docxBomb(size: number, declare?: (real: number) => number): Promise<Buffer> {
  const body = await bombEntry("word/document.xml", size, { prefix: DOC_PREFIX, suffix: DOC_SUFFIX });
  if (declare) body.uncompressedSize = declare(size);
  return writeZip([entry("[Content_Types].xml", CONTENT_TYPES), body]);
}
