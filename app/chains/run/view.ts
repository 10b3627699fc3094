import { RUN_MESSAGES, type RunEvent, type RunFormVariable, type RunStatus, type Usage } from "@contract/chain-runs";

/**
 * The output pane's model (spec 3 §2.9, §4.3): a run's events folded into what the pane shows, one item per link (and
 * the chat), each with what it was sent, what streamed, its output, tokens and time; retries and errors with the spec's
 * texts; the form a paused run waits at. Pure: the server renders it from the log, the browser folds the live events
 * into the same shape (`foldEvent`), so a reload shows what the stream showed.
 */
export type PaneItem = {
  key: string;
  link: number | null;
  name: string;
  type: string;
  /** What the link was sent (the rendered messages, the SQL…), as the run logged it. */
  input: unknown;
  /** The streamed text, appended chunk by chunk; the output replaces it when the link finishes. */
  text: string;
  output: string | null;
  variable: string | null;
  usage: Usage | null;
  ms: number | null;
  notes: string[];
  error: string | null;
  /** The images a content link gave (its files, or an image model's), shown as images rather than as their base64. */
  files: { name: string; type: string; base64: string }[];
};

export type PaneState = {
  lastId: number;
  /** A chat run's pane, or a chain run's (whose chat's `chat-end` is not the run's end). */
  kind: "chain" | "chat" | null;
  /** A chain run that goes on into its chat (its chat then takes messages). */
  chat: boolean;
  items: PaneItem[];
  status: RunStatus | "starting";
  form: { link: number | null; variables: RunFormVariable[] } | null;
  usage: Usage | null;
  error: string | null;
};

export const emptyPane = (): PaneState => ({ lastId: 0, kind: null, chat: false, items: [], status: "starting", form: null, usage: null, error: null });

const item = (key: string, link: number | null, name: string, type: string, input: unknown = null): PaneItem => ({
  key,
  link,
  name,
  type,
  input,
  text: "",
  output: null,
  variable: null,
  usage: null,
  ms: null,
  notes: [],
  error: null,
  files: [],
});

/** The item of `link` (the last one started for it), made when an event comes before its start. */
function itemOf(items: PaneItem[], link: number | null): PaneItem {
  for (let i = items.length - 1; i >= 0; i--) if (items[i]!.link === link) return items[i]!;
  const made = item(`x${items.length}`, link, link === null ? "Chat" : `Link ${link + 1}`, "");
  items.push(made);
  return made;
}

/** The pane after `e`; events at or before `lastId` are ignored (a replay after a reconnect). */
export function foldEvent(state: PaneState, e: RunEvent): PaneState {
  if (e.type === "ping" || e.id <= state.lastId) return state;
  const items = state.items.map((i) => ({ ...i, notes: [...i.notes] }));
  const next: PaneState = { ...state, items, lastId: e.id };
  switch (e.type) {
    case "chain-start":
      next.status = "running";
      next.kind = "chain";
      next.chat = e.data.chat === true;
      break;
    case "chat-start":
      next.status = "running";
      next.kind ??= "chat";
      items.push(item(`c${e.id}`, null, e.data.name ?? "Chat", "chat", e.data.input ?? null));
      break;
    case "link-start":
      next.status = "running";
      next.form = null;
      items.push(item(`l${e.id}`, e.data.link, e.data.name, e.data.type, e.data.input));
      break;
    case "stream":
      // Spec 3 §4.3: the text is appended to the last response item.
      itemOf(items, e.data.link).text += e.data.content;
      break;
    case "tool":
      itemOf(items, e.data.link).notes.push(`${e.data.name}(${e.data.arguments})`);
      break;
    case "content":
      if (e.data.message.type === "form") {
        next.status = "waiting";
        next.form = { link: e.data.link, variables: e.data.message.variables ?? [] };
      } else {
        const target = itemOf(items, e.data.link);
        target.text += e.data.message.text;
        if (e.data.message.files?.length) target.files = [...target.files, ...e.data.message.files];
      }
      break;
    case "retry":
      itemOf(items, e.data.link).notes.push(RUN_MESSAGES.retrying);
      break;
    case "error":
      itemOf(items, e.data.link).error = e.data.message || RUN_MESSAGES.failed;
      next.error = e.data.message || RUN_MESSAGES.failed;
      break;
    case "link-finish": {
      const done = itemOf(items, e.data.link);
      // A link that gave images answers its text: its output is the JSON of their bytes.
      done.output = done.files.length ? done.text : e.data.output;
      done.variable = e.data.variable;
      done.usage = e.data.usage;
      done.ms = e.data.ms;
      break;
    }
    case "chat-end": {
      const chat = itemOf(items, null);
      // A chat that failed or was stopped has no answer: what streamed stays.
      if (e.data.status === "finished") chat.output = e.data.output;
      chat.usage = e.data.usage;
      // In a chain run the chat's end is not the run's: chain-finish follows.
      if (next.kind === "chain") break;
      next.status = e.data.status;
      next.usage = e.data.usage;
      next.form = null;
      break;
    }
    case "chain-finish":
      next.status = e.data.status;
      next.usage = e.data.usage;
      next.form = null;
      break;
  }
  return next;
}

export const paneOf = (events: readonly RunEvent[]) => events.reduce(foldEvent, emptyPane());

/** Whether the pane still expects events (running, or paused at a form: Continue resumes it). */
export const isGoing = (s: PaneState["status"]) => s === "starting" || s === "running" || s === "waiting";

/** What an item shows as its answer: the output once finished (the spec's text for an empty one), else the stream. */
export const answerOf = (i: PaneItem) => (i.output === null ? i.text : i.output === "" && !i.files.length ? RUN_MESSAGES.empty : i.output);
