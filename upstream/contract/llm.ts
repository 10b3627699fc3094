/**
 * The language-model and speech-to-text providers (spec 3 §3 model configuration and speech-to-text service, §5 config
 * JSON): what a model's or a service's `config` JSON holds for the OpenAI-compatible adapter, the chat messages and
 * stream events the adapter speaks, and the texts a user reads when a provider fails. The adapter is
 * upstream/src/llm; the decisions in docs/decisions/llm-provider.md.
 */
import { z } from "zod";
import { parseJsonText } from "./json-text";

export const LLM_LIMITS = {
  /** A provider call never waits longer than this, whatever the config says. */
  timeoutMs: 600_000,
  defaultTimeoutMs: 60_000,
  maxRetries: 5,
  defaultMaxRetries: 2,
  /** Texts embedded in one call, and the characters of each. */
  embedTexts: 256,
  embedChars: 32_000,
  /** Audio sent to speech to text (the OpenAI limit). */
  audioBytes: 25 * 1024 * 1024,
  /**
   * Image generation: the size asked when the config sets none, the longest side a config may ask, images one call
   * may ask (`n`), and the bytes of one image as decoded. An image generated is kept like one uploaded onto a content
   * link (its base64 under the chains' `fileBase64`), in the run's event log and output variable.
   */
  imageSize: "1024x1024",
  imageSide: 2048,
  imagesPerCall: 4,
  imageBytes: 675_000,
} as const;

