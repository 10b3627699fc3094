/**
 * Bounds of every Handlebars render (specifications' generator, messages' preview, chains' template links), defined
 * once: the embedded upstream enforces them (upstream/src/lib/templating) and the back office may quote them. No zod
 * here, so a texts module can import the messages without shipping zod to the browser.
 */

/** Per render of one template. */
export const TEMPLATE_LIMITS = {
  /**
   * Block iterations over the whole render: every `#each` item, every block body a helper runs, every partial. A
   * 100,000-paragraph document walked once is 100,000; five loops nested over 22 paragraphs are 5 million.
   */
  iterations: 1_000_000,
  /** Characters of output (a specification's generated text; an e-mail's body). */
  outputChars: 2_000_000,
  /** Wall time of one render, measured on the render's worker thread. */
  timeMs: 5_000,
} as const;

export type TemplateLimits = { iterations: number; outputChars: number; timeMs: number };

const n = (value: number) => value.toLocaleString("en-US");

/** Every message starts "Template error: " (the back office and the tests read that prefix). */
export const TEMPLATE_MESSAGES = {
  prefix: "Template error: ",
  iterations: (max: number) => `Template error: the template repeats too much: more than ${n(max)} iterations.`,
  output: (max: number) => `Template error: the output is longer than ${n(max)} characters.`,
  time: (ms: number) => `Template error: the template takes too long: more than ${n(ms / 1000)} seconds.`,
  memory: "Template error: the template needs too much memory.",
  busy: "The template renderer is busy. Try again in a moment.",
} as const;
