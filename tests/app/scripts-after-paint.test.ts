import { describe, expect, it } from "vitest";
import { bootstrap, scriptsAfterPaint } from "../../app/lib/scripts-after-paint.server";
import { appAsAdmin, pageScripts } from "../helpers/app";

/**
 * Scripts after the first paint (issue 10: time to painted content). The module preloads and the hydrating module
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

  it("puts back, once, after the first frame, the same elements in the same places", () => {
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
    const run = new Function("document", "requestAnimationFrame", "setTimeout", bootstrap(["/a.js", "/b.js"], "import('/a.js')"));
    run(document, (fn: () => void) => frames.push(fn), (fn: () => void, ms: number) => timers.push({ fn, ms }));
    expect(body).toHaveLength(3);
    expect(timers.map((t) => t.ms)).toEqual([1000]);
    frames[0]!();
    expect(timers.map((t) => t.ms)).toEqual([1000, 0]);
    timers[1]!.fn();
    timers[0]!.fn(); // the fallback finds it done
    expect(body.map((el) => [el.tag, (el as El).rel ?? (el as El).type ?? el.text, (el as El).href ?? (el as El).nonce ?? null])).toEqual([
      ["script", "scroll()", null],
      ["link", "modulepreload", "/a.js"],
      ["link", "modulepreload", "/b.js"],
      ["script", "window.__remixContext = {};", null],
      ["script", "module", "N1"],
    ]);
    expect((body[4] as El).textContent).toBe("import('/a.js')");
    expect((body[4] as El).async).toBe(true);
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
