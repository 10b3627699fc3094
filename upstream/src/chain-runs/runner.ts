/**
 * What a run does, link by link (spec 3 §4.3): prompt (Handlebars-rendered messages to the model, streamed, retried on
 * 429/5xx), query (the sandbox), template (Handlebars with the product's helpers), form (a pause for the user's values),
 * content (mermaid rendered, files read, AI images generated: content-ai.ts); and a chat. Each link's output is
 * the session variable TYPE_n_OUTPUT (`outputVariable`). Every wait carries the run's signal, so Stop ends it at once.
 */
import { outputVariable } from "../../contract/chains-constants";
import type { ChainChat, ChainImage, ChainLink, ChainTemplate } from "../../contract/chains";
import { RUN_LIMITS, RUN_MESSAGES, isUserAuthor, type RunContext, type RunLimits, type Usage } from "../../contract/chain-runs";
import type { ChatMessage, ChatPart, ChatRequest } from "../../contract/llm";
import { TEMPLATE_LIMITS } from "../../contract/templating";
import type { AiAdmin } from "../ai-admin/service";
import { NotConfigured } from "../ai-admin/service";
import type { ChainCorpus } from "../chain-query/corpus";
import { QueryRefused, type QueryParams, type QuerySandbox } from "../chain-query/sandbox";
import { OpenAiCompatible, ProviderError } from "../llm/provider";
import { TemplateError, renderTemplates } from "../lib/templating";
import { aiContent } from "./content-ai";
import { contentFiles, type ContentFileDeps } from "./content-files";
import { RunFailure, type LiveRun, type RunRegistry } from "./engine";
import { resolveVariables } from "./resolve";
import { retried } from "./retry";
import { substitute } from "./substitute";

export type RunnerDeps = ContentFileDeps & {
  registry: RunRegistry;
  ai: AiAdmin;
  /** The query links' sandbox and the corpus it reads (synced before a query). */
  query: () => { sandbox: QuerySandbox; corpus: ChainCorpus };
  limits?: RunLimits;
};

/** What a run reads: the context, the variables (the outputs added as links finish), the organizations' models. */
export type Scope = { context: RunContext; variables: Record<string, unknown>; organizations: readonly string[] };

/** The values a template sees: the context's fields, `context` itself, then the variables and outputs. */
const templateValues = (scope: Scope) => ({ ...scope.context, context: scope.context, ...scope.variables });

/** Handlebars with the product's helpers: plain references in place (substitute.ts), the rest on the bounded renderer. */
async function render(templates: readonly string[], scope: Scope): Promise<string[]> {
  if (!templates.length) return [];
  const values = templateValues(scope);
  const plain = templates.map((template) => substitute(template, values, TEMPLATE_LIMITS.outputChars));
  if (plain.every((text) => text !== null)) return plain as string[];
  try {
    return await renderTemplates(templates.map((template) => ({ template, context: values })));
  } catch (error) {
    if (error instanceof TemplateError) throw new RunFailure(error.message);
    throw error;
  }
}

/** Adapters by their config: one SDK client (and its connections to the provider) per model, not per run. */
const adapters = new Map<string, OpenAiCompatible>();
const ADAPTERS_KEPT = 100;

/** The adapter of `modelId` (or the organizations' default chat model), with retries left to the run. */
function modelOf(ai: AiAdmin, organizations: readonly string[], modelId: string | null, vision: boolean): OpenAiCompatible {
  for (const organization of organizations) {
    try {
      const config = { ...ai.modelFor(organization, modelId, { vision }).config, maxRetries: 0 };
      const key = JSON.stringify(config);
      let adapter = adapters.get(key);
      if (!adapter) {
        if (adapters.size >= ADAPTERS_KEPT) adapters.delete(adapters.keys().next().value!);
        adapter = new OpenAiCompatible(config);
        adapters.set(key, adapter);
      }
      return adapter;
    } catch (error) {
      if (!(error instanceof NotConfigured)) throw error;
    }
  }
  throw new RunFailure(new NotConfigured().message);
}

/** An image as a vision model reads it: a data URL of its bytes. */
const imagePart = (type: string, base64: string): ChatPart => ({
  type: "image_url",
  image_url: { url: `data:image/${type === "jpg" ? "jpeg" : type};base64,${base64}` },
});

