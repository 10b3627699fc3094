import { afterEach, describe, expect, test } from "vitest";
import { TEMPLATE_LIMITS, TEMPLATE_MESSAGES } from "@contract/templating";
import { TemplateError, TemplateRenderer, type TemplateRendererOptions } from "../../upstream/src/lib/templating";
import { patentDocx } from "../fixtures/docx";
import { watchEventLoop } from "../helpers/event-loop";
import { harness, message, type Harness } from "./helpers";

/**
 * The one Handlebars runtime (upstream/src/lib/templating): renders run on worker threads, bounded in iterations
 * (over the whole job, nested loops multiplying), output and time; a worker that overruns is terminated and
 * replaced. Every route rendering Handlebars goes through it, so a pathological template neither stalls the server
 * nor runs for minutes.
 */

const renderers: TemplateRenderer[] = [];
afterEach(async () => {
  await Promise.all(renderers.splice(0).map((r) => r.close()));
});
function renderer(options: TemplateRendererOptions = {}): TemplateRenderer {
  const r = new TemplateRenderer(options);
  renderers.push(r);
  return r;
}
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error as TemplateError,
  );

/** `depth` loops nested over the same list (`@root.<list>`), with `body` innermost. */
/** The bounds a runaway template meets first: iterations, or time on a machine loaded enough to run them slowly. */
const RUNAWAY = [TEMPLATE_MESSAGES.iterations(TEMPLATE_LIMITS.iterations), TEMPLATE_MESSAGES.time(TEMPLATE_LIMITS.timeMs)];

