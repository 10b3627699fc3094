/**
 * Scripts after the first paint (docs/decisions/scripts-after-paint.md).
 *
 * Remix's `<Scripts/>` writes one `<link rel="modulepreload">` per module of the page (20 on /people) and an inline
 * module script that imports them and hydrates. A browser's preload scanner fetches them as soon as the HTML arrives
 * and compiles each module on the page's main thread as it lands, before the first frame: measured in Chromium,
 * /people painted its first row at ~190 ms with them and at ~100 ms without (the same HTML).
 *
 * The page works without JavaScript, so nothing needs those scripts before the first paint. This rewrites the tail
 * of the document: the preload links and the module script leave the HTML, and a small classic script adds them back
 * (the same links, the same module text, the same nonce) once the first frame is on screen (its first contentful
 * paint), or after a second at the latest (a tab opened in the background paints no frames).
 *
 * A document whose tail is not exactly that (preloads, context script, module script; once) is answered unchanged.
 */

/** Remix's tail: the preloads, the context script, the module script (captured: links, context, nonce, code). */
const TAIL =
  /((?:<link rel="modulepreload" href="[^"]+"\/>)+)(<script(?: nonce="[^"]*")?>window\.__remixContext = [\s\S]*?<\/script>)<script((?: nonce="[^"]*")?) type="module" async="">([\s\S]*?)<\/script>/g;
const HREF = /href="([^"]+)"/g;

/** JSON that can stand inside an inline <script>: no "</script", "<!--" or line separators. */
const inlineJson = (value: unknown) =>
  JSON.stringify(value).replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");

/**
 * The bootstrap: once the first frame is out, puts back exactly what Remix wrote, where it wrote it (the preloads
 * before the context script, the module script in the bootstrap's own place), so React hydrates the very markup it
 * rendered: a difference there would make it re-render the whole document and drop what the user typed meanwhile.
 *
 * "Out" means on the screen: the first contentful paint's entry (Paint Timing) arrives once the frame has been
 * presented. A task after the first animation frame (the older trigger, still the fallback where the entry type is
 * missing) runs while that frame is still being rastered, and the scripts' fetching and compiling then delayed its
 * presentation by ~15–20 ms on a 2-core machine (docs/decisions/scripts-after-paint.md, "After the paint is on
 * screen").
 */
export function bootstrap(hrefs: readonly string[], code: string): string {
  return (
    "(function(){var me=document.currentScript,n=me&&me.nonce,d=false;" +
    "function go(){if(d||!me||!me.parentNode)return;d=true;var ctx=me.previousElementSibling;" +
    `${inlineJson(hrefs)}.forEach(function(h){var l=document.createElement("link");l.rel="modulepreload";l.href=h;ctx.parentNode.insertBefore(l,ctx)});` +
    `var s=document.createElement("script");if(n)s.nonce=n;s.type="module";s.async=true;s.textContent=${inlineJson(code)};me.parentNode.replaceChild(s,me)}` +
    "function soon(){setTimeout(go,0)}var P=window.PerformanceObserver;" +
    'if(P&&P.supportedEntryTypes&&P.supportedEntryTypes.indexOf("paint")>=0){' +
    'new P(function(l,o){if(l.getEntriesByName("first-contentful-paint").length){o.disconnect();soon()}}).observe({type:"paint",buffered:true})' +
    "}else requestAnimationFrame(soon);setTimeout(go,1000)})()"
  );
}

const PRELOAD = '<link rel="modulepreload"';

export function scriptsAfterPaint(html: string): string {
  return documentParts(html).join("");
}

/**
 * The document as pieces to write one after the other: slices of `html` around the rewritten tail (or `html` alone).
 * The entry writes them into one buffer without first joining a copy of the whole page (app/entry.server.tsx).
 */
export function documentParts(html: string): string[] {
  // The tail is searched from the first preload on, not over the whole page (a 50 KB list page: ~0.1 ms a request).
  // Text and attribute values are escaped, so the page's content cannot hold a preload element before the real one.
  const start = html.indexOf(PRELOAD);
  if (start < 0) return [html];
  const rest = html.slice(start);
  const tails = [...rest.matchAll(TAIL)];
  if (tails.length !== 1) return [html];
  const [whole, links, context, nonceAttr, code] = tails[0]!;
  const hrefs = [...links!.matchAll(HREF)].map((m) => m[1]!);
  const at = start + tails[0]!.index!;
  return [
    html.slice(0, at),
    `${context}<script${nonceAttr}>${bootstrap(hrefs, code!)}</script>`,
    html.slice(at + whole.length),
  ];
}