/** Image parts from the variables a message attaches: data URLs, base64 texts or `{ base64, type }` items. */
function imageParts(names: readonly string[], variables: Record<string, unknown>): ChatPart[] {
  const parts: ChatPart[] = [];
  for (const name of names) {
    const value = variables[name];
    for (const item of Array.isArray(value) ? value : [value]) {
      if (typeof item === "string" && item) {
        parts.push(item.startsWith("data:") ? { type: "image_url", image_url: { url: item } } : imagePart("png", item));
      } else if (item && typeof item === "object" && typeof (item as { base64?: unknown }).base64 === "string") {
        const { base64, type } = item as { base64: string; type?: string };
        parts.push(imagePart(type ?? "png", base64));
      }
    }
  }
  return parts;
}

/** Image parts from the images uploaded onto a message in the editor (their bytes are kept on the link itself). */
const uploadedParts = (files: readonly ChainImage[]): ChatPart[] =>
  files.map((f) => imagePart(f.type, f.base64.replace(/\s+/g, "")));

export class Runner {
  private readonly limits: RunLimits;

  constructor(private readonly deps: RunnerDeps) {
    this.limits = deps.limits ?? RUN_LIMITS;
  }

  /**
   * Streams one chat request to the model: each text chunk a `stream` event, tool calls `tool` events; a 429 or 5xx
   * before any text is a `retry` event and a wait (doubling, or the provider's Retry-After), up to `retries` times.
   * A stream cut mid-way is 'Partial event stream received'.
   */
  private async stream(run: LiveRun, link: number | null, model: OpenAiCompatible, request: ChatRequest): Promise<{ text: string; usage: Usage | null }> {
    const { registry } = this.deps;
    for (let attempt = 1; ; attempt++) {
      let text = "";
      let usage: Usage | null = null;
      const tools: { name: string; arguments: string }[] = [];
      try {
        for await (const e of model.chat(request, { signal: run.signal })) {
          if (e.type === "text") {
            text += e.text;
            if (text.length > this.limits.outputChars) throw new RunFailure(RUN_MESSAGES.outputTooLong(this.limits.outputChars));
            registry.emit(run, "stream", { link, content: e.text });
          } else if (e.type === "tool-call") {
            const t = (tools[e.index] ??= { name: "", arguments: "" });
            if (e.name) t.name += e.name;
            t.arguments += e.arguments;
          } else if (e.type === "usage") usage = { promptTokens: e.promptTokens, completionTokens: e.completionTokens };
        }
        for (const t of tools.filter(Boolean)) registry.emit(run, "tool", { link, name: t.name, arguments: t.arguments });
        if (usage) registry.addUsage(run, usage);
        return { text, usage };
      } catch (error) {
        if (run.signal.aborted) throw new RunFailure(RUN_MESSAGES.cancelled, "cancelled");
        if (!(error instanceof ProviderError)) throw error;
        // Only before any text: a retry after a partial answer would stream it twice.
        if (text === "" && (await retried(registry, run, link, error, attempt, this.limits))) continue;
        throw new RunFailure(error.failure === "cut" ? RUN_MESSAGES.partialStream : error.message);
      }
    }
  }

