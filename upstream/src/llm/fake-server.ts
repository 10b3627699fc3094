/**
 * A fake OpenAI-compatible provider on loopback, for tests and the demo (`npm run fake:llm`). It speaks the real wire
 * format: `POST /v1/chat/completions` (JSON, or server-sent `chat.completion.chunk` events ending in `data: [DONE]`,
 * with tool calls and, when asked by `stream_options.include_usage`, a usage chunk), `POST /v1/embeddings`
 * (deterministic vectors: the same text always gives the same vector), `POST /v1/audio/transcriptions` (multipart),
 * `POST /v1/images/generations` (a small PNG drawn from the prompt's hash, as base64 when asked, else a URL) and
 * `GET /v1/models`. And its failures, on demand: 401 for a wrong key, 404 for an unknown model, 429 with Retry-After,
 * 500, a stream cut mid-way, a slow first token. It records each request and each connection the client closed
 * before the answer ended (an abort), with the time it saw it.
 *
 * Without a scripted reply the assistant answers "Echo: " and the last user text (and how many images it was sent),
 * so a chain run against it shows what went in.
 */
import { createHash } from "node:crypto";
import http from "node:http";
import { crc32, deflateSync } from "node:zlib";
import { readMultipart } from "../lib/multipart";
import { listenOnLoopback } from "../lib/loopback";

export type FakeToolCall = { name: string; arguments: string };
export type FakeReply = { text?: string; toolCalls?: FakeToolCall[] };
export type FakeFailure = { status: 429 | 500 | 503 | 400; retryAfterSeconds?: number; message?: string };

export type FakeLlm = {
  url: string;
  /** The base URL a config's `baseURL` takes (`{url}/v1`). */
  baseURL: string;
  apiKey: string;
  models: string[];
  /** The next chat answers, in order (after them the echo again). */
  reply(...replies: FakeReply[]): void;
  /** The next `count` requests (any endpoint) fail so. */
  fail(failure: FakeFailure, count?: number): void;
  /** The next stream is cut (the socket destroyed) after this many content chunks. */
  cutAfter(chunks: number): void;
  /** Every streamed answer waits this long before its first chunk; every JSON answer before it is sent. */
  slowFirstToken(ms: number): void;
  /** Between two streamed chunks. */
  chunkDelay(ms: number): void;
  /** "POST /v1/chat/completions" … and the parsed JSON bodies (multipart: the field names). */
  requests: { method: string; path: string; body: unknown; at: number }[];
  /** Connections the client closed before the answer ended, with when the server saw it (Date.now()). */
  aborts: { path: string; at: number }[];
  close(): Promise<void>;
};

type Message = { role?: string; content?: unknown };

const textOf = (content: unknown): { text: string; images: number } => {
  if (typeof content === "string") return { text: content, images: 0 };
  if (!Array.isArray(content)) return { text: "", images: 0 };
  const parts = content as { type?: string; text?: string }[];
  return { text: parts.filter((p) => p.type === "text").map((p) => p.text ?? "").join(" "), images: parts.filter((p) => p.type === "image_url").length };
};

const echo = (messages: Message[]): string => {
  const last = [...messages].reverse().find((m) => m.role === "user" || m.role === "function" || m.role === "tool");
  const { text, images } = textOf(last?.content);
  return `Echo: ${text}${images ? ` (${images} image${images === 1 ? "" : "s"})` : ""}`;
};

/** Tokens as the fake counts them: words. */
const tokens = (text: string) => (text.match(/\S+/g) ?? []).length;

/** A deterministic unit vector of `dims` for a text (sha-256 bytes spread over the dimensions). */
export function fakeEmbedding(text: string, dims = 16): number[] {
  const bytes: number[] = [];
  for (let i = 0; bytes.length < dims; i++) bytes.push(...createHash("sha256").update(`${i}:${text}`).digest());
  const v = bytes.slice(0, dims).map((b) => b / 255 - 0.5);
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}

/**
 * A valid 16×16 RGB PNG for a prompt: four quadrants coloured from the prompt's sha-256, so the same prompt always
 * gives the same image and another prompt another one.
 */
