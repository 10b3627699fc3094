import Handlebars from "handlebars";

/**
 * Where a Handlebars template fails to parse, by Handlebars' own parser (the one the render runtime uses), so a
 * template that cannot render is refused when it is saved rather than when it is sent. Server side only: the parser
 * is some 200 kB, too much for a form's bundle; the upstream and the back office's actions call it.
 */
export type TemplateSyntaxError = { line: number; column: number; message: string };

export const TEMPLATE_SYNTAX_MESSAGES = {
  /** Lines and columns count from 1, as an editor shows them. */
  where: (e: TemplateSyntaxError) => `Line ${e.line}, column ${e.column}: ${e.message}`,
  at: (field: string, e: TemplateSyntaxError) => `${field}: line ${e.line}, column ${e.column}: ${e.message}`,
  unclosed: (name: string) => `{{#${name}}} is never closed (add {{/${name}}}).`,
  mismatch: (open: string, close: string) => `{{/${close}}} does not close {{#${open}}}.`,
  unexpected: (text: string) => `Handlebars cannot read “${text}” here.`,
  endsEarly: "The template ends inside a {{ … }} expression.",
} as const;

type Location = { first_line: number; first_column: number };
type JisonParser = { parseError: (message: string, hash: unknown) => never; lexer: { yylloc?: Location; match?: string } };
/** What the parser's error hook receives (jison's hash). */
type ParseHash = { token?: string | null; text?: string; expected?: string[]; loc?: Location };
class LocatedParseError extends Error {
  constructor(readonly hash: ParseHash, readonly where: Location | undefined) {
    super("parse error");
  }
}

// Handlebars' types do not declare its jison parser; its parseError hook is the only way to learn the location.
const parser = (Handlebars as unknown as { Parser: JisonParser }).Parser;

/**
 * The block tags in order: the openers still open at the end, and the first closer that names another block. A plain
 * scan (comments and raw blocks are rare in messages), used only to point at a block once the parser has failed.
 */
function blockTags(template: string): { open: { name: string; index: number }[]; mismatch: number | null } {
  const open: { name: string; index: number }[] = [];
  for (const m of template.matchAll(/\{\{~?\s*([#/^])\s*>?\s*([^\s}~]+)/g)) {
    if (m[1] === "#") open.push({ name: m[2]!, index: m.index! });
    else if (m[1] === "/" && open.at(-1)?.name !== m[2]) return { open, mismatch: m.index! };
    else if (m[1] === "/") open.pop();
  }
  return { open, mismatch: null };
}

function positionOf(template: string, index: number): { line: number; column: number } {
  const before = template.slice(0, index).split("\n");
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}

/** The first syntax error of `template` with its line and column (from 1), or null when Handlebars can parse it. */
export function templateSyntaxError(template: string): TemplateSyntaxError | null {
  if (!template.includes("{{")) return null;
  // A '{{' never closed: the lexer's complaint would name the next character, not the expression.
  const lastOpen = template.lastIndexOf("{{");
  if (!template.includes("}}", lastOpen)) return { ...positionOf(template, lastOpen), message: TEMPLATE_SYNTAX_MESSAGES.endsEarly };
  const original = parser.parseError;
  parser.parseError = (_message, hash) => {
    throw new LocatedParseError(hash as ParseHash, parser.lexer.yylloc);
  };
  try {
    Handlebars.parse(template);
    return null;
  } catch (error) {
    if (error instanceof LocatedParseError) {
      const { token, text, expected = [] } = error.hash;
      if (token === "EOF" || token === null) {
        const open = blockTags(template).open.at(-1);
        if (open && expected.some((e) => e.includes("ENDBLOCK"))) {
          return { ...positionOf(template, open.index), message: TEMPLATE_SYNTAX_MESSAGES.unclosed(open.name) };
        }
        return { ...positionOf(template, lastOpen), message: TEMPLATE_SYNTAX_MESSAGES.endsEarly };
      }
      const where = error.where;
      const line = where?.first_line ?? 1;
      const column = (where?.first_column ?? 0) + 1;
      return { line, column, message: TEMPLATE_SYNTAX_MESSAGES.unexpected((text || parser.lexer.match || "").slice(0, 40)) };
    }
    // Handlebars' own checks after parsing (a block closed by another name): "if doesn't match each - 1:3".
    const e = error as { message?: string; lineNumber?: number; column?: number };
    const mismatch = /^(\S+) doesn't match (\S+)/.exec(e.message ?? "");
    const closer = mismatch ? blockTags(template).mismatch : null;
    return {
      ...(closer !== null ? positionOf(template, closer) : { line: e.lineNumber ?? 1, column: (e.column ?? 0) + 1 }),
      message: mismatch ? TEMPLATE_SYNTAX_MESSAGES.mismatch(mismatch[1]!, mismatch[2]!) : (e.message ?? "").replace(/ - \d+:\d+$/, ""),
    };
  } finally {
    parser.parseError = original;
  }
}
