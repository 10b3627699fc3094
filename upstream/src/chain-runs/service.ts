/**
 * The runs of the upstream (docs/decisions/chain-runs.md): the store, the registry of runs going, the runner, and
 * what starting a chain or a chat run checks first (a link to run, the run bounds, the organizations whose models the
 * run may use).
 */
import { ChatBody, RUN_LIMITS, RUN_MESSAGES, RUN_RETENTION, StreamBody, isRunOver, type ConversationItem, type Run, type RunLimits, type RunRetention } from "../../contract/chain-runs";
import type { AiAdmin } from "../ai-admin/service";
import type { ChainCorpus } from "../chain-query/corpus";
import type { QuerySandbox } from "../chain-query/sandbox";
import type { Converters } from "../converters";
import type { Db } from "../db";
import { HttpError, badRequest, notFound, type Actor } from "../lib/http";
import { RunRegistry, type LiveRun } from "./engine";
import { Runner, type Scope } from "./runner";
import { RunsStore } from "./store";

export type ChainRunsOptions = {
  db: Db;
  now: () => number;
  ai: AiAdmin;
  query: () => { sandbox: QuerySandbox; corpus: ChainCorpus };
  log: (message: string) => void;
  limits?: RunLimits;
  retention?: RunRetention;
  /** The converters' service: a content link's .docx and .vsdx files (content-files.ts). */
  converters?: () => Converters;
};

export class ChainRuns {
  readonly store: RunsStore;
  readonly registry: RunRegistry;
  readonly runner: Runner;
  private readonly organizationsOf;
  private readonly retention: RunRetention;
  private sweepTimer: NodeJS.Timeout | null = null;
  private sweeping: Promise<number> | null = null;

  constructor(private readonly o: ChainRunsOptions) {
    this.store = new RunsStore(o.db, o.now);
    this.registry = new RunRegistry(this.store, o.limits);
    this.runner = new Runner({ registry: this.registry, ai: o.ai, query: o.query, limits: o.limits, converters: o.converters, log: o.log });
    this.organizationsOf = o.db.prepare("select organizations from chains where id = ?");
    const left = this.store.failOrphans(RUN_MESSAGES.failed);
    if (left) o.log(`chain runs: ${left} run(s) left going by an earlier process marked failed`);
    this.retention = o.retention ?? RUN_RETENTION;
  }

  /** Sweeps expired runs every `sweepEveryMs` (the first sweep one interval after the start, not during it). */
  startRetention(): void {
    if (this.sweepTimer) return;
    const tick = () => void this.sweep().catch((error: unknown) => this.o.log(`chain runs: retention sweep: ${String(error)}`));
    this.sweepTimer = setInterval(tick, this.retention.sweepEveryMs);
    this.sweepTimer.unref();
  }

  /**
   * Deletes the runs that ended more than `keepMs` ago with their events, a bounded step per transaction with the event
   * loop free between steps, at most `stepsPerSweep` steps; answers the steps taken. One sweep at a time.
   */
  sweep(): Promise<number> {
    this.sweeping ??= (async () => {
      const { keepMs, eventsPerStep, stepsPerSweep } = this.retention;
      let steps = 0;
      while (steps < stepsPerSweep && this.store.expireStep(keepMs, eventsPerStep)) {
        steps++;
        await new Promise((resolve) => setImmediate(resolve));
      }
      return steps;
    })().finally(() => (this.sweeping = null));
    return this.sweeping;
  }

  /** A saved chain's organizations (a body cannot widen them); an unsaved chain's are the body's. */
  private organizations(item: { id?: string; organizations: string[] }): string[] {
    if (!item.id) return item.organizations;
    const row = this.organizationsOf.get(item.id) as { organizations: string } | undefined;
    if (!row) throw new HttpError(404, "Chain not found.");
    return JSON.parse(row.organizations) as string[];
  }

  private go(work: Promise<void>): void {
    work.catch((error: unknown) => this.o.log(`chain runs: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`));
  }

  startChain(actor: Actor, raw: StreamBody | ReturnType<typeof StreamBody.parse>): LiveRun {
    const body = StreamBody.parse(raw);
    const links = body.template.chain;
    if (!links.length) throw badRequest(RUN_MESSAGES.noLinks);
    if (body.index !== undefined && body.index >= links.length) throw badRequest(RUN_MESSAGES.badIndex);
    const scope: Scope = { context: body.context, variables: { ...body.variables }, organizations: this.organizations(body.item) };
    const run = this.registry.open(actor, "chain", body.item.id ?? null);
    const indexes = body.index !== undefined ? [body.index] : links.map((_, i) => i);
    // A whole-chain run goes on into the chain's chat; one link's run does not.
    const chat = body.index === undefined ? body.template.chat : null;
    this.go(this.runner.chain(run, body.template, indexes, scope, body.item.id ?? null, chat));
    return run;
  }

  startChat(actor: Actor, raw: ChatBody | ReturnType<typeof ChatBody.parse>): LiveRun {
    const body = ChatBody.parse(raw);
    if (body.runId) return this.followUp(actor, body, body.runId);
    if (!body.chat) throw badRequest(RUN_MESSAGES.noChat);
    const scope: Scope = { context: body.context, variables: { ...body.variables }, organizations: this.organizations(body.item) };
    const run = this.registry.open(actor, "chat", body.item.id ?? null);
    this.go(this.runner.chat(run, body.chat, body.history, body.message, scope, body.item.id ?? null));
    return run;
  }

  /**
   * A message after chain run `parentId`'s chat (the caller's own, over, its links all finished): the chat as that run
   * had it, its scope (the body's variables over the run's), the conversation so far as the history; the models those
   * of the chain as it is now (an organization may have lost a model since).
   */
  private followUp(actor: Actor, body: ReturnType<typeof ChatBody.parse>, parentId: string): LiveRun {
    const parent = this.store.get(parentId);
    if (!parent || parent.startedBy !== actor.id || parent.kind !== "chain" || (body.item.id && parent.chainId !== body.item.id)) throw notFound(RUN_MESSAGES.notFound);
    if (!isRunOver(parent.status)) throw new HttpError(409, RUN_MESSAGES.notOver);
    const kept = this.store.scopeOf(parent.id);
    if (!kept) throw badRequest(RUN_MESSAGES.noChat);
    const organizations = parent.chainId ? this.organizations({ id: parent.chainId, organizations: [] }) : kept.organizations;
    const history = this.conversation(parent).slice(-RUN_LIMITS.history);
    const scope: Scope = { context: kept.context, variables: { ...kept.variables, ...body.variables }, organizations };
    const run = this.registry.open(actor, "chat", parent.chainId, parent.id);
    this.go(this.runner.chat(run, kept.chat, history, body.message, scope, parent.chainId));
    return run;
  }

  /**
   * What a run's page shows of its chat's conversation: a chain run's whole conversation; a follow-up's, up to its own
   * message (the rest came after it); none for other runs.
   */
  conversation(run: Run): ConversationItem[] {
    const of = (id: string) => this.store.conversation(id, RUN_LIMITS.history, RUN_LIMITS.chatMessageChars);
    if (run.kind === "chain") return run.chat ? of(run.id) : [];
    if (!run.parentId) return [];
    const all = of(run.parentId);
    const own = all.findIndex((m) => m.runId === run.id && m.author === "CURRENT_USER");
    return own < 0 ? [] : all.slice(0, own + 1);
  }

  close(): void {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = null;
    this.registry.closeAll(RUN_MESSAGES.failed);
  }
}
