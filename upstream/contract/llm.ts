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

export const LLM_MESSAGES = {
  notConfigured: "No language model is configured. An administrator adds one under Administration → Models.",
  sttNotConfigured: "No speech-to-text service is configured. An administrator adds one under Administration → Speech to text.",
  auth: (status: number) => `The model provider refused the API key (${status}). Check apiKey in the model's config.`,
  rateLimit: (retryAfterSeconds: number | null) =>
    `The model provider is rate limiting (429)${retryAfterSeconds != null ? `; it asks to wait ${retryAfterSeconds} s` : ""}. Try again later.`,
  server: (status: number, detail: string) => `The model provider failed (${status})${detail ? `: ${detail}` : ""}.`,
  badRequest: (status: number, detail: string) => `The model provider refused the request (${status})${detail ? `: ${detail}` : ""}.`,
  notFound: (model: string) => `The model provider has no model '${model}'. Check model in the config.`,
  timeout: (ms: number) => `The model provider did not answer within ${ms} ms.`,
  aborted: "Stopped.",
  cut: "The model provider's stream ended before it was complete.",
  unreachable: (why: string) => `The model provider could not be reached: ${why}.`,
  answered: (ms: number) => `The model answered in ${ms} ms.`,
} as const;
