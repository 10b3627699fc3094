/**
 * The body of POST /api/applications/csv (`{csvFileData: base64, portfolioId?}`, up to ~67 MB) read as it arrives,
 * never as a whole: JSON.parse, the whitespace strip, the base64 check and the decode of a 50 MB file each held the
 * event loop for 0.2–1.5 s when done on the whole text. Here the body is walked in slices of SLICE bytes with a turn
 * of the event loop between two; `csvFileData` is checked and decoded piece by piece, the other fields (small) kept as
 * JSON texts and parsed at the end. The answer is the decoded file in pieces (the import reads it in slices too).
 */
import { CSV_IMPORT_LIMITS, CSV_IMPORT_MESSAGES } from "../../contract/portfolio";
import { HttpError, badRequest } from "../lib/http";

/** Bytes walked per turn of the event loop (a body may arrive as one chunk of 67 MB). */
const SLICE = 256 * 1024;
/** Base64 characters decoded at once (a multiple of 4). */
const DECODE_CHARS = 256 * 1024;
/** The longest other field (a portfolio id is 100 characters at most), and the longest key. */
const MAX_FIELD_CHARS = 64 * 1024;
const NOT_JSON = "Request body must be JSON";

export type CsvUpload = {
  /** The decoded file in pieces; null when the body has no `csvFileData` string. */
  csv: Buffer[] | null;
  /** Its decoded length. */
  bytes: number;
  /** The body's other fields, parsed (and `csvFileData` itself when it is not a string, for the schema to refuse). */
  fields: Record<string, unknown>;
};

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
const BASE64_SEGMENT = /^[A-Za-z0-9+/=\s]*$/;