const url = z
  .string({ required_error: "baseURL is required" })
  .trim()
  .url("baseURL must be a URL (https://… or http://…)")
  .refine((u) => /^https?:\/\//i.test(u), "baseURL must be a URL (https://… or http://…)");

/** The keys of a model's or a service's config JSON for an OpenAI-compatible provider. */
export const ProviderConfig = z.object({
  baseURL: url,
  apiKey: z.string({ required_error: "apiKey is required" }).trim().min(1, "apiKey is required").max(4_000),
  model: z.string({ required_error: "model is required" }).trim().min(1, "model is required").max(200),
  organization: z.string().trim().max(200).optional(),
  timeoutMs: z.number().int().min(1).max(LLM_LIMITS.timeoutMs).default(LLM_LIMITS.defaultTimeoutMs),
  maxRetries: z.number().int().min(0).max(LLM_LIMITS.maxRetries).default(LLM_LIMITS.defaultMaxRetries),
  image: z
    .object({
      /** "WIDTHxHEIGHT", each side at most LLM_LIMITS.imageSide. */
      size: z
        .string()
        .regex(/^\d{2,4}x\d{2,4}$/, "image.size must be WIDTHxHEIGHT, e.g. 1024x1024")
        .refine((s) => s.split("x").every((n) => Number(n) <= LLM_LIMITS.imageSide), `image.size: each side at most ${LLM_LIMITS.imageSide}`)
        .optional(),
      /** Passed as the provider takes it ("standard", "hd", "low", "medium", "high", "auto"). */
      quality: z.enum(["standard", "hd", "low", "medium", "high", "auto"]).optional(),
      /** Images per call. */
      count: z.number().int().min(1).max(LLM_LIMITS.imagesPerCall).optional(),
      /** png, jpeg or webp, for the models that take `output_format` (gpt-image-*): jpeg keeps an image small. */
      format: z.enum(["png", "jpeg", "webp"]).optional(),
      /**
       * `response_format: "b64_json"` is sent unless false: gpt-image-* models refuse the parameter (they always answer
       * base64); DALL·E and most gateways need it to answer the bytes rather than a URL.
       */
      responseFormat: z.boolean().optional(),
    })
    .strict()
    .optional(),
});
export type ProviderConfig = z.infer<typeof ProviderConfig>;

/**
 * Parses a config JSON text: invalid JSON says where ("Config is not valid JSON: line 1, column 13: a value is expected"),
 * a missing or wrong key names it ("Config: apiKey is required").
 */
export function parseProviderConfig(text: string): { ok: true; config: ProviderConfig } | { ok: false; message: string } {
  const json = parseJsonText(text);
  if (!json.ok) return { ok: false, message: `Config is not valid JSON: ${json.message}` };
  const parsed = ProviderConfig.safeParse(json.value);
  if (parsed.success) return { ok: true, config: parsed.data };
  const issue = parsed.error.issues[0];
  const key = issue?.path.join(".") ?? "";
  const message = issue?.message ?? "invalid";
  // The key's own messages name it already ("apiKey is required"); zod's generic ones do not.
  return { ok: false, message: `Config: ${key && !message.startsWith(key) ? `${key}: ${message}` : message}` };
}

/** A secret as the browser may see it: its last 4 characters. */
export const maskSecret = (secret: string) => (secret.length <= 4 ? "••••" : `••••${secret.slice(-4)}`);

/** A chat message (spec 3 §3): text, or text and image parts for a vision model. */
export type ChatPart = { type: "text"; text: string } | { type: "image_url"; image_url: { url: string } };
export type ChatMessage =
  | { role: "system" | "user" | "assistant"; content: string | ChatPart[] }
  | { role: "function"; name: string; content: string };

/** A tool (function) the model may call: its JSON-schema parameters. */
export type ChatTool = { name: string; description?: string; parameters: Record<string, unknown> };

export type ChatRequest = {
  messages: ChatMessage[];
  temperature?: number;
  maxTokens?: number | null;
  tools?: ChatTool[];
};

/** What a streamed chat answers, in order: text and tool-call deltas, the usage, then the end. */
export type ChatEvent =
  | { type: "text"; text: string }
  | { type: "tool-call"; index: number; id?: string; name?: string; arguments: string }
  | { type: "usage"; promptTokens: number; completionTokens: number }
  | { type: "done"; finishReason: string | null };

/** Why a provider call failed, for the caller to decide (retry later, tell the user, stop). */
export const LLM_FAILURES = ["auth", "rate-limit", "server", "bad-request", "not-found", "timeout", "aborted", "cut", "unreachable"] as const;
export type LlmFailure = (typeof LLM_FAILURES)[number];

/** "Head: the provider's detail." — one full stop, whether or not the provider's text ends with its own. */
const withDetail = (head: string, detail: string) => (detail ? `${head}: ${detail}${/[.!?…]$/.test(detail) ? "" : "."}` : `${head}.`);

export const LLM_MESSAGES = {
  notConfigured: "No language model is configured. An administrator adds one under Administration → Models.",
  sttNotConfigured: "No speech-to-text service is configured. An administrator adds one under Administration → Speech to text.",
  auth: (status: number) => `The model provider refused the API key (${status}). Check apiKey in the model's config.`,
  rateLimit: (retryAfterSeconds: number | null) =>
    `The model provider is rate limiting (429)${retryAfterSeconds != null ? `; it asks to wait ${retryAfterSeconds} s` : ""}. Try again later.`,
  server: (status: number, detail: string) => withDetail(`The model provider failed (${status})`, detail),
  badRequest: (status: number, detail: string) => withDetail(`The model provider refused the request (${status})`, detail),
  notFound: (model: string) => `The model provider has no model '${model}'. Check model in the config.`,
  timeout: (ms: number) => `The model provider did not answer within ${ms} ms.`,
  aborted: "Stopped.",
  cut: "The model provider's stream ended before it was complete.",
  unreachable: (why: string) => `The model provider could not be reached: ${why}.`,
  answered: (ms: number) => `The model answered in ${ms} ms.`,
  imageUrlOnly: "The model provider answered with an image address, not the image: leave image.responseFormat unset in the model's config.",
  notAnImage: "The model provider's answer is not a PNG, JPEG or WebP image.",
  noImage: "The model provider answered no image.",
  imageTooLarge: (bytes: number) =>
    `A generated image is larger than ${Math.round(bytes / 1000)} KB: ask a smaller image.size, a lower image.quality or image.format "jpeg" in the model's config.`,
} as const;

/** An image a model generated: its type (from its bytes' signature) and the bytes as base64. */
export type GeneratedImage = { type: "png" | "jpeg" | "webp"; base64: string; revisedPrompt: string | null };
