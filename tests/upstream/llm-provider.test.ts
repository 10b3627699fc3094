import { crc32, inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { LLM_MESSAGES, parseProviderConfig, type ChatEvent, type ProviderConfig } from "@contract/llm";
import { fakeEmbedding, fakePng, type FakeLlm } from "../../upstream/src/llm/fake-server";
import { withFakeLlm } from "../helpers/fake-llm";
import { OpenAiCompatible, ProviderError, imageTypeOf } from "../../upstream/src/llm/provider";

let fake: FakeLlm;
withFakeLlm((started) => (fake = started));

const config = (over: Partial<ProviderConfig> = {}): ProviderConfig => ({
  baseURL: fake.baseURL,
  apiKey: fake.apiKey,
  model: "fake-chat",
  timeoutMs: 5_000,
  maxRetries: 0,
  ...over,
});

async function collect(events: AsyncIterable<ChatEvent>) {
  const seen: ChatEvent[] = [];
  for await (const e of events) seen.push(e);
  return seen;
}

async function failure(run: () => Promise<unknown>): Promise<ProviderError> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(ProviderError);
    return error as ProviderError;
  }
  throw new Error("expected a ProviderError");
}

describe("the OpenAI-compatible adapter against the fake provider", () => {
  it("streams the answer in chunks, then the usage and the end", async () => {
    const events = await collect(new OpenAiCompatible(config()).chat({ messages: [{ role: "user", content: "draft a claim for a widget" }] }));
    const texts = events.filter((e) => e.type === "text");
    expect(texts.length).toBeGreaterThan(3);
    expect(texts.map((e) => e.text).join("")).toBe("Echo: draft a claim for a widget");
    expect(events.find((e) => e.type === "usage")).toEqual({ type: "usage", promptTokens: 6, completionTokens: 7 });
    expect(events.at(-1)).toEqual({ type: "done", finishReason: "stop" });
    const sent = fake.requests.at(-1)!;
    expect(sent.path).toBe("/v1/chat/completions");
    expect(sent.body).toMatchObject({ model: "fake-chat", stream: true, stream_options: { include_usage: true } });
  });

  it("sends image parts to a vision model and temperature and max tokens as given", async () => {
    const model = new OpenAiCompatible(config({ model: "fake-vision" }));
    const answer = await model.complete({
      messages: [
        { role: "system", content: "You are a patent attorney." },
        { role: "user", content: [{ type: "text", text: "describe figure 1" }, { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } }] },
      ],
      temperature: 0.7,
      maxTokens: 100,
    });
    expect(answer.text).toBe("Echo: describe figure 1 (1 image)");
    expect(fake.requests.at(-1)!.body).toMatchObject({
      temperature: 0.7,
      max_tokens: 100,
      messages: [{ role: "system" }, { role: "user", content: [{ type: "text" }, { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } }] }],
    });
  });

  it("streams tool calls and offers the tools", async () => {
    fake.reply({ toolCalls: [{ name: "lookupApplication", arguments: '{"number":"16123456"}' }] });
    const answer = await new OpenAiCompatible(config()).complete({
      messages: [{ role: "user", content: "status of 16123456?" }],
      tools: [{ name: "lookupApplication", description: "Reads an application", parameters: { type: "object", properties: { number: { type: "string" } } } }],
    });
    expect(answer.finishReason).toBe("tool_calls");
    expect(answer.toolCalls).toEqual([{ id: expect.stringMatching(/^call_/), name: "lookupApplication", arguments: '{"number":"16123456"}' }]);
    expect(answer.text).toBe("");
    expect(fake.requests.at(-1)!.body).toMatchObject({ tools: [{ type: "function", function: { name: "lookupApplication" } }] });
  });

  it("embeds texts in order, the same text always the same vector", async () => {
    const model = new OpenAiCompatible(config({ model: "fake-embed" }));
    const [a, b, a2] = await model.embed(["a folding ladder", "a quiet fan", "a folding ladder"]);
    expect(a).toEqual(fakeEmbedding("a folding ladder"));
    expect(a2).toEqual(a);
    expect(b).not.toEqual(a);
    expect(Math.hypot(...a!)).toBeCloseTo(1, 6);
  });

  it("transcribes audio through /v1/audio/transcriptions", async () => {
    const model = new OpenAiCompatible(config({ model: "fake-whisper" }));
    const text = await model.transcribe({ bytes: Buffer.from("SPEECH:docket the office action response"), name: "memo.webm", type: "audio/webm" });
    expect(text).toBe("docket the office action response");
    expect(fake.requests.at(-1)).toMatchObject({ path: "/v1/audio/transcriptions", body: { model: "fake-whisper", file: "(file)" } });
  });

  it("a wrong key is 'auth', an unknown model 'not-found', each with its text", async () => {
    const auth = await failure(() => collect(new OpenAiCompatible(config({ apiKey: "wrong" })).chat({ messages: [{ role: "user", content: "x" }] })));
    expect(auth.failure).toBe("auth");
    expect(auth.message).toBe(LLM_MESSAGES.auth(401));
    const missing = await failure(() => new OpenAiCompatible(config({ model: "gpt-9" })).complete({ messages: [{ role: "user", content: "x" }] }));
    expect(missing.failure).toBe("not-found");
    expect(missing.message).toBe(LLM_MESSAGES.notFound("gpt-9"));
  });

  it("429 says how long the provider asks to wait; with retries left it is retried and answers", async () => {
    fake.fail({ status: 429, retryAfterSeconds: 7 });
    const limited = await failure(() => new OpenAiCompatible(config()).complete({ messages: [{ role: "user", content: "x" }] }));
    expect(limited.failure).toBe("rate-limit");
    expect(limited.retryAfterSeconds).toBe(7);
    expect(limited.message).toBe(LLM_MESSAGES.rateLimit(7));

    const before = fake.requests.length;
    fake.fail({ status: 429, retryAfterSeconds: 0 });
    const answer = await new OpenAiCompatible(config({ maxRetries: 1 })).complete({ messages: [{ role: "user", content: "again" }] });
    expect(answer.text).toBe("Echo: again");
    expect(fake.requests.length - before).toBe(2);
  });

  it("500 is 'server' with the provider's message", async () => {
    fake.fail({ status: 500, message: "The engine is overloaded." });
    const e = await failure(() => new OpenAiCompatible(config()).complete({ messages: [{ role: "user", content: "x" }] }));
    expect(e.failure).toBe("server");
    expect(e.message).toBe(LLM_MESSAGES.server(500, "The engine is overloaded."));
  });

  it("a stream cut mid-way is 'cut' after the text that did arrive, never a short answer", async () => {
    fake.cutAfter(3);
    const seen: ChatEvent[] = [];
    const e = await failure(async () => {
      for await (const event of new OpenAiCompatible(config()).chat({ messages: [{ role: "user", content: "a long answer please" }] })) seen.push(event);
    });
    expect(e.failure).toBe("cut");
    expect(e.message).toBe(LLM_MESSAGES.cut);
    expect(seen.filter((x) => x.type === "text")).toHaveLength(3);
    expect(seen.some((x) => x.type === "done")).toBe(false);
  });

  it("a slow first token past timeoutMs is 'timeout'", async () => {
    fake.slowFirstToken(1_000);
    const e = await failure(() => collect(new OpenAiCompatible(config({ timeoutMs: 200 })).chat({ messages: [{ role: "user", content: "x" }] })));
    expect(e.failure).toBe("timeout");
    expect(e.message).toBe(LLM_MESSAGES.timeout(200));
  });

  it("an abort closes the provider's connection at once: the fake sees it within 100 ms", async () => {
    fake.chunkDelay(40);
    const controller = new AbortController();
    const abortsBefore = fake.aborts.length;
    let abortedAt = 0;
    const e = await failure(async () => {
      for await (const event of new OpenAiCompatible(config()).chat({ messages: [{ role: "user", content: "write the whole specification" }] }, { signal: controller.signal })) {
        if (event.type === "text" && !abortedAt) {
          abortedAt = Date.now();
          controller.abort();
        }
      }
    });
    expect(e.failure).toBe("aborted");
    await expect.poll(() => fake.aborts.length, { timeout: 1_000 }).toBe(abortsBefore + 1);
    expect(fake.aborts.at(-1)!.at - abortedAt).toBeLessThan(100);
  });

  it("a consumer that stops reading early closes the connection too", async () => {
    fake.chunkDelay(40);
    const abortsBefore = fake.aborts.length;
    for await (const event of new OpenAiCompatible(config()).chat({ messages: [{ role: "user", content: "many words to stream here" }] })) {
      if (event.type === "text") break;
    }
    await expect.poll(() => fake.aborts.length, { timeout: 1_000 }).toBe(abortsBefore + 1);
  });

  it("generates images through /v1/images/generations: base64 asked, the answer a PNG that decodes, the usage", async () => {
    const model = new OpenAiCompatible(config({ model: "fake-image", image: { size: "512x512", quality: "high" } }));
    const { images, usage } = await model.generateImages("a widget with three gears");
    expect(fake.requests.at(-1)).toMatchObject({
      path: "/v1/images/generations",
      body: { model: "fake-image", prompt: "a widget with three gears", size: "512x512", quality: "high", n: 1, response_format: "b64_json" },
    });
    expect(images).toHaveLength(1);
    expect(images[0]!.type).toBe("png");
    expect(decodePng(Buffer.from(images[0]!.base64, "base64"))).toMatchObject({ width: 16, height: 16 });
    expect(images[0]!.base64).toBe(fakePng("a widget with three gears").toString("base64"));
    expect(decodePng(fakePng("another prompt")).pixels).not.toEqual(decodePng(fakePng("a widget with three gears")).pixels);
    expect(usage).toEqual({ promptTokens: 5, completionTokens: 100 });
    // The bounded default size; responseFormat false leaves the parameter out (gpt-image-*), and a provider that then
    // answers an address (as DALL·E does) is refused, not fetched.
    const url = await failure(() => new OpenAiCompatible(config({ model: "fake-image", image: { responseFormat: false, count: 2 } })).generateImages("x"));
    expect(fake.requests.at(-1)!.body).toEqual({ model: "fake-image", prompt: "x", size: "1024x1024", n: 2 });
    expect(url.message).toBe(LLM_MESSAGES.imageUrlOnly);
  });

  it("an image's type is read from its bytes: PNG, JPEG, WebP, nothing else", () => {
    expect(imageTypeOf(fakePng("x"))).toBe("png");
    expect(imageTypeOf(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]))).toBe("jpeg");
    expect(imageTypeOf(Buffer.from("RIFF\x24\x00\x00\x00WEBPVP8 ", "latin1"))).toBe("webp");
    expect(imageTypeOf(Buffer.from("RIFF\x24\x00\x00\x00WAVEfmt ", "latin1"))).toBeNull();
    expect(imageTypeOf(Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>"))).toBeNull();
  });

  it("image generation: a 429 is 'rate-limit' (the run retries it), a 4xx the provider's message, a URL answer refused", async () => {
    const model = new OpenAiCompatible(config({ model: "fake-image" }));
    fake.fail({ status: 429, retryAfterSeconds: 2 });
    const limited = await failure(() => model.generateImages("x"));
    expect(limited.failure).toBe("rate-limit");
    expect(limited.retryAfterSeconds).toBe(2);
    fake.fail({ status: 400, message: "Your request was rejected by the safety system." });
    const refused = await failure(() => model.generateImages("x"));
    expect(refused.failure).toBe("bad-request");
    expect(refused.message).toBe(LLM_MESSAGES.badRequest(400, "Your request was rejected by the safety system."));
    fake.fail({ status: 500 });
    expect((await failure(() => model.generateImages("x"))).failure).toBe("server");
    const before = fake.requests.length;
    fake.fail({ status: 429, retryAfterSeconds: 0 });
    const retried = await new OpenAiCompatible(config({ model: "fake-image", maxRetries: 1 })).generateImages("again");
    expect(retried.images).toHaveLength(1);
    expect(fake.requests.length - before).toBe(2);
  });

  it("image generation: an abort closes the provider's connection within 100 ms; a hang past timeoutMs is 'timeout'", async () => {
    fake.slowFirstToken(2_000);
    const controller = new AbortController();
    const abortsBefore = fake.aborts.length;
    const pending = failure(() => new OpenAiCompatible(config({ model: "fake-image" })).generateImages("slow", { signal: controller.signal }));
    await expect.poll(() => fake.requests.at(-1)?.body).toMatchObject({ prompt: "slow" });
    const abortedAt = Date.now();
    controller.abort();
    expect((await pending).failure).toBe("aborted");
    await expect.poll(() => fake.aborts.length, { timeout: 1_000 }).toBe(abortsBefore + 1);
    expect(fake.aborts.at(-1)).toMatchObject({ path: "/v1/images/generations" });
    expect(fake.aborts.at(-1)!.at - abortedAt).toBeLessThan(100);
    const late = await failure(() => new OpenAiCompatible(config({ model: "fake-image", timeoutMs: 200 })).generateImages("slow"));
    expect(late.failure).toBe("timeout");
  });

  it("Test connection: the time the model took, or the provider's error", async () => {
    const ok = await new OpenAiCompatible(config()).test();
    expect(ok.ok).toBe(true);
    expect(ok.message).toMatch(/^The model answered in \d+ ms\.$/);
    expect(fake.requests.at(-1)!.body).toMatchObject({ max_tokens: 1 });
    const bad = await new OpenAiCompatible(config({ apiKey: "nope" })).test();
    expect(bad).toEqual({ ok: false, failure: "auth", message: LLM_MESSAGES.auth(401) });
  });
});