/** Reads the request's JSON body as described above; 400 for a body that is not JSON or not base64, 413 past the limit. */
export async function readCsvUpload(body: ReadableStream<Uint8Array> | null): Promise<CsvUpload> {
  const fields: Record<string, unknown> = {};
  let csv: Buffer[] | null = null;
  let bytes = 0;
  let chars = 0; // base64 characters kept (whitespace and the data: prefix left out)
  let padding = 0;
  let pending = ""; // base64 characters not decoded yet
  let head: string | null = null; // the value's first characters, until a "data:…," prefix can be told
  type State = "start" | "key?" | "key" | "colon" | "value?" | "value" | "base64" | "after" | "end";
  let state = "start" as State;
  let key = "";
  let raw = ""; // the key's or the value's JSON text so far
  let inString = false;
  let escaped = false;
  let depth = 0;
  let escape: string | null = null; // inside csvFileData: an escape sequence begun ("\\", "\\u00…")

  const decode = (all: boolean) => {
    const take = all ? pending.length : pending.length - (pending.length % 4);
    if (!take) return;
    const part = Buffer.from(pending.slice(0, take), "base64");
    pending = pending.slice(take);
    bytes += part.length;
    if (bytes > CSV_IMPORT_LIMITS.bytes) throw new HttpError(413, CSV_IMPORT_MESSAGES.tooLarge);
    csv!.push(part);
  };
  const keep = (text: string) => {
    if (!BASE64_SEGMENT.test(text)) throw badRequest(CSV_IMPORT_MESSAGES.notBase64);
    const clean = text.replace(/\s+/g, "");
    if (!clean) return;
    const pad = clean.indexOf("=");
    if ((padding && /[^=]/.test(clean)) || (pad >= 0 && /[^=]/.test(clean.slice(pad)))) throw badRequest(CSV_IMPORT_MESSAGES.notBase64);
    if (pad >= 0) padding += clean.length - pad;
    if (padding > 2) throw badRequest(CSV_IMPORT_MESSAGES.notBase64);
    chars += clean.length;
    pending += clean;
    if (pending.length >= DECODE_CHARS) decode(false);
  };
  /** Characters of csvFileData's value (unescaped): the first ones held back until a data: prefix can be told. */
  const text = (piece: string) => {
    if (head !== null) {
      head += piece;
      if (head.length < 512) return;
      piece = head.replace(/^data:[^,]*,/, "");
      head = null;
    }
    keep(piece);
  };
  const endBase64 = () => {
    if (head !== null) keep(head.replace(/^data:[^,]*,/, ""));
    head = null;
    if (chars % 4 === 1) throw badRequest(CSV_IMPORT_MESSAGES.notBase64);
    decode(true);
  };
  const field = (value: string) => {
    try {
      fields[key] = JSON.parse(value) as unknown;
    } catch {
      throw badRequest(NOT_JSON);
    }
  };

  /** Walks one slice of the body. */
  const walk = (chunk: Buffer) => {
    let i = 0;
    while (i < chunk.length) {
      const b = chunk[i]!;
      switch (state) {
        case "start":
        case "colon":
        case "after":
        case "end":
        case "key?":
        case "value?":
          if (isSpace(b)) {
            i++;
            continue;
          }
          if (state === "start" && b === 0x7b) state = "key?";
          else if (state === "key?" && b === 0x22) {
            state = "key";
            raw = "";
            escaped = false;
          } else if (state === "key?" && b === 0x7d && !Object.keys(fields).length && csv === null) state = "end";
          else if (state === "colon" && b === 0x3a) state = "value?";
          else if (state === "after" && b === 0x2c) state = "key?";
          else if (state === "after" && b === 0x7d) state = "end";
          else if (state === "value?" && b === 0x22 && key === "csvFileData") {
            state = "base64";
            csv = [];
            head = "";
          } else if (state === "value?") {
            state = "value";
            raw = "";
            depth = 0;
            inString = false;
            escaped = false;
          } else throw badRequest(NOT_JSON);
          if (state !== "value") i++;
          continue;
        case "key": {
          // A key: up to its closing quote (an escaped quote does not close it).
          const start = i;
          while (i < chunk.length && (escaped || chunk[i] !== 0x22)) escaped = !escaped && chunk[i++] === 0x5c;
          raw += chunk.toString("utf8", start, i);
          if (raw.length > MAX_FIELD_CHARS) throw badRequest(NOT_JSON);
          if (i < chunk.length) {
            i++;
            try {
              key = JSON.parse(`"${raw}"`) as string;
            } catch {
              throw badRequest(NOT_JSON);
            }
            state = "colon";
          }
          continue;
        }
        case "value": {
          // Any other value, kept as text up to the comma or brace that ends it.
          const start = i;
          for (; i < chunk.length; i++) {
            const c = chunk[i]!;
            if (inString) {
              if (escaped) escaped = false;
              else if (c === 0x5c) escaped = true;
              else if (c === 0x22) inString = false;
            } else if (c === 0x22) inString = true;
            else if (c === 0x7b || c === 0x5b) depth++;
            else if (c === 0x7d || c === 0x5d) {
              if (depth === 0) break;
              depth--;
            } else if (c === 0x2c && depth === 0) break;
          }
          raw += chunk.toString("utf8", start, i);
          if (raw.length > MAX_FIELD_CHARS) throw badRequest(NOT_JSON);
          if (i < chunk.length) {
            field(raw);
            state = "after";
          }
          continue;
        }
        case "base64": {
          if (escape !== null) {
            escape += String.fromCharCode(b);
            i++;
            if (escape.length === 2 && escape[1] !== "u") {
              const c = ({ "/": "/", n: "\n", r: "\r", t: "\t" } as Record<string, string>)[escape[1]!];
              if (c === undefined) throw badRequest(CSV_IMPORT_MESSAGES.notBase64);
              text(c);
              escape = null;
            } else if (escape.length === 6) {
              const code = Number.parseInt(escape.slice(2), 16);
              if (!Number.isFinite(code)) throw badRequest(CSV_IMPORT_MESSAGES.notBase64);
              text(String.fromCharCode(code));
              escape = null;
            }
            continue;
          }
          let stop = i;
          while (stop < chunk.length && chunk[stop] !== 0x22 && chunk[stop] !== 0x5c) stop++;
          if (stop > i) text(chunk.toString("latin1", i, stop));
          i = stop;
          if (i === chunk.length) continue;
          if (chunk[i] === 0x5c) escape = "\\";
          else {
            endBase64();
            state = "after";
          }
          i++;
          continue;
        }
      }
    }
  };

  const reader = body?.getReader();
  if (!reader) throw badRequest(NOT_JSON);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const chunk = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
      for (let at = 0; at < chunk.length; at += SLICE) {
        walk(chunk.subarray(at, at + SLICE));
        if (chunk.length > SLICE) await turn();
      }
    }
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    throw error;
  }
  if (state !== "end") throw badRequest(NOT_JSON);
  return { csv, bytes, fields };
}

/** The first `max` bytes of the pieces (the header check reads the file's start). */
export function headOf(pieces: readonly Buffer[], max: number): Buffer {
  const out: Buffer[] = [];
  let size = 0;
  for (const piece of pieces) {
    if (size >= max) break;
    out.push(piece.subarray(0, max - size));
    size += out[out.length - 1]!.length;
  }
  return Buffer.concat(out);
}
