/**
 * Runs of prompt chains and chats (spec 3 §3 context, run response message, chat message, session output variables;
 * §4.3 chain execution; §5 stream data; §7 `chains/stream`, `chains/variables/resolve`, `chat`; §8): a run is a
 * server-side object with an append-only log of numbered events, executed link by link by the embedded upstream and
 * read as server-sent events (`id:` the event's number, `event:` its type, `data:` the whole event as one line of
 * JSON). A client that reconnects with `Last-Event-ID` (or `?after=`) gets the rest of the log, then the live events.
 * The HTTP API is written down in docs/decisions/chain-runs.md.
 */
import { z } from "zod";
import { ChainChat, ChainTemplate } from "./chains";
import { DOC_CODES, SELECTORS } from "./chains-constants";
import { TEXT_LIMITS } from "./limits";

/** The base path of the runs (`/api/v2/nlp/chains/runs/{id}`…). */
export const CHAIN_RUNS_PATH = "/api/v2/nlp/chains";

/** Every bound of a run, checked before the work it guards. */
export const RUN_LIMITS = {
  /** Runs of one user that are running or waiting at once; one more is refused (429). */
  perUser: 5,
  /** Runs running or waiting in the whole process. */
  total: 200,
  /** Tokens (in + out, from the provider's usage) one run may spend; past it the run fails. */
  tokens: 200_000,
  /** Characters of one link's output and of all the outputs of a run together. */
  outputChars: 200_000,
  runOutputChars: 1_000_000,
  /** Events of one run's log. */
  events: 20_000,
  /** Wall time of a run, waiting at a form included; past it the run is cancelled (no listener needed). */
  durationMs: 15 * 60_000,
  /** Between two `ping` events of an open stream. */
  pingMs: 15_000,
  /** Provider retries of one link (429 and 5xx), and the first wait, doubled each time (Retry-After when longer). */
  retries: 3,
  retryBaseMs: 500,
  retryMaxMs: 10_000,
  /** Characters of a context's JSON, of a variable's value, of a chat message; variables and history entries. */
  contextChars: 500_000,
  variableChars: 100_000,
  variables: 200,
  chatMessageChars: 20_000,
  history: 200,
} as const;

/** The bounds as a caller may set them (tests, the bench): each a number. */
export type RunLimits = { [K in keyof typeof RUN_LIMITS]: number };

/**
 * How long an ended run (finished, failed or cancelled) and its event log are kept, and how the sweep that deletes
 * older ones is bounded. 30 days: a run's page is read from its log while the work is fresh (its output is already in
 * the chain's context or the document), and a month covers a holiday's return; a busy month's logs (up to
 * `RUN_LIMITS.events` rows a run) would otherwise grow the database for good. A sweep runs off the request path every
 * `sweepEveryMs`, in steps of at most `eventsPerStep` deleted events (one transaction each, the event loop free between
 * them), and at most `stepsPerSweep` steps, so a backlog after an upgrade is spread over several sweeps.
 */
export const RUN_RETENTION = {
  keepMs: 30 * 24 * 60 * 60_000,
  sweepEveryMs: 60 * 60_000,
  eventsPerStep: 5_000,
  stepsPerSweep: 200,
};
export type RunRetention = typeof RUN_RETENTION;

