import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { TEMPLATE_LIMITS, TEMPLATE_MESSAGES, type TemplateLimits } from "../../../contract/templating";
import { productHelpers } from "./helpers";
import { createBoundedRenderer, type RenderFailure, type RenderItem, type RenderResult } from "./runtime";

/**
 * A template that does not compile, fails while rendering or passes a bound: `message` is for the caller (400), and
 * `index` the item of the job it happened in. `status` 503 when the renderer has too many jobs waiting.
 */
export class TemplateError extends Error {
  constructor(
    message: string,
    readonly index = 0,
    readonly status: 400 | 503 = 400,
  ) {
    super(message);
    this.name = "TemplateError";
  }
}

/**
 * The worker: a small CommonJS script given as text (as in search/rank-pool.ts), so that the same code runs under
 * tsx, vitest and the bundled server. Handlebars is loaded from the path this module resolves; the helpers and the
 * bounded renderer are their functions' source text (both are self-contained). tsx compiles with esbuild's keepNames,
 * which wraps named functions in a `__name` call defined at the top of each module: the stand-in keeps that source
 * runnable here.
 */
const WORKER = `
var __name = (fn) => fn;
const { parentPort, workerData } = require("node:worker_threads");
const Handlebars = require(workerData.handlebars);
const helpers = (${productHelpers.toString()})().helpers;
const render = (${createBoundedRenderer.toString()})(Handlebars, helpers);
parentPort.on("message", (job) => parentPort.postMessage(render(job.items, job.limits)));
parentPort.postMessage("ready");
`;

type Job = {
  items: readonly RenderItem[];
  limits: TemplateLimits;
  resolve: (texts: string[]) => void;
  reject: (error: Error) => void;
};
/** `ready` once the worker has loaded Handlebars: a job's deadline runs from then (a start takes ~50–100 ms). */
type Slot = { worker: Worker; job: Job | null; timer: NodeJS.Timeout | null; ready: boolean };

export type TemplateRendererOptions = {
  /** Worker threads at most (default: two, one on a single core). */
  size?: number;
  /** The bounds of a job, where they differ from TEMPLATE_LIMITS. */
  limits?: Partial<TemplateLimits>;
  /** How long past its time bound a worker may take to stop a job itself before it is terminated. */
  graceMs?: number;
  /** Jobs waiting for a worker at most; more are refused with 503. */
  maxQueue?: number;
  /** The heap of each worker: a render that needs more ends its worker, not the server. */
  maxHeapMb?: number;
};

/** The failure's message, as the API answers it. */
function failureMessage(failure: RenderFailure, limits: TemplateLimits): string {
  switch (failure.kind) {
    case "iterations":
      return TEMPLATE_MESSAGES.iterations(limits.iterations);
    case "output":
      return TEMPLATE_MESSAGES.output(limits.outputChars);
    case "time":
      return TEMPLATE_MESSAGES.time(limits.timeMs);
    case "template":
      return `${TEMPLATE_MESSAGES.prefix}${failure.message}`;
  }
}

/**
 * Renders Handlebars templates with the product's helpers on a few worker threads, never on the event loop. A job
 * (the templates of one request, against their values) is bounded as a whole by `TemplateLimits`; a worker that
 * overruns its time bound by `graceMs` is terminated and replaced, so no template can hold a thread for longer.
 */
export class TemplateRenderer {
  readonly size: number;
  readonly limits: TemplateLimits;
  private readonly graceMs: number;
  private readonly maxQueue: number;
  private readonly maxHeapMb: number;
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private closed = false;

  constructor(options: TemplateRendererOptions = {}) {
    this.size = options.size ?? Math.min(2, availableParallelism());
    this.limits = { ...TEMPLATE_LIMITS, ...options.limits };
    this.graceMs = options.graceMs ?? 1_000;
    this.maxQueue = options.maxQueue ?? 64;
    this.maxHeapMb = options.maxHeapMb ?? 256;
  }