describe("a provider's config JSON", () => {
  it("fills the defaults", () => {
    expect(parseProviderConfig('{"baseURL":"http://127.0.0.1:1/v1","apiKey":"k","model":"m"}')).toEqual({
      ok: true,
      config: { baseURL: "http://127.0.0.1:1/v1", apiKey: "k", model: "m", timeoutMs: 60_000, maxRetries: 2 },
    });
  });
  it("says where the JSON is broken, and which key is missing or wrong", () => {
    expect(parseProviderConfig('{"baseURL": }')).toEqual({ ok: false, message: "Config is not valid JSON: line 1, column 13: a value is expected" });
    expect(parseProviderConfig('{\n  "baseURL": "http://x/v1",\n  "apiKey": "k",\n}')).toEqual({
      ok: false,
      message: "Config is not valid JSON: line 4, column 1: a property name in double quotes is expected",
    });
    expect(parseProviderConfig("")).toEqual({ ok: false, message: "Config is not valid JSON: it is empty" });
    expect(parseProviderConfig('{"baseURL":"http://x/v1","model":"m"}')).toEqual({ ok: false, message: "Config: apiKey is required" });
    expect(parseProviderConfig('{"baseURL":"ftp://x","apiKey":"k","model":"m"}')).toEqual({ ok: false, message: "Config: baseURL must be a URL (https://… or http://…)" });
    expect(parseProviderConfig('{"baseURL":"http://x/v1","apiKey":"k","model":"m","timeoutMs":9999999}')).toEqual({
      ok: false,
      message: "Config: timeoutMs: Number must be less than or equal to 600000",
    });
  });
  it("bounds an image model's options: the size's sides, the images per call, known keys only", () => {
    const image = (options: unknown) => parseProviderConfig(JSON.stringify({ baseURL: "http://x/v1", apiKey: "k", model: "m", image: options }));
    expect(image({ size: "1536x1024", quality: "hd", count: 4, format: "jpeg" })).toMatchObject({ ok: true, config: { image: { size: "1536x1024", count: 4 } } });
    expect(image({ size: "4096x4096" })).toEqual({ ok: false, message: "Config: image.size: each side at most 2048" });
    expect(image({ size: "big" })).toEqual({ ok: false, message: "Config: image.size must be WIDTHxHEIGHT, e.g. 1024x1024" });
    expect(image({ count: 5 })).toEqual({ ok: false, message: "Config: image.count: Number must be less than or equal to 4" });
    expect(image({ style: "vivid" })).toMatchObject({ ok: false, message: expect.stringContaining("style") });
  });
});

/** A PNG decoded by hand (signature, chunks and their CRCs, IHDR, the inflated scanlines): 8-bit RGB only. */
function decodePng(png: Buffer): { width: number; height: number; pixels: Buffer } {
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const chunks: { type: string; data: Buffer }[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    const body = png.subarray(at + 4, at + 8 + length);
    expect(png.readUInt32BE(at + 8 + length)).toBe(crc32(body));
    chunks.push({ type: body.subarray(0, 4).toString("ascii"), data: body.subarray(4) });
    at += 12 + length;
  }
  expect(chunks[0]!.type).toBe("IHDR");
  expect(chunks.at(-1)!.type).toBe("IEND");
  const header = chunks[0]!.data;
  const width = header.readUInt32BE(0);
  const height = header.readUInt32BE(4);
  expect([header[8], header[9]]).toEqual([8, 2]);
  const pixels = inflateSync(Buffer.concat(chunks.filter((c) => c.type === "IDAT").map((c) => c.data)));
  expect(pixels.length).toBe(height * (1 + width * 3));
  return { width, height, pixels };
}