/** Spec 3 §8 texts of a run, verbatim (typos included), and the refusals of the limits. */
export const RUN_MESSAGES = {
  failed: "Unable to generate an output.",
  empty: "<An empty string was generated..>",
  retrying: "An error occured. Retrying...",
  badStreamData: "Bad stream data",
  partialStream: "Partial event stream received",
  sendFailed: "Error sending message",
  sendFailedDetail: "There was an error sending your message. Please try again.",
  cancelled: "The run was stopped.",
  tooManyRuns: (n: number) => `You have ${n} runs going already. Stop one or wait for it to finish.`,
  busy: "Too many runs are going on the server. Try again in a moment.",
  tooManyTokens: (n: number) => `The run used more than ${n.toLocaleString("en-US")} tokens and was stopped.`,
  outputTooLong: (n: number) => `The output is longer than ${n.toLocaleString("en-US")} characters.`,
  tooManyEvents: (n: number) => `The run wrote more than ${n.toLocaleString("en-US")} events and was stopped.`,
  tooLong: (ms: number) =>
    `The run took longer than ${ms >= 60_000 ? `${Math.round(ms / 60_000)} minutes` : `${(ms / 1000).toLocaleString("en-US")} s`} and was stopped.`,
  notFound: "Run not found.",
  notYours: "Only the user who started a run may stop or continue it.",
  notWaiting: "This run is not waiting for a form.",
  finished: "This run has ended.",
  noLinks: "The chain has no link to run.",
  badIndex: "There is no link at this index.",
  noChat: "The chain has no chat.",
  notOver: "This run has not ended yet: its chat takes messages once it has.",
  aiNotConfigured: "No image-generation model is configured: an AI content link cannot run.",
  fileNotText: (name: string) => `The file ${name} cannot be turned into text here.`,
} as const;