  /**
   * The links `indexes` of `template` in order; the chain's insert option applied to the context's output (the last
   * link's, not the chat's: the chat is a conversation beside the result). With `chat` (a whole-chain run of a chain
   * that has one) the run then goes on into it: its scope kept for the messages sent after the run, and its own
   * messages, rendered with every output, sent to its model — unless it has none, when it waits for the user's first.
   */
  async chain(run: LiveRun, template: ChainTemplate, indexes: readonly number[], scope: Scope, chainId: string | null, chat: ChainChat | null = null): Promise<void> {
    const { registry } = this.deps;
    let current: number | null = null;
    try {
      registry.emit(run, "chain-start", { runId: run.id, chainId, links: template.chain.length, index: indexes.length === 1 ? indexes[0]! : null, chat: chat !== null });
      let last = "";
      for (const index of indexes) {
        current = index;
        const link = template.chain[index]!;
        const started = performance.now();
        const before = run.usage;
        const output = await this.link(run, link, index, scope);
        const text = typeof output === "string" ? output : JSON.stringify(output);
        registry.addOutput(run, text.length);
        const variable = outputVariable(link.name);
        scope.variables[variable] = output;
        last = text;
        const usage = { promptTokens: run.usage.promptTokens - before.promptTokens, completionTokens: run.usage.completionTokens - before.completionTokens };
        registry.emit(run, "link-finish", {
          link: index,
          variable,
          output: text,
          usage: link.type === "prompt" ? usage : null,
          ms: Math.round(performance.now() - started),
        });
      }
      current = null;
      if (chat) {
        registry.keepScope(run, { chat, context: scope.context, variables: scope.variables, organizations: [...scope.organizations] });
        if (chat.messages.length) {
          const output = await this.converse(run, chat, [], null, scope, chainId);
          registry.emit(run, "chat-end", { status: "finished", usage: registry.chatUsage(run), output });
          run.chatFrom = null;
        }
      }
      registry.end(run, "finished", { output: insertOutput(scope.context.output ?? {}, template.options, last) });
    } catch (error) {
      this.fail(run, error, current);
    }
  }

  /** A chat run: the chat's messages rendered, the history (when included), the new message. */
  async chat(run: LiveRun, chat: ChainChat, history: readonly { author: string; text: string }[], message: string, scope: Scope, chainId: string | null): Promise<void> {
    try {
      this.deps.registry.end(run, "finished", { output: await this.converse(run, chat, history, message, scope, chainId) });
    } catch (error) {
      this.fail(run, error, null);
    }
  }

  /**
   * One turn of a chat: `chat-start` (with the messages rendered and the user's message, if any), the chat's messages
   * rendered with the run's scope, the history when the chat includes it, the message; streamed, retried and stopped
   * as a prompt link is. Answers the answer (the spec's text for an empty one).
   */
  private async converse(run: LiveRun, chat: ChainChat, history: readonly { author: string; text: string }[], message: string | null, scope: Scope, chainId: string | null): Promise<string> {
    const { registry } = this.deps;
    run.chatFrom = run.usage;
    // The turn is in the log (with the user's message, which the conversation reads back) even when rendering fails.
    const rendered = await render(chat.messages.map((m) => m.content), scope).then(
      (texts) => ({ texts, error: null }),
      (error: unknown) => ({ texts: null, error }),
    );
    const sent = rendered.texts?.map((content, i) => ({ role: chat.messages[i]!.role, content })) ?? null;
    registry.emit(run, "chat-start", {
      runId: run.id,
      chainId,
      name: chat.name,
      input: { model: chat.model, temperature: chat.temperature, max_tokens: chat.max_tokens, messages: sent },
      ...(message === null ? {} : { message }),
    });
    if (!sent) throw rendered.error;
    const messages: ChatMessage[] = [
      ...sent,
      ...(chat.includeHistory ? history.map((h) => ({ role: isUserAuthor(h.author) ? ("user" as const) : ("assistant" as const), content: h.text })) : []),
      ...(message === null ? [] : [{ role: "user" as const, content: message }]),
    ];
    const model = modelOf(this.deps.ai, scope.organizations, chat.model, false);
    const { text } = await this.stream(run, null, model, { messages, temperature: chat.temperature, maxTokens: chat.max_tokens });
    registry.addOutput(run, text.length);
    return text || RUN_MESSAGES.empty;
  }

  private fail(run: LiveRun, error: unknown, link: number | null): void {
    const { registry } = this.deps;
    if (error instanceof RunFailure) registry.end(run, error.status, { message: error.message, link });
    else if (run.signal.aborted) registry.end(run, "cancelled", { message: RUN_MESSAGES.cancelled, link });
    else {
      // An error of ours, not the user's: the run says the spec's generic text; the log keeps the rest.
      registry.end(run, "failed", { message: RUN_MESSAGES.failed, link });
      throw error;
    }
  }