const nested = (list: string, depth: number, body = "x") =>
  `${`{{#each @root.${list}}}`.repeat(depth)}${body}${"{{/each}}".repeat(depth)}`;

/**
 * Runs `request` while the event loop is watched and a second, cheap request is timed: the server must stay
 * responsive whatever the template does.
 */
async function whileProbing(h: Harness, request: () => Promise<Response>) {
  let probe = 0;
  const watched = await watchEventLoop(async () => {
    const pending = request();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const started = performance.now();
    const answer = await h.call("GET", "/api/messages", { token: h.adminToken });
    probe = performance.now() - started;
    expect(answer.status).toBe(200);
    return pending;
  });
  return { res: watched.result, longest: watched.longest, probe };
}

describe("routes render through the bounded runtime", () => {
  test("generate: five loops nested over the paragraphs are a 400 naming the iteration bound; the loop stays free", async () => {
    const h = await harness();
    const document = { name: "widget.docx", content: (await patentDocx()).toString("base64") };
    const started = performance.now();
    const { res, longest, probe } = await whileProbing(h, () =>
      h.call("POST", "/api/nlp/api/v1/generator/generate", {
        token: h.adminToken,
        body: { templates: [{ name: "t", body: nested("paragraphs", 5) }], document },
      }),
    );
    const ms = performance.now() - started;
    console.log(`generate, 5 nested loops: ${res.status} in ${ms.toFixed(0)} ms, loop blocked ${longest.toFixed(0)} ms, probe ${probe.toFixed(0)} ms`);
    expect(res.status).toBe(400);
    expect(RUNAWAY).toContain(await message(res));
    expect(longest).toBeLessThan(1000);
    expect(probe).toBeLessThan(1000);
  });

  test("messages preview: nine loops nested over the matter are a 400 naming the field and the bound; the loop stays free", async () => {
    const h = await harness();
    const started = performance.now();
    const { res, longest, probe } = await whileProbing(h, () =>
      h.call("POST", "/api/messages/preview", { token: h.adminToken, body: { subject: "Hi", body: nested("matter", 9) } }),
    );
    const ms = performance.now() - started;
    console.log(`preview, 9 nested loops: ${res.status} in ${ms.toFixed(0)} ms, loop blocked ${longest.toFixed(0)} ms, probe ${probe.toFixed(0)} ms`);
    expect(res.status).toBe(400);
    expect(RUNAWAY.map((m) => `Body: ${m}`)).toContain(await message(res));
    expect(longest).toBeLessThan(1000);
    expect(probe).toBeLessThan(1000);
  });

  test("preview: a subject past the bound is named as the subject", async () => {
    const h = await harness();
    const res = await h.call("POST", "/api/messages/preview", { token: h.adminToken, body: { subject: nested("matter", 9), body: "ok" } });
    expect(RUNAWAY.map((m) => `Subject: ${m}`)).toContain(await message(res));
  });
});

describe("TemplateRenderer", () => {
  const list = (n: number) => Array.from({ length: n }, (_, i) => i);

  test("iterations are counted over the whole job: nested loops multiply, blocks over lists, #with and partials count", async () => {
    const r = renderer({ limits: { iterations: 100 } });
    const two = "{{#each a}}{{#each ../a}}.{{/each}}{{/each}}";
    // 9 + 81 = 90 runs of a block body.
    expect(await r.render([{ template: two, context: { a: list(9) } }])).toEqual([".".repeat(81)]);
    const tooMany = await failure(r.render([{ template: two, context: { a: list(10) } }]));
    expect(tooMany).toBeInstanceOf(TemplateError);
    expect(tooMany?.message).toBe(TEMPLATE_MESSAGES.iterations(100));
    // A block over a list (blockHelperMissing) is an #each.
    expect((await failure(r.render([{ template: "{{#a}}{{#../a}}.{{/../a}}{{/a}}", context: { a: list(10) } }])))?.message).toBe(
      TEMPLATE_MESSAGES.iterations(100),
    );
    // #with and partials count; the bound is over the job, not each template.
    const withs = `{{#with a}}{{/with}}`.repeat(60);
    expect((await failure(r.render([{ template: withs, context: { a: 1 } }, { template: withs, context: { a: 1 } }])))?.index).toBe(1);
    const partials = `{{#*inline "p"}}.{{/inline}}${"{{> p}}".repeat(101)}`;
    expect((await failure(r.render([{ template: partials, context: {} }])))?.message).toBe(TEMPLATE_MESSAGES.iterations(100));
  });

  test("output: a loop stops once its own output passes the bound; the final text is checked too", async () => {
    const r = renderer({ limits: { outputChars: 1_000 } });
    const big = "y".repeat(600);
    expect((await failure(r.render([{ template: "{{#each a}}{{../big}}{{/each}}", context: { a: list(1_000_000), big } }])))?.message).toBe(
      TEMPLATE_MESSAGES.output(1_000),
    );
    expect((await failure(r.render([{ template: "{{big}}{{big}}", context: { big } }])))?.message).toBe(TEMPLATE_MESSAGES.output(1_000));
    expect(await r.render([{ template: "{{big}}", context: { big } }])).toEqual([big]);
  });

  test("time: partials calling each other 2^30 times stop at the time bound", async () => {
    const r = renderer({ limits: { timeMs: 200, iterations: Number.MAX_SAFE_INTEGER } });
    let template = `{{#*inline "p0"}}{{/inline}}`;
    for (let i = 1; i <= 30; i++) template += `{{#*inline "p${i}"}}{{> p${i - 1}}}{{> p${i - 1}}}{{/inline}}`;
    const started = performance.now();
    const error = await failure(r.render([{ template: `${template}{{> p30}}`, context: {} }]));
    expect(error?.message).toBe(TEMPLATE_MESSAGES.time(200));
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  test("a worker that overruns between two checks is terminated and replaced; the next job runs", async () => {
    const r = renderer({ size: 1, limits: { timeMs: 20 }, graceMs: 50 });
    expect(await r.render([{ template: "{{upper x}}", context: { x: "warm" } }])).toEqual(["WARM"]);
    const before = r.threadIds;
    // One helper call over a long text: no iteration in it, so only the pool's deadline can stop it.
    const words = "of a widget ".repeat(400_000);
    const { result: error, longest } = await watchEventLoop(() => failure(r.render([{ template: "{{titleCase x}}", context: { x: words } }])));
    expect(error?.message).toBe(TEMPLATE_MESSAGES.time(20));
    expect(longest).toBeLessThan(1000);
    expect(await r.render([{ template: "{{lower x}}", context: { x: "AGAIN" } }])).toEqual(["again"]);
    expect(r.threadIds).toHaveLength(1);
    expect(r.threadIds).not.toEqual(before);
  });

  test("Handlebars' own errors are template errors; a partial calling itself is one too", async () => {
    const r = renderer();
    expect((await failure(r.render([{ template: "{{#if}}", context: {} }])))?.message).toMatch(/^Template error: /);
    expect((await failure(r.render([{ template: '{{#*inline "p"}}{{> p}}{{/inline}}{{> p}}', context: {} }])))?.message).toMatch(
      /^Template error: /,
    );
  });

  test("too many jobs waiting: 503 with a clear message", async () => {
    const r = renderer({ size: 1, maxQueue: 1, limits: { timeMs: 300, iterations: Number.MAX_SAFE_INTEGER } });
    const slow = { template: nested("a", 12), context: { a: list(10) } };
    const first = failure(r.render([slow]));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = failure(r.render([slow]));
    const third = await failure(r.render([slow]));
    expect(third).toMatchObject({ status: 503, message: TEMPLATE_MESSAGES.busy });
    expect((await first)?.message).toBe(TEMPLATE_MESSAGES.time(300));
    expect((await second)?.message).toBe(TEMPLATE_MESSAGES.time(300));
  });
});