/** Run status: going, paused at a form, or ended one of three ways. */
export const RUN_STATUSES = ["running", "waiting", "finished", "failed", "cancelled"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
export const isRunOver = (s: RunStatus) => s === "finished" || s === "failed" || s === "cancelled";

/** Spec 3 §4.3 event names. */
export const RUN_EVENT_TYPES = [
  "chain-start",
  "link-start",
  "stream",
  "tool",
  "content",
  "ping",
  "retry",
  "error",
  "link-finish",
  "chain-finish",
  "chat-start",
  "chat-end",
] as const;
export type RunEventType = (typeof RUN_EVENT_TYPES)[number];

/** A value as JSON carries it (what a run's variables and inputs are: they came in JSON bodies). */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** Tokens a provider reported. */
export type Usage = { promptTokens: number; completionTokens: number };

/** A variable of a paused form as the run shows it (spec 3 §3 "Variable in a form"), its value resolved. */
export type RunFormVariable = {
  name: string;
  label: string;
  type: string;
  value: JsonValue;
  singleClaimMode: boolean;
  independentOnly: boolean;
};

/** Spec 3 §3 "Run response message": what the output pane shows as one item. */
export type RunMessage = {
  type: "form" | "tool" | "message";
  author: string;
  text: string;
  files?: { name: string; type: string; base64: string }[];
  variables?: RunFormVariable[];
  arguments?: string;
};

/** The payload of each event type (`link` is the link's index from 0; null for the chat). */
export type RunEventData = {
  /** `chat`: the run goes on into the chain's chat after its last link. */
  "chain-start": { runId: string; chainId: string | null; links: number; index: number | null; chat?: boolean };
  "link-start": { link: number; name: string; type: string; input: JsonValue };
  stream: { link: number | null; content: string };
  tool: { link: number | null; name: string; arguments: string };
  content: { link: number | null; message: RunMessage };
  ping: Record<string, never>;
  retry: { link: number | null; message: string; attempt: number; delayMs: number; reason: string };
  error: { link: number | null; message: string };
  "link-finish": { link: number; variable: string; output: string; usage: Usage | null; ms: number };
  "chain-finish": { status: RunStatus; usage: Usage; output: Record<string, string> };
  /**
   * A chat's turn begins: in a chat run, or in a whole-chain run after its last link. `name` is the chat's, `input` the
   * rendered messages sent (as a link's), `message` the user's message (a chat run's; none after a chain's links).
   */
  "chat-start": { runId: string; chainId: string | null; name?: string; input?: JsonValue; message?: string };
  /** The chat's answer, and the tokens the chat spent (in a chain run, the chat's part of the run's usage). */
  "chat-end": { status: RunStatus; usage: Usage; output: string };
};

/**
 * The event that closes a run's stream: a chain run's `chain-finish` (its chat's `chat-end`, when it goes on into its
 * chat, comes before it), a chat run's `chat-end`.
 */
export const closingEvent = (kind: "chain" | "chat"): RunEventType => (kind === "chat" ? "chat-end" : "chain-finish");

/** One event of a run's log: `id` is its number in the run (1, 2, …), the SSE `id:` line. */
export type RunEvent = { [T in RunEventType]: { id: number; type: T; at: string; data: RunEventData[T] } }[RunEventType];

/** A run as `GET …/runs/{id}` answers it (its events beside). */
export type Run = {
  id: string;
  kind: "chain" | "chat";
  chainId: string | null;
  status: RunStatus;
  startedBy: string;
  startedAt: string;
  endedAt: string | null;
  usage: Usage;
  /** The index of the form link it waits at, when waiting. */
  waitingAt: number | null;
  /** The last error's message, when failed or cancelled. */
  error: string | null;
  /** A chat run sent after a chain run's chat: that chain run. */
  parentId: string | null;
  /** A chain run whose links all finished and whose chain has a chat: its chat takes follow-up messages. */
  chat: boolean;
};
/** A message of a run's conversation with its chat, and the run that sent or answered it. */
export type ConversationItem = { author: string; text: string; runId: string };
/**
 * `conversation`: a chain run's conversation with its chat (its chat's answer, then each follow-up message and its
 * answer); a follow-up chat run's, up to its own message; empty otherwise.
 */
export type RunWithEvents = Run & { events: RunEvent[]; conversation: ConversationItem[] };

const text = (max: number) => z.string().max(max);

/** Spec 3 §3 "Context": what a run knows of the invention and its document (open-ended, bounded as JSON). */
export const RunContext = z
  .object({
    publicData: z.unknown().optional(),
    invention: z.object({ title: text(TEXT_LIMITS.name).optional(), references: z.array(text(TEXT_LIMITS.id)).max(100).default([]), id: text(TEXT_LIMITS.id).optional() }).optional(),
    document: z.unknown().optional(),
    claims: z.array(z.unknown()).max(1_000).optional(),
    specification: z.unknown().optional(),
    properties: z.unknown().optional(),
    forms: z.unknown().optional(),
    /** The document's sections (spec 3 §2.9 options): the run's output is inserted into them. */
    output: z.record(text(RUN_LIMITS.outputChars)).optional(),
    debug: z.boolean().optional(),
  })
  .passthrough()
  .refine((c) => JSON.stringify(c).length <= RUN_LIMITS.contextChars, `The context is larger than ${RUN_LIMITS.contextChars.toLocaleString("en-US")} characters.`)
  .default({});
export type RunContext = z.infer<typeof RunContext>;

const VariableValue = z.union([text(RUN_LIMITS.variableChars), z.number(), z.boolean(), z.null(), z.array(z.unknown()).max(1_000)]);
export const RunVariables = z
  .record(VariableValue)
  .refine((v) => Object.keys(v).length <= RUN_LIMITS.variables, `At most ${RUN_LIMITS.variables} variables.`)
  .default({});

/**
 * POST /api/v2/nlp/chains/stream (spec 3 §7): the chain as on screen (`template`), the chain it belongs to (`item.id`,
 * whose organizations choose the models; an unsaved chain gives its organizations), the context and variables, and
 * `index` to run one link only.
 */
export const StreamBody = z.object({
  item: z.object({ id: text(TEXT_LIMITS.id).optional(), organizations: z.array(text(TEXT_LIMITS.id)).max(200).default([]) }).default({}),
  template: ChainTemplate,
  context: RunContext,
  variables: RunVariables,
  index: z.number().int().min(0).optional(),
});
export type StreamBody = z.input<typeof StreamBody>;

/** POST …/runs/{id}/continue: the paused form's values by variable name. */
export const ContinueBody = z.object({ values: RunVariables });
export type ContinueBody = z.input<typeof ContinueBody>;

/** A message of a chat's history (spec 3 §4.3: authors CURRENT_USER, template-generator, hub-vectorizer are the user). */
export const ChatHistoryItem = z.object({ author: text(200), text: text(RUN_LIMITS.chatMessageChars) });
export const CHAT_USER_AUTHORS = ["CURRENT_USER", "template-generator", "hub-vectorizer"] as const;
export const isUserAuthor = (author: string) => (CHAT_USER_AUTHORS as readonly string[]).includes(author);

/**
 * POST /api/v2/nlp/chat: the chat (its template messages), the history, the new message; empty → 204, nothing run.
 * With `runId` (a chain run of the caller's that went on into its chat) the message follows that run's conversation:
 * the chat, its scope (the run's variables, outputs and context, the body's variables over them) and the history are
 * that run's, kept by the upstream; `chat` and `history` are not needed then.
 */
export const ChatBody = z.object({
  item: z.object({ id: text(TEXT_LIMITS.id).optional(), organizations: z.array(text(TEXT_LIMITS.id)).max(200).default([]) }).default({}),
  runId: text(TEXT_LIMITS.id).optional(),
  chat: ChainChat.optional(),
  history: z.array(ChatHistoryItem).max(RUN_LIMITS.history).default([]),
  message: text(RUN_LIMITS.chatMessageChars).default(""),
  context: RunContext,
  variables: RunVariables,
});
export type ChatBody = z.input<typeof ChatBody>;

/** POST /api/v2/nlp/chains/variables/resolve {variables, context}: each variable with its value from the context. */
export const ResolveBody = z.object({
  variables: z
    .array(
      z.object({
        name: text(100),
        type: text(50).default("string"),
        value: z.unknown().optional(),
        source: z.object({ docCode: z.enum(DOC_CODES).default(""), selector: z.enum(SELECTORS).default("all") }).optional(),
      }).passthrough(),
    )
    .max(RUN_LIMITS.variables),
  context: RunContext,
});
export type ResolveBody = z.input<typeof ResolveBody>;
export type ResolveAnswer = { variables: { name: string; type: string; value: JsonValue }[] };

/** Server-sent event text of one event (single-line JSON; the `id:` line is the resume point). */
export const sseOf = (e: RunEvent) => `id: ${e.id}\nevent: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`;

/**
 * The complete events at the start of `buffer` (server-sent event text as it arrives, pings included) and what is
 * left of an event not complete yet: a reader appends each chunk to the rest and calls this again.
 */
export function takeEvents(buffer: string): { events: RunEvent[]; rest: string } {
  const events: RunEvent[] = [];
  let rest = buffer;
  let end: number;
  while ((end = rest.indexOf("\n\n")) >= 0) {
    const data = rest
      .slice(0, end)
      .split("\n")
      .find((line) => line.startsWith("data: "));
    rest = rest.slice(end + 2);
    if (data) events.push(JSON.parse(data.slice(6)) as RunEvent);
  }
  return { events, rest };
}

/** Spec 3 §5: a `stream` event must carry content, else 'Bad stream data'. */
export function streamContent(e: RunEvent): string {
  if (e.type !== "stream" || typeof e.data?.content !== "string") throw new Error(RUN_MESSAGES.badStreamData);
  return e.data.content;
}

/** The texts of a content link whose source is `ai` (an image-generation model's images). */
export const AI_CONTENT_MESSAGES = {
  modelNotAllowed: "The link's model is not an image-generation model the chain's organizations may use.",
  /** In the link's input when it names image variables: the generations call takes a prompt only. */
  imagesNotSent: "The image model takes no input image: only the prompt was sent, not the link's image variables.",
  emptyPrompt: "The AI content link's template gave an empty prompt.",
} as const;