export function fakePng(prompt: string): Buffer {
  const side = 16;
  const hash = createHash("sha256").update(prompt).digest();
  const rows: Buffer[] = [];
  for (let y = 0; y < side; y++) {
    const row = Buffer.alloc(1 + side * 3); // filter byte 0: the row as is
    for (let x = 0; x < side; x++) {
      const quadrant = (y < side / 2 ? 0 : 2) + (x < side / 2 ? 0 : 1);
      hash.copy(row, 1 + x * 3, quadrant * 3, quadrant * 3 + 3);
    }
    rows.push(row);
  }
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // colour type: RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.concat(rows))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** Pieces of about three characters, so a stream has many chunks. */
const pieces = (text: string) => text.match(/[\s\S]{1,3}/g) ?? [];

export async function startFakeLlm(options: { port?: number; apiKey?: string; models?: string[] } = {}): Promise<FakeLlm> {
  const apiKey = options.apiKey ?? "fake-llm-key";
  const models = options.models ?? ["fake-chat", "fake-vision", "fake-embed", "fake-whisper", "fake-image"];
  const replies: FakeReply[] = [];
  const failures: FakeFailure[] = [];
  let cut: number | null = null;
  let firstTokenMs = 0;
  let betweenMs = 0;
  const requests: FakeLlm["requests"] = [];
  const aborts: FakeLlm["aborts"] = [];
  let sequence = 0;

  const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    res.on("close", () => {
      if (!res.writableFinished) aborts.push({ path, at: Date.now() });
    });
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      void answer(req, res, path, Buffer.concat(chunks)).catch((error: unknown) => {
        if (!res.headersSent) json(res, 500, { error: { message: String(error), type: "server_error" } });
        else res.destroy();
      });
    });
  });

  const json = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    if (res.destroyed) return;
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(JSON.stringify(body));
  };
  const error = (res: http.ServerResponse, status: number, message: string, code: string, headers: Record<string, string> = {}) =>
    json(res, status, { error: { message, type: status === 401 ? "invalid_request_error" : "server_error", code, param: null } }, headers);

  async function answer(req: http.IncomingMessage, res: http.ServerResponse, path: string, raw: Buffer) {
    const contentType = req.headers["content-type"] ?? "";
    let body: Record<string, unknown> = {};
    let form: FormData | null = null;
    if (contentType.startsWith("multipart/form-data")) {
      form = await readMultipart(raw, contentType, { parts: 20, bytes: 30 * 1024 * 1024 });
      body = Object.fromEntries([...form.keys()].map((k) => [k, typeof form!.get(k) === "string" ? form!.get(k) : "(file)"]));
    } else if (raw.length) {
      try {
        body = JSON.parse(raw.toString("utf8")) as Record<string, unknown>;
      } catch {
        return error(res, 400, "We could not parse the JSON body of your request.", "invalid_json");
      }
    }
    requests.push({ method: req.method ?? "GET", path, body, at: Date.now() });

    if (req.headers.authorization !== `Bearer ${apiKey}`) return error(res, 401, "Incorrect API key provided.", "invalid_api_key");
    const failure = failures.shift();
    if (failure) {
      const headers: Record<string, string> = failure.retryAfterSeconds != null ? { "retry-after": String(failure.retryAfterSeconds) } : {};
      const text = failure.message ?? (failure.status === 429 ? "Rate limit reached for requests." : "The server had an error while processing your request.");
      return error(res, failure.status, text, failure.status === 429 ? "rate_limit_exceeded" : "server_error", headers);
    }
    if (req.method === "GET" && path === "/v1/models") {
      return json(res, 200, { object: "list", data: models.map((id) => ({ id, object: "model", created: 0, owned_by: "fake" })) });
    }
    if (req.method !== "POST") return error(res, 404, `Unknown path ${path}`, "unknown_url");
    const model = String(body.model ?? "");
    if (!models.includes(model)) return error(res, 404, `The model \`${model}\` does not exist or you do not have access to it.`, "model_not_found");
    if (firstTokenMs) await wait(firstTokenMs);
    if (res.destroyed) return;

    if (path === "/v1/embeddings") {
      const input = Array.isArray(body.input) ? (body.input as unknown[]).map(String) : [String(body.input ?? "")];
      const dims = typeof body.dimensions === "number" ? body.dimensions : 16;
      return json(res, 200, {
        object: "list",
        model,
        data: input.map((text, index) => ({ object: "embedding", index, embedding: fakeEmbedding(text, dims) })),
        usage: { prompt_tokens: input.reduce((n, t) => n + tokens(t), 0), total_tokens: input.reduce((n, t) => n + tokens(t), 0) },
      });
    }
    if (path === "/v1/audio/transcriptions") {
      const file = form?.get("file");
      if (!(file instanceof File)) return error(res, 400, "Missing file.", "invalid_request");
      const audio = Buffer.from(await file.arrayBuffer());
      // A "recording" that is the text "SPEECH:words" transcribes to the words; any other audio to a description.
      const said = audio.toString("utf8").startsWith("SPEECH:") ? audio.toString("utf8").slice(7).trim() : `Transcribed ${audio.length} bytes of ${file.name}.`;
      return json(res, 200, { text: said });
    }
    if (path === "/v1/images/generations") {
      const prompt = String(body.prompt ?? "");
      const n = typeof body.n === "number" ? Math.min(Math.max(1, body.n), 10) : 1;
      const images = Array.from({ length: n }, (_, i) => fakePng(i ? `${prompt}#${i}` : prompt));
      return json(res, 200, {
        created: Math.floor(Date.now() / 1000),
        data: images.map((png) =>
          // As DALL·E: the bytes only when asked for them, else an address.
          body.response_format !== "b64_json" ? { url: `${listening.url}/images/${createHash("sha256").update(png).digest("hex")}.png` } : { b64_json: png.toString("base64") },
        ),
        usage: { input_tokens: tokens(prompt), output_tokens: 100 * n, total_tokens: tokens(prompt) + 100 * n, input_tokens_details: { text_tokens: tokens(prompt), image_tokens: 0 } },
      });
    }
    if (path !== "/v1/chat/completions") return error(res, 404, `Unknown path ${path}`, "unknown_url");

    const messages = Array.isArray(body.messages) ? (body.messages as Message[]) : [];
    const reply = replies.shift() ?? { text: echo(messages) };
    const id = `chatcmpl-fake-${++sequence}`;
    const created = Math.floor(Date.now() / 1000);
    const promptTokens = messages.reduce((n, m) => n + tokens(textOf(m.content).text), 0);
    const completionTokens = tokens(reply.text ?? "") + (reply.toolCalls ?? []).reduce((n, c) => n + tokens(c.arguments), 0);
    const finish = reply.toolCalls?.length ? "tool_calls" : "stop";
    const usage = { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens };

    if (body.stream !== true) {
      return json(res, 200, {
        id,
        object: "chat.completion",
        created,
        model,
        choices: [
          {
            index: 0,
            finish_reason: finish,
            message: {
              role: "assistant",
              content: reply.text ?? null,
              ...(reply.toolCalls?.length
                ? { tool_calls: reply.toolCalls.map((c, i) => ({ id: `call_${sequence}_${i}`, type: "function", function: c })) }
                : {}),
            },
          },
        ],
        usage,
      });
    }

    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    const chunk = (delta: Record<string, unknown>, finishReason: string | null = null, extra: Record<string, unknown> = {}) =>
      `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: [{ index: 0, delta, finish_reason: finishReason }], ...extra })}\n\n`;
    const cutAt = cut;
    cut = null;
    let sent = 0;
    const send = async (text: string, content = true) => {
      if (res.destroyed) return false;
      if (content && cutAt != null && sent >= cutAt) {
        // Let what was written reach the client first, as a proxy that drops the connection would.
        await wait(20);
        res.destroy();
        return false;
      }
      if (content) sent++;
      res.write(text);
      if (betweenMs) await wait(betweenMs);
      return !res.destroyed;
    };
    if (!(await send(chunk({ role: "assistant", content: "" }), false))) return;
    for (const piece of pieces(reply.text ?? "")) if (!(await send(chunk({ content: piece })))) return;
    for (const [index, call] of (reply.toolCalls ?? []).entries()) {
      const head = { index, id: `call_${sequence}_${index}`, type: "function", function: { name: call.name, arguments: "" } };
      if (!(await send(chunk({ tool_calls: [head] })))) return;
      for (const piece of pieces(call.arguments)) if (!(await send(chunk({ tool_calls: [{ index, function: { arguments: piece } }] })))) return;
    }
    if (!(await send(chunk({}, finish), false))) return;
    const includeUsage = (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
    if (includeUsage) res.write(`data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: [], usage })}\n\n`);
    res.end("data: [DONE]\n\n");
  }

  const listening = await listenOnLoopback(server, options.port ?? 0);
  return {
    url: listening.url,
    baseURL: `${listening.url}/v1`,
    apiKey,
    models,
    reply: (...r) => void replies.push(...r),
    fail: (failure, count = 1) => {
      for (let i = 0; i < count; i++) failures.push(failure);
    },
    cutAfter: (n) => void (cut = n),
    slowFirstToken: (ms) => void (firstTokenMs = ms),
    chunkDelay: (ms) => void (betweenMs = ms),
    requests,
    aborts,
    close: listening.close,
  };
}
