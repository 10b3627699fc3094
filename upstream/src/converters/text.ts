import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { Parser } from "htmlparser2";
import { inSlices } from "../lib/xml";
import { ConverterError } from "./process";

/** Windows-1252's characters for 0x80–0x9f (Node's TextDecoder reads that label as Latin-1, whose C1 controls these are). */
const CP1252_HIGH =
  "\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f" +
  "\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178";

function decodeWindows1252(buffer: Buffer): string {
  let out = "";
  for (let i = 0; i < buffer.length; i += 65_536) {
    const chunk = buffer.subarray(i, i + 65_536);
    out += Array.from(chunk, (b) => (b >= 0x80 && b <= 0x9f ? CP1252_HIGH[b - 0x80] : String.fromCharCode(b))).join("");
  }
  return out;
}

/**
 * Plain text of an unknown encoding: a byte-order mark says it (UTF-8, UTF-16 LE/BE); else valid UTF-8 is UTF-8;
 * else NUL bytes in every other position mean UTF-16 without a mark; else Windows-1252 (a superset of Latin-1, what
 * a Western Windows editor saves). Null for binary content (NUL bytes in text that is none of these).
 */
export function decodeText(bytes: Uint8Array): string | null {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf) return new TextDecoder("utf-8").decode(buffer.subarray(3));
  if (buffer[0] === 0xff && buffer[1] === 0xfe) return new TextDecoder("utf-16le").decode(buffer.subarray(2));
  if (buffer[0] === 0xfe && buffer[1] === 0xff) return new TextDecoder("utf-16be").decode(buffer.subarray(2));
  const sample = buffer.subarray(0, 4096);
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < sample.length; i++) {
    if (sample[i] !== 0) continue;
    if (i % 2) oddZeros++;
    else evenZeros++;
  }
  const half = sample.length / 2;
  if (half >= 2 && oddZeros > half * 0.3 && evenZeros === 0) return new TextDecoder("utf-16le").decode(buffer);
  if (half >= 2 && evenZeros > half * 0.3 && oddZeros === 0) return new TextDecoder("utf-16be").decode(buffer);
  if (evenZeros + oddZeros > 0) return null;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(buffer);
  } catch {
    return decodeWindows1252(buffer);
  }
}

const BLOCKS = new Set(["p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "table", "ul", "ol", "blockquote", "pre", "hr"]);
const HIDDEN = new Set(["script", "style", "head", "title"]);

/** An HTML body as text: block elements on their own lines, scripts and styles dropped, entities decoded. */
export async function htmlToText(html: string): Promise<string> {
  let text = "";
  let hidden = 0;
  const parser = new Parser(
    {
      onopentag(name) {
        if (HIDDEN.has(name)) hidden++;
        else if (BLOCKS.has(name)) text += "\n";
      },
      onclosetag(name) {
        if (HIDDEN.has(name)) hidden = Math.max(0, hidden - 1);
        else if (BLOCKS.has(name)) text += "\n";
      },
      ontext(data) {
        if (!hidden) text += data.replace(/[ \t\r\n]+/g, " ");
      },
    },
    { decodeEntities: true },
  );
  await inSlices(html, (slice) => parser.write(slice));
  parser.end();
  return text
    .split("\n")
    .map((line) => line.trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

export type ParsedEmail = {
  subject: string;
  from: string;
  to: string;
  date: string;
  text: string | null;
  html: string | null;
  attachments: string[];
};

/**
 * postal-mime parses on the thread that calls it; a large or hostile message would hold the event loop. So it runs
 * in a worker thread of its own, with a heap limit and a time limit (terminated past either), started per message.
 */
const EMAIL_WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const PostalMime = require(workerData.parser);
const Parser = PostalMime.default || PostalMime;
const who = (a) => (a ? (a.name ? a.name + " <" + (a.address || "") + ">" : a.address || "") : "");
Parser.parse(Buffer.from(workerData.bytes), { attachmentEncoding: "arraybuffer" }).then(
  (m) => parentPort.postMessage({ ok: {
    subject: m.subject || "",
    from: who(m.from),
    to: (m.to || []).map(who).join(", "),
    date: m.date || "",
    text: m.text == null ? null : m.text,
    html: m.html == null ? null : m.html,
    attachments: (m.attachments || []).map((a) => a.filename || "(unnamed)"),
  } }),
  (error) => parentPort.postMessage({ error: String(error && error.message || error) }),
);
`;

const postalMime = () => createRequire(import.meta.url).resolve("postal-mime");

export async function parseEmail(bytes: Uint8Array, limits: { timeMs: number; heapMb: number }): Promise<ParsedEmail> {
  const worker = new Worker(EMAIL_WORKER, {
    eval: true,
    workerData: { parser: postalMime(), bytes },
    resourceLimits: { maxOldGenerationSizeMb: limits.heapMb, maxYoungGenerationSizeMb: 32 },
  });
  try {
    return await new Promise<ParsedEmail>((resolve, reject) => {
      const timer = setTimeout(() => reject(new ConverterError("timeout", `the e-mail parser ran longer than ${limits.timeMs} ms`)), limits.timeMs);
      worker.once("message", (message: { ok?: ParsedEmail; error?: string }) => {
        clearTimeout(timer);
        if (message.ok) resolve(message.ok);
        else reject(new ConverterError("exit", `e-mail parser: ${message.error ?? "failed"}`));
      });
      worker.once("error", (error) => {
        clearTimeout(timer);
        reject(new ConverterError("exit", `e-mail parser: ${error.message}`));
      });
      worker.once("exit", (code) => {
        clearTimeout(timer);
        reject(new ConverterError("exit", `e-mail parser exited with ${code}`));
      });
    });
  } finally {
    void worker.terminate();
  }
}

/** A message as the text a field loads: its headers, attachment names, then its body (HTML as text when no plain). */
export async function emailText(email: ParsedEmail): Promise<string> {
  const body = email.text ?? (email.html ? await htmlToText(email.html) : "");
  const lines = [
    `Subject: ${email.subject}`,
    `From: ${email.from}`,
    `To: ${email.to}`,
    `Date: ${email.date}`,
    ...(email.attachments.length ? [`Attachments: ${email.attachments.join(", ")}`] : []),
  ];
  return `${lines.join("\n")}\n\n${body.trim()}`;
}
