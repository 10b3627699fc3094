import Handlebars from "handlebars";
import type { ContextObject, DocumentContent, Paragraph } from "../../contract/nlp";
import { MAX_DOCUMENT_BYTES } from "../../contract/nlp";
import { TEMPLATE_MESSAGES } from "../../contract/templating";
import { TemplateError, renderTemplates } from "../lib/templating";
import { buildContext } from "./context";
import { DOCUMENT_MESSAGES, DocumentError, decodeBase64, readDocx } from "./docx";
import { HELPER_NAMES } from "./helpers";

export { TemplateError };

type AST = hbs.AST.Node;

/** Only parses (Handlebars' parser is linear): templates are rendered by lib/templating, off the event loop. */
const hb = Handlebars.create();
/** Helpers that change the context of their block: names inside it belong to the items, not to the document. */
const CONTEXT_BLOCKS = new Set(["each", "with"]);
const CLAIM_HELPERS = new Set(["independentClaims", "dependentClaims", "claim"]);

function parse(body: string): hbs.AST.Program {
  try {
    return hb.parse(body);
  } catch (error) {
    throw new TemplateError(`${TEMPLATE_MESSAGES.prefix}${(error as Error).message}`);
  }
}

/** The names a template reads from the top of the context object (helpers, `this`, @data and block-local names left out). */
export function templateParams(body: string): string[] {
  const params = new Set<string>();
  const visit = (node: AST | undefined | null, depth: number): void => {
    if (!node) return;
    switch (node.type) {
      case "Program":
        for (const s of (node as hbs.AST.Program).body) visit(s, depth);
        return;
      case "MustacheStatement":
      case "SubExpression":
      case "BlockStatement":
      case "DecoratorBlock": {
        const n = node as unknown as {
          path: hbs.AST.PathExpression;
          params: hbs.AST.Expression[];
          hash?: hbs.AST.Hash;
          program?: hbs.AST.Program;
          inverse?: hbs.AST.Program;
        };
        const path = n.path as hbs.AST.PathExpression;
        const isHelper =
          path.type === "PathExpression" &&
          path.parts.length === 1 &&
          !path.data &&
          (HELPER_NAMES.has(path.original) || hb.helpers[path.original] !== undefined) &&
          (n.params.length > 0 || n.hash !== undefined || node.type === "BlockStatement" || HELPER_NAMES.has(path.original));
        if (!isHelper) visit(path, depth);
        for (const p of n.params) visit(p, depth);
        for (const pair of n.hash?.pairs ?? []) visit(pair.value, depth);
        const inner = node.type === "BlockStatement" && isHelper && CONTEXT_BLOCKS.has(path.original) ? depth + 1 : depth;
        if (n.program) visit(n.program, inner);
        if (n.inverse) visit(n.inverse, depth);
        return;
      }
      case "PathExpression": {
        const p = node as hbs.AST.PathExpression;
        if (p.data) {
          if (p.original.startsWith("@root.") && p.parts[0]) params.add(p.parts[0]);
          return;
        }
        if (p.parts.length === 0) return; // this, .
        if (p.depth === depth) params.add(p.parts[0]!);
        return;
      }
      case "PartialStatement":
      case "PartialBlockStatement": {
        const n = node as hbs.AST.PartialStatement;
        for (const p of n.params) visit(p, depth);
        return;
      }
      default:
        return;
    }
  };
  visit(parse(body), 0);
  return [...params].sort();
}

/** True when rendering the template needs the document's claims. */
export function usesClaims(body: string): boolean {
  if (/\(\s*(?:independentClaims|dependentClaims|claim)\b|\{\{[#~]?\s*(?:independentClaims|dependentClaims|claim)\s/.test(body)) {
    return true;
  }
  return templateParams(body).some((p) => p === "claims" || p === "independentClaims" || CLAIM_HELPERS.has(p));
}

/** Renders templates against their context objects (one bounded job: lib/templating). */
export function render(items: readonly { body: string; context: ContextObject }[]): Promise<string[]> {
  return renderTemplates(items.map((item) => ({ template: item.body, context: item.context })));
}

/** Splits rendered text at blank lines into paragraphs; each line is a run (`break`: starts a new line). */
export function toParagraphs(template: string, text: string): Paragraph[] {
  return text
    .replace(/\r\n?/g, "\n")
    .split(/\n[ \t]*\n+/)
    .map((block) => block.replace(/^\n+|\n+$/g, ""))
    .filter((block) => block.trim() !== "")
    .map((block) => ({
      template,
      runs: block.split("\n").map((line, i) => (i === 0 ? { text: line } : { text: line, break: true })),
    }));
}

/** Reads an uploaded document into its context object. */
export async function loadDocument(input: DocumentContent | { name: string; bytes: Uint8Array }): Promise<ContextObject> {
  if (!/\.docx$/i.test(input.name)) throw new DocumentError(DOCUMENT_MESSAGES.notDocx);
  const bytes = "bytes" in input ? input.bytes : decodeBase64(input.content, MAX_DOCUMENT_BYTES);
  if (bytes.length > MAX_DOCUMENT_BYTES) throw new DocumentError(DOCUMENT_MESSAGES.tooLarge);
  return buildContext(input.name, await readDocx(bytes));
}

/** Keeps only the chosen claims (all when none are chosen). */
export function selectClaims(context: ContextObject, numbers: readonly number[] | undefined): ContextObject {
  if (!numbers?.length) return context;
  const keep = new Set(numbers);
  const claims = context.claims.filter((c) => keep.has(c.claimNumber));
  return { ...context, claims, independentClaims: claims.filter((c) => c.independentClaim) };
}
