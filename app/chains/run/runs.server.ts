import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { CHAIN_CONTEXT_LIMITS, type ChainContext } from "@contract/chain-context";
import { RUN_LIMITS, RUN_MESSAGES, type ChatBody, type ContinueBody, type RunContext, type RunWithEvents, type StreamBody } from "@contract/chain-runs";
import { notFound, requireRoute } from "~/auth/guard.server";
import { reasonOf } from "~/lib/actions.server";
import { readForm, textOf } from "~/lib/form.server";
import { toasts } from "~/lib/toast.server";
import { isUpstreamError, type Api } from "~/lib/upstream.server";
import { chains } from "../chains.server";
import { chainContext } from "../context/context.server";
import { editedDocument } from "../editor.server";
import { RUNS } from "./texts";

const base = "/api/v2/nlp/chains";
const runPath = (runId: string) => `${base}/runs/${encodeURIComponent(runId)}`;

/** The run as the upstream answers it (its shape is the contract's type; the upstream is ours). */
const RunAnswer = z.custom<RunWithEvents>((v) => typeof v === "object" && v !== null && "events" in v);

/** The address of a run's page. */
export const runUrl = (chainId: string, runId: string) => `/chains/${encodeURIComponent(chainId)}/runs/${encodeURIComponent(runId)}`;

/** What a run knows of the user's context of the chain (docs/decisions/chain-context.md). */
export function runContextOf(context: ChainContext): RunContext {
  return {
    ...(context.invention ? { invention: context.invention } : {}),
    ...(context.document ? { document: { name: context.document.name, ...context.document.context } } : {}),
    ...(context.claims.length ? { claims: context.claims } : {}),
  };
}

/**
 * Starts a run (a chain's stream or a chat) and answers its id: the upstream answers with the run's event stream, which
 * this post does not read (the run's page does), so the stream is let go at once; the run goes on.
 */
async function started(api: Api, path: string, body: StreamBody | ChatBody): Promise<string | null> {
  const response = await api.raw("POST", path, { body });
  await response.body?.cancel();
  return response.headers.get("x-run-id");
}

export const runs = {
  /**
   * Starts a run of the chain as the page shows it (the draft for a writer who has one), with the user's context; one
   * link when `index` is given. Answers the run's id once the upstream has recorded it: the run goes on without this
   * request, which stops listening at once.
   */
  async start(api: Api, chainId: string, index: number | null, writer: boolean): Promise<string> {
    const chain = await chains.getOr404(api, chainId);
    const [document, context] = await Promise.all([writer ? editedDocument(api, chain).then((e) => e.document) : chain, chainContext.get(api, chain.id)]);
    const body: StreamBody = {
      item: { id: chain.id },
      template: document.template,
      context: runContextOf(context),
      variables: {},
      ...(index === null ? {} : { index }),
    };
    return (await started(api, `${base}/stream`, body)) ?? "";
  },
  /**
   * Sends a message to the chain's chat (spec 3 §7 `chat`): the conversation kept in the user's context is its history
   * (the answers of earlier messages taken in first); the message joins it with the run that answers it. An empty
   * message is ignored (null, no run).
   */
  async chat(api: Api, chainId: string, message: string, writer: boolean): Promise<string | null> {
    if (!message.trim()) return null;
    const chain = await chains.getOr404(api, chainId);
    const [document, kept] = await Promise.all([writer ? editedDocument(api, chain).then((e) => e.document) : chain, chainContext.get(api, chain.id)]);
    const chat = document.template.chat;
    if (!chat) throw new Error(RUN_MESSAGES.noChat);
    const context = { ...kept, chat: await withAnswers(api, kept.chat) };
    const body: ChatBody = {
      item: { id: chain.id },
      chat,
      history: context.chat.slice(-RUN_LIMITS.history).map(({ author, text }) => ({ author, text })),
      message: message.slice(0, RUN_LIMITS.chatMessageChars),
      context: runContextOf(context),
      variables: {},
    };
    const runId = await started(api, "/api/v2/nlp/chat", body);
    if (!runId) return null;
    const sent = { author: "CURRENT_USER", text: body.message ?? "", runId };
    await chainContext.put(api, chain.id, { ...context, chat: [...context.chat, sent].slice(-CHAIN_CONTEXT_LIMITS.chat) });
    return runId;
  },
  /**
   * A message after chain run `runId`'s chat: the upstream renders the chat with that run's variables and sends that
   * run's conversation as the history. An empty message is ignored (null, no run).
   */
  async followUp(api: Api, chainId: string, runId: string, message: string): Promise<string | null> {
    if (!message.trim()) return null;
    const body: ChatBody = { item: { id: chainId }, runId, message: message.slice(0, RUN_LIMITS.chatMessageChars) };
    return started(api, "/api/v2/nlp/chat", body);
  },
  get: (api: Api, runId: string) => api.get(RunAnswer, runPath(runId)),
  stop: (api: Api, runId: string) => api.send("POST", `${runPath(runId)}/stop`),
  continue: (api: Api, runId: string, values: ContinueBody["values"]) => api.send("POST", `${runPath(runId)}/continue`, { values }),
  /** The run's event stream after `after` (the upstream's SSE, unbuffered), cancelled with `signal`. */
  events: (api: Api, runId: string, after: number) => api.raw("GET", `${runPath(runId)}/events`, { query: { after } }),
};