  private async link(run: LiveRun, link: ChainLink, index: number, scope: Scope): Promise<unknown> {
    const { registry } = this.deps;
    switch (link.type) {
      case "prompt": {
        const rendered = await render(link.messages.map((m) => m.content), scope);
        const messages: ChatMessage[] = link.messages.map((m, i) => {
          const images = m.role === "user" ? [...imageParts([...(m.supplementals?.images ?? [])], scope.variables), ...uploadedParts(m.supplementals?.files ?? [])] : [];
          return images.length ? { role: "user", content: [{ type: "text", text: rendered[i]! }, ...images] } : { role: m.role, content: rendered[i]! };
        });
        const attached = imageParts(link.attachments, scope.variables);
        if (attached.length) messages.push({ role: "user", content: attached });
        registry.emit(run, "link-start", { link: index, name: link.name, type: link.type, input: { model: link.model, temperature: link.temperature, max_tokens: link.max_tokens, messages: rendered.map((content, i) => ({ role: link.messages[i]!.role, content })) } });
        const vision = messages.some((m) => Array.isArray(m.content));
        const model = modelOf(this.deps.ai, scope.organizations, link.model, vision);
        const { text } = await this.stream(run, index, model, { messages, temperature: link.temperature, maxTokens: link.max_tokens });
        if (text === "") {
          registry.emit(run, "stream", { link: index, content: RUN_MESSAGES.empty });
          return RUN_MESSAGES.empty;
        }
        return text;
      }
      case "query": {
        const params: QueryParams = { references: JSON.stringify(scope.context.invention?.references ?? []) };
        for (const [name, value] of Object.entries(scope.variables)) {
          params[name] = value === null || typeof value === "string" || typeof value === "number" ? value : JSON.stringify(value);
        }
        registry.emit(run, "link-start", { link: index, name: link.name, type: link.type, input: { query: link.query } });
        const { sandbox, corpus } = this.deps.query();
        try {
          await corpus.sync();
          const result = await sandbox.run(link.query, params);
          return result.rows.map((row) => Object.fromEntries(result.columns.map((c, i) => [c, row[i]])));
        } catch (error) {
          if (error instanceof QueryRefused) throw new RunFailure(error.message);
          throw error;
        }
      }
      case "template": {
        registry.emit(run, "link-start", { link: index, name: link.name, type: link.type, input: { template: link.template } });
        const [text] = await render([link.template], scope);
        if (!link.renderOnly) registry.emit(run, "content", { link: index, message: { type: "message", author: link.name, text: text! } });
        return text!;
      }
      case "form": {
        registry.emit(run, "link-start", { link: index, name: link.name, type: link.type, input: { variables: link.variables.map((v) => v.name) } });
        const variables = resolveVariables(link.variables, scope.context, scope.variables);
        registry.emit(run, "content", { link: index, message: { type: "form", author: link.name, text: link.name, variables } });
        const values = await registry.waiting(run, index);
        const answered: Record<string, unknown> = {};
        for (const v of variables) {
          answered[v.name] = Object.prototype.hasOwnProperty.call(values, v.name) ? values[v.name] : v.value;
          scope.variables[v.name] = answered[v.name];
        }
        return answered;
      }
      case "content": {
        if (link.source.type === "ai") return aiContent(this.deps, this.limits, run, index, link.name, link.source.value, scope, render);
        registry.emit(run, "link-start", { link: index, name: link.name, type: link.type, input: { source: link.source.type } });
        if (link.source.type === "mermaid") {
          const [text] = await render([link.source.value], scope);
          registry.emit(run, "content", { link: index, message: { type: "message", author: link.name, text: text! } });
          return text!;
        }
        const { text, images } = await contentFiles(link.source.value, { ...this.deps, signal: run.signal });
        registry.emit(run, "content", { link: index, message: { type: "message", author: link.name, text, files: images } });
        return images.length ? { text, images } : text;
      }
    }
  }
}

/** Spec 3 §2.9 options: the result inserted into the chosen section at its start, its end, or in its place. */
export function insertOutput(sections: Record<string, string>, options: ChainTemplate["options"], result: string): Record<string, string> {
  if (!options.insertIn || !options.insertAt) return { ...sections };
  const existing = sections[options.insertIn] ?? "";
  const joined =
    options.insertAt === "Replace" || !existing
      ? result
      : options.insertAt === "Start"
        ? `${result}\n\n${existing}`
        : `${existing}\n\n${result}`;
  return { ...sections, [options.insertIn]: joined };
}
