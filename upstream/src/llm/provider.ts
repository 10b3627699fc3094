/**
 * The one adapter to language models: any OpenAI-compatible provider, through the official `openai` SDK. Chat (streamed
 * or not, with tool calls and image parts for vision models, token usage read from the stream), embeddings, a
 * one-token connection test, speech to text (`/v1/audio/transcriptions`) and image generation (`/v1/images/generations`). A call's abort signal ends the HTTP
 * request to the provider at once. Every failure is a ProviderError naming why in the user's words (LLM_MESSAGES)
 * and, as `failure`, in the caller's (retry later, tell the user, stop). The SDK retries 429 and 5xx itself
 * (`maxRetries`, honouring Retry-After) before an error reaches here.
 */
import OpenAI, { APIConnectionTimeoutError, APIError, APIUserAbortError, toFile } from "openai";
import {
  LLM_LIMITS,
  LLM_MESSAGES,
  type ChatEvent,
  type ChatMessage,
  type ChatRequest,
  type GeneratedImage,
  type LlmFailure,
  type ProviderConfig,
} from "../../contract/llm";

export class ProviderError extends Error {
  constructor(
    readonly failure: LlmFailure,
    message: string,
    /** For 429: what the provider asked to wait, in seconds. */
    readonly retryAfterSeconds: number | null = null,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = "ProviderError";
  }
}

/** The provider's own message of an error answer, shortened for a toast. */
const detailOf = (error: APIError) => {
  const body = error.error as { message?: unknown } | undefined;
  const text = typeof body?.message === "string" ? body.message : "";
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
};

function providerError(error: unknown, config: ProviderConfig, signal?: AbortSignal): ProviderError {
  if (error instanceof ProviderError) return error;
  if (error instanceof APIUserAbortError || signal?.aborted) return new ProviderError("aborted", LLM_MESSAGES.aborted);
  if (error instanceof APIConnectionTimeoutError) return new ProviderError("timeout", LLM_MESSAGES.timeout(config.timeoutMs));
  if (error instanceof APIError && error.status !== undefined) {
    const status = error.status;
    const detail = detailOf(error);
    if (status === 401 || status === 403) return new ProviderError("auth", LLM_MESSAGES.auth(status), null, status);
    if (status === 404) return new ProviderError("not-found", LLM_MESSAGES.notFound(config.model), null, status);
    if (status === 429) {
      const header = error.headers?.get("retry-after");
      const seconds = header != null && /^\d+(\.\d+)?$/.test(header) ? Number(header) : null;
      return new ProviderError("rate-limit", LLM_MESSAGES.rateLimit(seconds), seconds, status);
    }
    if (status >= 500) return new ProviderError("server", LLM_MESSAGES.server(status, detail), null, status);
    return new ProviderError("bad-request", LLM_MESSAGES.badRequest(status, detail), null, status);
  }
  if (error instanceof APIError) {
    const cause = (error.cause as Error | undefined)?.message ?? error.message;
    return new ProviderError("unreachable", LLM_MESSAGES.unreachable(cause));
  }
  // The SDK's stream reader throws a plain error when the connection ends before `[DONE]`.
  const message = (error as Error)?.message ?? String(error);
  if (/terminated|premature|aborted|socket|ECONNRESET|other side closed/i.test(message)) return new ProviderError("cut", LLM_MESSAGES.cut);
  return new ProviderError("unreachable", LLM_MESSAGES.unreachable(message));
}

const toSdkMessage = (m: ChatMessage): OpenAI.Chat.ChatCompletionMessageParam => {
  if (m.role === "function") return { role: "user", content: `Result of ${m.name}: ${m.content}` };
  if (m.role === "system") return { role: "system", content: typeof m.content === "string" ? m.content : m.content.map((p) => (p.type === "text" ? p.text : "")).join("") };
  if (m.role === "assistant") return { role: "assistant", content: typeof m.content === "string" ? m.content : m.content.map((p) => (p.type === "text" ? p.text : "")).join("") };
  return { role: "user", content: m.content };
};

export type ChatCall = { signal?: AbortSignal };

