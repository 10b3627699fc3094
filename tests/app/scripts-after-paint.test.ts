import { describe, expect, it } from "vitest";
import { bootstrap, scriptsAfterPaint } from "~/lib/scripts-after-paint.server";
import { appAsAdmin, pageScripts } from "../helpers/app";

/**
 * Scripts after the first paint, so that content is painted sooner. The module preloads and the hydrating module
 * script leave the HTML; a classic script adds the same ones back after the first frame.
 */
const LINKS = `<link rel="modulepreload" href="/build/entry.client-A.js"/><link rel="modulepreload" href="/build/root-B.js"/>`;
const CONTEXT = `<script nonce="N1">window.__remixContext = {};</script>`;
const page = (tail: string) => `<!DOCTYPE html><html><head></head><body><main>rows</main><script nonce="N1">scroll()</script>${tail}</body></html>`;
const MODULE = `<script nonce="N1" type="module" async="">import * as route0 from "/build/root-B.js";\nwindow.x = "</scr" + "ipt>";\nimport("/build/entry.client-A.js");</script>`;

describe("scripts after the first paint", () => {
  it("moves the preloads and the module script behind a bootstrap that keeps the nonce", () => {
    const html = scriptsAfterPaint(page(LINKS + CONTEXT + MODULE));
    expect(html).not.toContain('<link rel="modulepreload"');
    expect(html).not.toMatch(/<script[^>]*type="module"/);
    // The context script stays where it was; the bootstrap takes the module script's place.
    expect(html).toContain(`<script nonce="N1">scroll()</script>${CONTEXT}<script nonce="N1">(function(){`);
    // Nothing inside the bootstrap can close its <script> early.
    const inline = html.slice(html.indexOf('<script nonce="N1">(function(){'));
    expect(inline.indexOf("</script>")).toBe(inline.length - "</script></body></html>".length);
    const scripts = pageScripts(html);
    expect(scripts).toEqual({
      deferred: true,
      preloads: ["/build/entry.client-A.js", "/build/root-B.js"],
      module: 'import * as route0 from "/build/root-B.js";\nwindow.x = "</scr" + "ipt>";\nimport("/build/entry.client-A.js");',
    });
  });

  /**
   * Runs the bootstrap against a small DOM. `paintTiming`: the browser reports paint entries (the first contentful
   * paint's entry then triggers it); else it falls back to a task after the first animation frame.
   */
  function runBootstrap(paintTiming: boolean) {
    // A small DOM: the bootstrap must leave what Remix rendered, or React re-renders the document on hydration and
    // what the user typed before is lost (seen: /people/new's First name emptied).
    const body: { tag: string; attrs: Record<string, unknown>; text?: string }[] = [
      { tag: "script", attrs: {}, text: "scroll()" },
      { tag: "script", attrs: {}, text: "window.__remixContext = {};" },
      { tag: "script", attrs: { nonce: "N1" }, text: "<bootstrap>" },
    ];
    type El = (typeof body)[number] & { previousElementSibling?: El; parentNode?: unknown; rel?: string; href?: string; type?: string; async?: boolean; nonce?: string; textContent?: string };
    const me = body[2] as El;
    const parentNode = {
      insertBefore(el: El, before: El) {
        body.splice(body.indexOf(before), 0, el);
      },
      replaceChild(el: El, old: El) {
        body.splice(body.indexOf(old), 1, el);
      },
    };
    me.parentNode = parentNode;
    (body[1] as El).parentNode = parentNode;
    me.nonce = "N1";
    me.previousElementSibling = body[1];
    const frames: (() => void)[] = [];
    const timers: { fn: () => void; ms: number }[] = [];
    const document = {
      currentScript: me,
      createElement: (tag: string) => ({ tag, attrs: {} }) as El,
    };
    type Entries = { getEntriesByName(name: string): unknown[] };
    const observers: { callback: (list: Entries, o: { disconnect(): void }) => void; options: unknown; connected: boolean }[] = [];
    class FakeObserver {
      static supportedEntryTypes = ["element", "paint"];
      constructor(private callback: (list: Entries, o: { disconnect(): void }) => void) {}
      observe(options: unknown) {
        const record = { callback: this.callback, options, connected: true };
        observers.push(record);
        this.disconnect = () => void (record.connected = false);
      }
      disconnect() {}
    }
    const paint = (...names: string[]) => {
      for (const o of observers.filter((x) => x.connected)) {
        const observer = { disconnect: () => void (o.connected = false) };
        o.callback({ getEntriesByName: (name) => names.filter((n) => n === name).map((n) => ({ name: n })) }, observer);
      }
    };
    const window = { PerformanceObserver: paintTiming ? FakeObserver : undefined };
    const run = new Function("document", "window", "requestAnimationFrame", "setTimeout", bootstrap(["/a.js", "/b.js"], "import('/a.js')"));
    run(document, window, (fn: () => void) => frames.push(fn), (fn: () => void, ms: number) => timers.push({ fn, ms }));
    const shape = () => body.map((el) => [el.tag, (el as El).rel ?? (el as El).type ?? el.text, (el as El).href ?? (el as El).nonce ?? null]);
    return { body, frames, timers, observers, paint, shape };
  }
  const RESTORED = [
    ["script", "scroll()", null],
    ["link", "modulepreload", "/a.js"],
    ["link", "modulepreload", "/b.js"],
    ["script", "window.__remixContext = {};", null],
    ["script", "module", "N1"],
  ];

  it("puts back, once, after the first contentful paint is on screen, the same elements in the same places", () => {
    const { body, frames, timers, observers, paint, shape } = runBootstrap(true);
    expect(body).toHaveLength(3);
    expect(timers.map((t) => t.ms)).toEqual([1000]);
    // Not on an animation frame: the frame is not presented yet then.
    expect(frames).toHaveLength(0);
    expect(observers.map((o) => o.options)).toEqual([{ type: "paint", buffered: true }]);
    paint("first-paint"); // a paint without content yet
    expect(timers.map((t) => t.ms)).toEqual([1000]);
    paint("first-paint", "first-contentful-paint");
    expect(observers[0]!.connected).toBe(false);
    expect(timers.map((t) => t.ms)).toEqual([1000, 0]);
    expect(body).toHaveLength(3);
    timers[1]!.fn();
    timers[0]!.fn(); // the fallback finds it done
    expect(shape()).toEqual(RESTORED);
    expect((body[4] as { textContent?: string }).textContent).toBe("import('/a.js')");
    expect((body[4] as { async?: boolean }).async).toBe(true);
  });

  it("without paint timing, after the first animation frame; in a tab that paints nothing, after a second", () => {
    const a = runBootstrap(false);
    expect(a.observers).toHaveLength(0);
    expect(a.timers.map((t) => t.ms)).toEqual([1000]);
    a.frames[0]!();
    expect(a.timers.map((t) => t.ms)).toEqual([1000, 0]);
    a.timers[1]!.fn();
    expect(a.shape()).toEqual(RESTORED);
    const b = runBootstrap(true);
    b.timers[0]!.fn(); // no paint ever came
    expect(b.shape()).toEqual(RESTORED);
    b.paint("first-contentful-paint");
    b.timers[1]!.fn();
    expect(b.shape()).toEqual(RESTORED); // once
  });

  it("leaves a document whose tail is not Remix's as it is", () => {
    for (const tail of ["", CONTEXT + MODULE, LINKS + MODULE, LINKS + CONTEXT + MODULE + LINKS + CONTEXT + MODULE]) {
      expect(scriptsAfterPaint(page(tail))).toBe(page(tail));
    }
  });

  const { admin } = appAsAdmin();
  it("a page of the app paints before its scripts load: no preload or module script in its HTML", async () => {
    const html = await (await admin.get("/people")).text();
    expect(html).not.toContain('<link rel="modulepreload"');
    const scripts = pageScripts(html);
    expect(scripts.deferred).toBe(true);
    expect(scripts.preloads.some((href) => /^\/build\/entry\.client-[A-Z0-9]+\.js$/.test(href))).toBe(true);
    expect(scripts.module).toMatch(/import\("\/build\/entry\.client-[A-Z0-9]+\.js"\)/);
    expect(scripts.module).toContain("window.__remixManifest");
  });
});