  /** Each item's text, in order; throws `TemplateError` for the first item that fails. */
  render(items: readonly RenderItem[], limits: Partial<TemplateLimits> = {}): Promise<string[]> {
    if (this.closed) return Promise.reject(new Error("the template renderer is closed"));
    if (items.length === 0) return Promise.resolve([]);
    if (this.queue.length >= this.maxQueue) return Promise.reject(new TemplateError(TEMPLATE_MESSAGES.busy, 0, 503));
    return new Promise((resolve, reject) => {
      this.queue.push({ items, limits: { ...this.limits, ...limits }, resolve, reject });
      this.pump();
    });
  }

  /** Threads running now (for tests: a terminated worker is replaced on the next job). */
  get threadIds(): number[] {
    return this.slots.map((s) => s.worker.threadId);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error("the template renderer is closed"));
    await Promise.all(this.slots.splice(0).map((slot) => this.stop(slot)));
  }

  private pump() {
    while (this.queue.length) {
      let slot = this.slots.find((s) => !s.job);
      if (!slot && this.slots.length < this.size) slot = this.spawn();
      if (!slot) return;
      const job = this.queue.shift()!;
      slot.job = job;
      // A busy worker keeps the process alive until it answers; an idle one does not.
      slot.worker.ref();
      if (slot.ready) this.arm(slot);
      slot.worker.postMessage({ items: job.items, limits: job.limits });
    }
  }

  /** Starts the deadline of the slot's job. */
  private arm(slot: Slot) {
    const job = slot.job;
    if (job) slot.timer = setTimeout(() => this.overrun(slot), job.limits.timeMs + this.graceMs);
  }

  /** Ends the slot's job: its worker is free again, or gone (`drop`). */
  private finish(slot: Slot, drop: boolean): Job | null {
    const job = slot.job;
    slot.job = null;
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    if (drop) {
      const index = this.slots.indexOf(slot);
      if (index >= 0) this.slots.splice(index, 1);
    } else slot.worker.unref();
    return job;
  }

  /** The job ran past its time bound without stopping itself: the worker is terminated, a new one starts on demand. */
  private overrun(slot: Slot) {
    const job = this.finish(slot, true);
    void this.stop(slot);
    job?.reject(new TemplateError(TEMPLATE_MESSAGES.time(job.limits.timeMs)));
    this.pump();
  }

  private async stop(slot: Slot): Promise<void> {
    slot.worker.removeAllListeners();
    slot.worker.on("error", () => {});
    await slot.worker.terminate();
  }

  private spawn(): Slot {
    const worker = new Worker(WORKER, {
      eval: true,
      workerData: { handlebars: createRequire(import.meta.url).resolve("handlebars") },
      resourceLimits: { maxOldGenerationSizeMb: this.maxHeapMb },
    });
    worker.unref();
    const slot: Slot = { worker, job: null, timer: null, ready: false };
    worker.on("message", (result: RenderResult | "ready") => {
      if (result === "ready") {
        slot.ready = true;
        this.arm(slot);
        return;
      }
      const job = this.finish(slot, false);
      if (job) {
        if ("texts" in result) job.resolve(result.texts);
        else job.reject(new TemplateError(failureMessage(result.failure, job.limits), result.index));
      }
      this.pump();
    });
    const fail = (error: Error) => {
      const job = this.finish(slot, true);
      void this.stop(slot);
      if (job) {
        const outOfMemory = (error as NodeJS.ErrnoException).code === "ERR_WORKER_OUT_OF_MEMORY";
        job.reject(outOfMemory ? new TemplateError(TEMPLATE_MESSAGES.memory) : error);
      }
      this.pump();
    };
    worker.on("error", fail);
    worker.on("exit", (code) => {
      if (this.slots.includes(slot)) fail(new Error(`a template worker exited (code ${code})`));
    });
    this.slots.push(slot);
    return slot;
  }
}

let shared: TemplateRenderer | null = null;

/** The renderer every route uses (created on first use; its idle workers do not keep the process alive). */
function templateRenderer(): TemplateRenderer {
  shared ??= new TemplateRenderer();
  return shared;
}

/** Renders the items with the product's helpers, off the event loop and within TEMPLATE_LIMITS. */
export function renderTemplates(items: readonly RenderItem[], limits?: Partial<TemplateLimits>): Promise<string[]> {
  return templateRenderer().render(items, limits);
}

