/**
 * The runs of the upstream (docs/decisions/chain-runs.md): the store, the registry of runs going, the runner, and
 * what starting a chain or a chat run checks first (a link to run, the run bounds, the organizations whose models the
 * run may use).
 */
import { ChatBody, RUN_MESSAGES, RUN_RETENTION, StreamBody, type RunLimits, type RunRetention } from "../../contract/chain-runs";
import type { AiAdmin } from "../ai-admin/service";
import type { ChainCorpus } from "../chain-query/corpus";
import type { QuerySandbox } from "../chain-query/sandbox";
import type { Db } from "../db";
import { HttpError, badRequest, type Actor } from "../lib/http";
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
    this.runner = new Runner({ registry: this.registry, ai: o.ai, query: o.query, limits: o.limits });
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
    this.go(this.runner.chain(run, body.template, indexes, scope, body.item.id ?? null));
    return run;
  }

  startChat(actor: Actor, raw: ChatBody | ReturnType<typeof ChatBody.parse>): LiveRun {
    const body = ChatBody.parse(raw);
    const scope: Scope = { context: body.context, variables: { ...body.variables }, organizations: this.organizations(body.item) };
    const run = this.registry.open(actor, "chat", body.item.id ?? null);
    this.go(this.runner.chat(run, body.chat, body.history, body.message, scope, body.item.id ?? null));
    return run;
  }

  close(): void {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = null;
    this.registry.closeAll(RUN_MESSAGES.failed);
  }
}