/** The image type a generated image's bytes say they are (PNG, JPEG or WebP signatures); null for anything else. */
export function imageTypeOf(bytes: Uint8Array): GeneratedImage["type"] | null {
  const starts = (...signature: number[]) => signature.every((b, i) => bytes[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "png";
  if (starts(0xff, 0xd8, 0xff)) return "jpeg";
  if (starts(0x52, 0x49, 0x46, 0x46) && bytes[8] === 0x57 && bytes[9] === 0x45 && bytes[10] === 0x42 && bytes[11] === 0x50) return "webp";
  return null;
}

/** An OpenAI-compatible model: one per model configuration. */
export class OpenAiCompatible {
  private readonly client: OpenAI;

  constructor(readonly config: ProviderConfig) {
    this.client = new OpenAI({
      baseURL: config.baseURL,
      apiKey: config.apiKey,
      organization: config.organization ?? null,
      timeout: Math.min(config.timeoutMs, LLM_LIMITS.timeoutMs),
      maxRetries: config.maxRetries,
    });
  }

  private params(request: ChatRequest) {
    return {
      model: this.config.model,
      messages: request.messages.map(toSdkMessage),
      ...(request.temperature != null ? { temperature: request.temperature } : {}),
      ...(request.maxTokens != null ? { max_tokens: request.maxTokens } : {}),
      ...(request.tools?.length
        ? { tools: request.tools.map((t) => ({ type: "function" as const, function: { name: t.name, description: t.description, parameters: t.parameters } })) }
        : {}),
    };
  }

  /**
   * A streamed chat: text and tool-call deltas as they come, then the usage (when the provider sends it) and the end.
   * Aborting `signal` closes the connection to the provider and ends the iteration with ProviderError("aborted").
   * A stream that ends without its finish reason is ProviderError("cut"), never a silently short answer.
   */
  async *chat(request: ChatRequest, call: ChatCall = {}): AsyncGenerator<ChatEvent> {
    let stream;
    try {
      stream = await this.client.chat.completions.create(
        { ...this.params(request), stream: true, stream_options: { include_usage: true } },
        { signal: call.signal },
      );
    } catch (error) {
      throw providerError(error, this.config, call.signal);
    }
    let finishReason: string | null | undefined;
    try {
      for await (const chunk of stream) {
        if (chunk.usage) yield { type: "usage", promptTokens: chunk.usage.prompt_tokens, completionTokens: chunk.usage.completion_tokens };
        const choice = chunk.choices[0];
        if (!choice) continue;
        if (choice.delta.content) yield { type: "text", text: choice.delta.content };
        for (const t of choice.delta.tool_calls ?? []) {
          yield { type: "tool-call", index: t.index, id: t.id, name: t.function?.name, arguments: t.function?.arguments ?? "" };
        }
        if (choice.finish_reason) finishReason = choice.finish_reason;
      }
    } catch (error) {
      throw providerError(error, this.config, call.signal);
    } finally {
      // A consumer that stops iterating early (a Stop) must not leave the provider's connection open.
      stream.controller.abort();
    }
    if (call.signal?.aborted) throw new ProviderError("aborted", LLM_MESSAGES.aborted);
    if (finishReason === undefined) throw new ProviderError("cut", LLM_MESSAGES.cut);
    yield { type: "done", finishReason };
  }

  /** A whole answer: the text, the tool calls, the usage. */
  async complete(request: ChatRequest, call: ChatCall = {}) {
    let text = "";
    const tools: { id?: string; name: string; arguments: string }[] = [];
    let usage: { promptTokens: number; completionTokens: number } | null = null;
    let finishReason: string | null = null;
    for await (const event of this.chat(request, call)) {
      if (event.type === "text") text += event.text;
      else if (event.type === "tool-call") {
        const t = (tools[event.index] ??= { name: "", arguments: "" });
        if (event.id) t.id = event.id;
        if (event.name) t.name += event.name;
        t.arguments += event.arguments;
      } else if (event.type === "usage") usage = { promptTokens: event.promptTokens, completionTokens: event.completionTokens };
      else finishReason = event.finishReason;
    }
    return { text, toolCalls: tools.filter(Boolean), usage, finishReason };
  }

  /** Embeddings of up to LLM_LIMITS.embedTexts texts, in order. */
  async embed(texts: readonly string[], call: ChatCall = {}): Promise<number[][]> {
    if (texts.length > LLM_LIMITS.embedTexts) throw new ProviderError("bad-request", `At most ${LLM_LIMITS.embedTexts} texts can be embedded at once.`);
    try {
      const answer = await this.client.embeddings.create(
        { model: this.config.model, input: texts.map((t) => t.slice(0, LLM_LIMITS.embedChars)), encoding_format: "float" },
        { signal: call.signal },
      );
      return [...answer.data].sort((a, b) => a.index - b.index).map((d) => d.embedding);
    } catch (error) {
      throw providerError(error, this.config, call.signal);
    }
  }

  /** "Test connection": a one-token request, answered with how long the model took or the provider's error. */
  async test(call: ChatCall = {}): Promise<{ ok: true; ms: number; message: string } | { ok: false; message: string; failure: LlmFailure }> {
    const started = performance.now();
    try {
      await this.client.chat.completions.create(
        { model: this.config.model, messages: [{ role: "user", content: "ping" }], max_tokens: 1 },
        { signal: call.signal, maxRetries: 0 },
      );
      const ms = Math.round(performance.now() - started);
      return { ok: true, ms, message: LLM_MESSAGES.answered(ms) };
    } catch (error) {
      const e = providerError(error, this.config, call.signal);
      return { ok: false, message: e.message, failure: e.failure };
    }
  }

  /** Speech to text: the audio's transcript (the service's config `model`, e.g. whisper-1). */
  async transcribe(audio: { bytes: Uint8Array; name: string; type?: string }, call: ChatCall = {}): Promise<string> {
    if (audio.bytes.byteLength > LLM_LIMITS.audioBytes) {
      throw new ProviderError("bad-request", `Audio is limited to ${LLM_LIMITS.audioBytes / 1024 / 1024} MB.`);
    }
    try {
      const file = await toFile(audio.bytes, audio.name, audio.type ? { type: audio.type } : undefined);
      const answer = await this.client.audio.transcriptions.create({ file, model: this.config.model }, { signal: call.signal });
      return answer.text;
    } catch (error) {
      throw providerError(error, this.config, call.signal);
    }
  }

  /**
   * Image generation (`POST /v1/images/generations`): the prompt, the config's `image` options (size at most
   * LLM_LIMITS.imageSide a side, LLM_LIMITS.imageSize when unset), the images as base64 with their type read from
   * their bytes, and the usage when the provider reports it. An answer that is a URL, not an image, or larger than
   * LLM_LIMITS.imageBytes is refused with its message rather than fetched or kept.
   */
  async generateImages(
    prompt: string,
    call: ChatCall = {},
  ): Promise<{ images: GeneratedImage[]; usage: { promptTokens: number; completionTokens: number } | null }> {
    const options = this.config.image ?? {};
    let answer: OpenAI.ImagesResponse;
    try {
      answer = await this.client.images.generate(
        {
          model: this.config.model,
          prompt,
          size: options.size ?? LLM_LIMITS.imageSize,
          n: options.count ?? 1,
          ...(options.quality ? { quality: options.quality } : {}),
          ...(options.format ? { output_format: options.format } : {}),
          ...(options.responseFormat === false ? {} : { response_format: "b64_json" as const }),
        },
        { signal: call.signal },
      );
    } catch (error) {
      throw providerError(error, this.config, call.signal);
    }
    const data = (answer.data ?? []).slice(0, LLM_LIMITS.imagesPerCall);
    if (!data.length) throw new ProviderError("bad-request", LLM_MESSAGES.noImage);
    const images = data.map((d): GeneratedImage => {
      if (!d.b64_json) throw new ProviderError("bad-request", d.url ? LLM_MESSAGES.imageUrlOnly : LLM_MESSAGES.noImage);
      const base64 = d.b64_json.replace(/\s+/g, "");
      // Checked on the text before decoding it: base64 is 4/3 of the bytes.
      if (base64.length > Math.ceil(LLM_LIMITS.imageBytes / 3) * 4) throw new ProviderError("bad-request", LLM_MESSAGES.imageTooLarge(LLM_LIMITS.imageBytes));
      const type = imageTypeOf(Buffer.from(base64.slice(0, 16), "base64"));
      if (!type) throw new ProviderError("bad-request", LLM_MESSAGES.notAnImage);
      return { type, base64, revisedPrompt: d.revised_prompt ?? null };
    });
    const usage = answer.usage ? { promptTokens: answer.usage.input_tokens, completionTokens: answer.usage.output_tokens } : null;
    return { images, usage };
  }
}
