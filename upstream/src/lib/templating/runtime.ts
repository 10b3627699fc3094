import type HandlebarsNamespace from "handlebars";
import type { TemplateLimits } from "../../../contract/templating";
import type { HelperFn } from "./helpers";

/** One template and the value it is rendered against. */
export type RenderItem = { template: string; context: unknown };

/** Why a render stopped: a bound (named by the caller's message), or Handlebars' own error. */
export type RenderFailure = { kind: "iterations" | "output" | "time" } | { kind: "template"; message: string };

/** A job's answer: every item's text, or the first failure and the item it happened in. */
export type RenderResult = { texts: string[] } | { failure: RenderFailure; index: number };

/**
 * A Handlebars environment with `helpers` whose renders are bounded (`TemplateLimits`, counted over a whole job):
 *
 * - iterations: every block body a helper runs (`#each` items, `#with`, `#if`, custom block helpers, a block over a
 *   list through blockHelperMissing) and every partial call is one; nested loops multiply, and the count stops them
 *   at the bound rather than after minutes.
 * - output: each block's output is part of the final text, so a loop is stopped once its own output passes the
 *   bound (before the whole text is built); the final text is checked too.
 * - time: checked at every iteration; the pool also terminates a worker that overruns (pool.ts), for work between
 *   two iterations (a helper over a long text).
 *
 * Self-contained like `productHelpers` (the worker runs its source text): only its parameters and globals are used.
 */
export function createBoundedRenderer(
  Handlebars: typeof HandlebarsNamespace,
  helpers: Record<string, HelperFn>,
): (items: readonly RenderItem[], limits: TemplateLimits) => RenderResult {
  const hb = Handlebars.create();
  for (const [name, fn] of Object.entries(helpers)) hb.registerHelper(name, fn as HandlebarsNamespace.HelperDelegate);

  class Stop extends Error {
    constructor(readonly kind: "iterations" | "output" | "time") {
      super(kind);
    }
  }
  /** The job being rendered (null between jobs: a wrapper called then counts nothing). */
  let job: { iterations: number; limits: TemplateLimits; deadline: number } | null = null;
  const tick = () => {
    if (!job) return;
    if (++job.iterations > job.limits.iterations) throw new Stop("iterations");
    if (performance.now() > job.deadline) throw new Stop("time");
  };

  type Program = ((...args: unknown[]) => string) & Record<string, unknown>;
  const counted = new WeakSet<object>();
  /** A block body that counts each run and stops once its runs' output (all part of the final text) is too long. */
  const count = (fn: Program): Program => {
    if (counted.has(fn)) return fn;
    let produced = 0;
    const wrapped = function (this: unknown, ...args: unknown[]) {
      tick();
      const out = fn.apply(this, args);
      produced += typeof out === "string" ? out.length : 0;
      if (job && produced > job.limits.outputChars) throw new Stop("output");
      return out;
    } as Program;
    // Handlebars reads the program's own fields (program, depth, blockParams).
    Object.assign(wrapped, fn);
    counted.add(wrapped);
    return wrapped;
  };
  // Every helper, the built-in ones included: any of them may be called as a block.
  for (const [name, helper] of Object.entries(hb.helpers)) {
    hb.registerHelper(name, function (this: unknown, ...args: unknown[]) {
      const options = args[args.length - 1] as { fn?: Program; inverse?: Program } | undefined;
      if (options && typeof options === "object") {
        if (typeof options.fn === "function") options.fn = count(options.fn);
        if (typeof options.inverse === "function") options.inverse = count(options.inverse);
      }
      return (helper as (...a: unknown[]) => unknown).apply(this, args);
    });
  }
  // Partials (inline ones included) run through the environment's VM: each call counts, so recursion is bounded.
  const vm = (hb as unknown as { VM: { invokePartial: (...args: unknown[]) => unknown } }).VM;
  const invokePartial = vm.invokePartial;
  vm.invokePartial = function (this: unknown, ...args: unknown[]) {
    tick();
    return invokePartial.apply(this, args);
  };

  return (items, limits) => {
    job = { iterations: 0, limits, deadline: performance.now() + limits.timeMs };
    const texts: string[] = [];
    let total = 0;
    try {
      for (let index = 0; index < items.length; index++) {
        const item = items[index]!;
        try {
          const text = hb.compile(item.template, { noEscape: true, strict: false })(item.context);
          total += text.length;
          if (total > limits.outputChars) throw new Stop("output");
          texts.push(text);
        } catch (error) {
          if (error instanceof Stop) return { failure: { kind: error.kind }, index };
          return { failure: { kind: "template", message: error instanceof Error ? error.message : String(error) }, index };
        }
      }
      return { texts };
    } finally {
      job = null;
    }
  };
}