/** The conversation with the answers of its messages added (each from its run's `chat-end`, once the run is over). */
async function withAnswers(api: Api, chat: ChainContext["chat"]): Promise<ChainContext["chat"]> {
  const answered = new Set(chat.filter((m) => m.author !== "CURRENT_USER" && m.runId).map((m) => m.runId));
  const out: ChainContext["chat"] = [];
  for (const m of chat) {
    out.push(m);
    if (m.author !== "CURRENT_USER" || !m.runId || answered.has(m.runId)) continue;
    const end = await runs.get(api, m.runId).then(
      (r) => r.events.find((e) => e.type === "chat-end"),
      () => undefined,
    );
    if (end?.type === "chat-end") out.push({ author: "assistant", text: end.data.output.slice(0, RUN_LIMITS.chatMessageChars), runId: m.runId });
  }
  return out;
}

/** The run of this page's chain, or the not-found view (another user's run, another chain's, none). */
async function runOf(api: Api, chainId: string, runId: string): Promise<RunWithEvents> {
  try {
    const run = await runs.get(api, runId);
    if (run.chainId !== chainId) throw notFound();
    return run;
  } catch (error) {
    if (isUpstreamError(error, 404)) throw notFound();
    throw error;
  }
}

/** Run (the whole chain, or link `index`): starts it and lands on its page; a refusal (a limit) comes back as a toast. */
export async function startRunAction(args: ActionFunctionArgs) {
  const { api, may } = await requireRoute(args);
  const chainId = args.params.id ?? "";
  const form = await readForm(args.request);
  const sent = textOf(form, "index");
  const index = sent === "" ? null : Number(sent);
  const back = `/chains/${encodeURIComponent(chainId)}`;
  if (index !== null && !(Number.isInteger(index) && index >= 0)) return redirect(back);
  try {
    if (textOf(form, "intent") === "chat") {
      // Spec 3 §5: an empty chat message is ignored (back where it was sent from).
      const after = textOf(form, "run");
      const message = textOf(form, "message");
      const chatRun = after ? await runs.followUp(api, chainId, after, message) : await runs.chat(api, chainId, message, may.write);
      return redirect(chatRun ? runUrl(chainId, chatRun) : after ? runUrl(chainId, after) : back);
    }
    const runId = await runs.start(api, chainId, index, may.write);
    return redirect(runUrl(chainId, runId));
  } catch (error) {
    if (error instanceof Response) throw error;
    return toasts(args.context).redirectWithError(back, { message: RUNS.runFailed, description: reasonOf(error) });
  }
}

/** The run page's data: the chain's name and the run with every event so far. */
export async function runPageLoader(args: LoaderFunctionArgs) {
  const { api } = await requireRoute(args);
  const chainId = args.params.id ?? "";
  const [chain, run] = await Promise.all([chains.getOr404(api, chainId), runOf(api, chainId, args.params.run ?? "")]);
  // A chat run's page shows the conversation up to its message, and a reply box: after a chain run's chat, the
  // upstream's conversation of that run; else the one kept in the user's context.
  const chat = run.kind !== "chat" ? null : run.parentId ? run.conversation.map(({ author, text }) => ({ author, text })) : await chatUpTo(api, chainId, run.id);
  // A chain run's page: the messages sent after its chat's answer, and their answers.
  const after = run.kind === "chain" ? run.conversation.filter((m) => m.runId !== run.id).map(({ author, text }) => ({ author, text })) : [];
  return { chain: { id: chain.id, name: chain.name, links: chain.template.chain.length }, run, chat, after, followUp: run.kind === "chat" ? run.parentId : null };
}

async function chatUpTo(api: Api, chainId: string, runId: string) {
  const kept = (await chainContext.get(api, chainId)).chat;
  const at = kept.findIndex((m) => m.runId === runId && m.author === "CURRENT_USER");
  return at < 0 ? [] : kept.slice(0, at + 1).map(({ author, text }) => ({ author, text }));
}

/** The values of a paused form, by variable name: a claims picker's ticks as numbers, a checkbox as a boolean. */
function formValues(form: FormData, run: RunWithEvents): ContinueBody["values"] {
  const paused = [...run.events].reverse().find((e) => e.type === "content" && e.data.message.type === "form");
  const variables = paused?.type === "content" ? (paused.data.message.variables ?? []) : [];
  const values: Record<string, string | boolean | number[] | null> = {};
  for (const v of variables.slice(0, RUN_LIMITS.variables)) {
    const field = `var:${v.name}`;
    if (v.type === "boolean") values[v.name] = form.get(field) === "on";
    else if (v.type === "claims") {
      const chosen = form.getAll(field).map(Number).filter((n) => Number.isInteger(n) && n > 0).sort((a, b) => a - b);
      values[v.name] = v.singleClaimMode ? chosen.slice(0, 1) : [...new Set(chosen)];
    } else values[v.name] = textOf(form, field).slice(0, RUN_LIMITS.variableChars);
  }
  return values;
}

/** Stop and Continue on the run's page (its starter only: the upstream answers 404 to anyone else). */
export async function runPageAction(args: ActionFunctionArgs) {
  const { api } = await requireRoute(args);
  const chainId = args.params.id ?? "";
  const run = await runOf(api, chainId, args.params.run ?? "");
  const form = await readForm(args.request);
  const here = runUrl(chainId, run.id);
  const flash = toasts(args.context);
  try {
    if (textOf(form, "intent") === "stop") await runs.stop(api, run.id);
    else if (textOf(form, "intent") === "continue") await runs.continue(api, run.id, formValues(form, run));
  } catch (error) {
    if (error instanceof Response) throw error;
    return flash.redirectWithError(here, { message: RUNS.actionFailed, description: reasonOf(error) });
  }
  return redirect(here);
}
