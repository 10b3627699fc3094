/**
 * `query_string` (and GET /api/search's `query`): Lucene syntax parsed by the `lucene` package, turned into the
 * engine's tree with Lucene's classic clause rules (QueryParserBase.addClause): AND/OR/NOT, && || !, +/-, fields,
 * phrases, proximity "a b"~3, prefix a*, grouping, boosts (as column weights), ranges [a TO b] / {a TO b} on the
 * range fields. Fuzzy (a~), wildcards other than a trailing *, and regular expressions answer 400.
 */
import lucene from "lucene";
import { SEARCH_LIMITS, SEARCH_MESSAGES } from "../../contract/portfolio";
import { analyze, ftsString, mayMatchToken } from "./tokens";
import {
  FIELD_COLUMNS,
  QueryError,
  RANGE_COLUMNS,
  SearchTooCostly,
  TEXT_COLUMNS,
  type Bound,
  type Node,
  type Phrase,
  type QueryContext,
  type TextColumn,
  type TextNode,
} from "./ir";

type LuceneTerm = {
  field: string;
  term: string;
  quoted: boolean;
  regex: boolean;
  proximity?: number | null;
  similarity?: number | null;
  boost: number | null;
  prefix: string | null;
};
type LuceneRange = { field: string; term_min: string; term_max: string; inclusive: "both" | "left" | "right" | "none" };
type LuceneNode = {
  left?: LuceneAst;
  right?: LuceneAst;
  operator?: string;
  start?: string;
  parenthesized?: boolean;
  field?: string;
};
type LuceneAst = LuceneNode | LuceneTerm | LuceneRange;

/**
 * The letters or digits a prefix needs before its `*`. FTS5 has no prefix index here: a prefix merges the index entries
 * of every word it covers, each time a MATCH starts (a search starts several). At 1M applications `sys*` costs ~70 ms a
 * start, `co*` ~0.6 s and `s*` ~1.2 s, which held the event loop for ~4.5 s of a 6.8 s search.
 */
const PREFIX_MIN_CHARS = 3;

/** Words of a query string per term it may have, before it is parsed (see `parseQueryString`). */
const QUERY_WORDS_PER_TERM = 4;

const isTerm = (n: LuceneAst): n is LuceneTerm => "term" in n;
const isRange = (n: LuceneAst): n is LuceneRange => "term_min" in n;

/** The text columns a field list names (`title^3`, `aiSummary`, `*`), boosting as it goes. */
export function columnsOf(fields: readonly string[], ctx: QueryContext, path: string): TextColumn[] {
  const out = new Set<TextColumn>();
  fields.forEach((spec, i) => {
    const m = /^([^^]+)(?:\^(\d+(?:\.\d+)?))?$/.exec(spec.trim());
    if (!m) throw new QueryError(`Unknown field "${spec}"`, `${path}[${i}]`);
    const name = m[1]!;
    const columns = name === "*" || name === "_all" ? [...TEXT_COLUMNS] : FIELD_COLUMNS[name] ? [FIELD_COLUMNS[name]] : null;
    if (!columns) throw new QueryError(`Unknown text field "${name}"`, `${path}[${i}]`);
    if (m[2]) ctx.boost(columns, Number(m[2]));
    for (const c of columns) out.add(c);
  });
  return [...out];
}

/** A phrase as FTS5 says it: `"a b"`, `"a b"*` or `NEAR("a" "b", n)` (each token quoted, as `ftsString`). */
function phraseExpr(p: Phrase): string {
  if (p.near !== null) return `NEAR(${p.tokens.map(ftsString).join(" ")}, ${p.near})`;
  return ftsString(p.tokens.join(" ")) + (p.prefix ? "*" : "");
}

/**
 * A text leaf: the phrase restricted to `columns`. Over every text column the filter only keeps the term out of the
 * token columns, and a token that cannot be a tag or portfolio token never matches there: such a leaf goes without the
 * filter, which FTS5 otherwise applies to every position of every matching row (~20% of ranking a broad query, ~40% of
 * counting it).
 */
export function textLeaf(columns: readonly TextColumn[], phrase: Phrase): TextNode {
  const expr = phraseExpr(phrase);
  const everyText = columns.length === TEXT_COLUMNS.length;
  if (everyText && !phrase.tokens.some(mayMatchToken)) return { kind: "text", expr, phrase, columns };
  return { kind: "text", expr: `{${columns.join(" ")}} : ${expr}`, phrase, columns };
}

/** One term of a query string or a match query, as a phrase (null when it holds no token). */
export function phraseOf(text: string, options: { prefix?: boolean; slop?: number | null } = {}): Phrase | null {
  const tokens = analyze(text);
  if (!tokens.length) return null;
  if (options.slop != null && tokens.length > 1) return { tokens, prefix: false, near: options.slop + tokens.length - 1 };
  return { tokens, prefix: options.prefix ?? false, near: null };
}

type Occur = "must" | "should" | "mustNot";

export function parseQueryString(
  query: string,
  options: { columns: readonly TextColumn[]; defaultOperator: "OR" | "AND"; path: string },
  ctx: QueryContext,
): Node {
  if (!query.trim()) return { kind: "all" };
  // Before the parse (10 KB of words costs it up to a second on a loaded machine): a query of more words than four per
  // term allowed — room for an operator, a field and a boost around each — has more terms than allowed.
  if (analyze(query).length > QUERY_WORDS_PER_TERM * SEARCH_LIMITS.terms) {
    throw new SearchTooCostly(SEARCH_MESSAGES.tooManyTerms(SEARCH_LIMITS.terms), options.path);
  }
  let ast: LuceneAst;
  try {
    ast = lucene.parse(query) as LuceneAst;
  } catch (error) {
    throw new QueryError(`The query does not parse: ${(error as Error).message}`, options.path);
  }
  return convert(ast, options.columns, null, options, ctx) ?? { kind: "none" };
}

function convert(
  node: LuceneAst,
  columns: readonly TextColumn[],
  groupField: string | null,
  options: { defaultOperator: "OR" | "AND"; path: string },
  ctx: QueryContext,
): Node | null {
  if (isTerm(node)) return termNode(node, columns, groupField, options.path, ctx);
  if (isRange(node)) return rangeNode(node, groupField, options.path);
  // A group `field:( ... )` carries its field for the terms inside.
  const field = node.field && node.field !== "<implicit>" ? node.field : groupField;
  // Flatten the right-nested chain `a OP b OP c` of one level (parenthesized groups are their own level).
  const clauses: { conj: string | null; mod: string | null; item: LuceneAst }[] = [];
  let current: LuceneNode | undefined = node as LuceneNode;
  let conj: string | null = null;
  let first = true;
  while (current) {
    const left = current.left;
    if (!left) break;
    clauses.push({ conj, mod: first && current.start === "NOT" ? "NOT" : null, item: left });
    first = false;
    if (!current.operator || !current.right) break;
    conj = current.operator;
    const right: LuceneAst = current.right;
    if (!isTerm(right) && !isRange(right) && !right.parenthesized && right.operator && !right.field) {
      current = right;
    } else {
      clauses.push({ conj, mod: !isTerm(right) && !isRange(right) && right.start === "NOT" ? "NOT" : null, item: right });
      current = undefined;
    }
  }
  const out: { occur: Occur; node: Node }[] = [];
  for (const clause of clauses) {
    let c = clause.conj;
    let mod = clause.mod;
    if (c === "AND NOT" || c === "&& !") {
      c = "AND";
      mod = "NOT";
    } else if (c === "OR NOT" || c === "|| !") {
      c = "OR";
      mod = "NOT";
    } else if (c === "NOT") {
      // `a NOT b`: Lucene's NOT is a modifier on b, with no conjunction (the default operator joins them).
      c = null;
      mod = "NOT";
    }
    const isAnd = c === "AND" || c === "&&";
    const isOr = c === "OR" || c === "||";
    const termPrefix = isTerm(clause.item) ? clause.item.prefix : null;
    if (termPrefix === "+") mod = mod === "NOT" ? "NOT" : "REQ";
    if (termPrefix === "-" || termPrefix === "!") mod = "NOT";
    const prev = out[out.length - 1];
    if (prev && isAnd && prev.occur !== "mustNot") prev.occur = "must";
    if (prev && options.defaultOperator === "AND" && isOr && prev.occur !== "mustNot") prev.occur = "should";
    let occur: Occur;
    if (options.defaultOperator === "OR") {
      occur = mod === "NOT" ? "mustNot" : mod === "REQ" || isAnd ? "must" : "should";
    } else {
      occur = mod === "NOT" ? "mustNot" : !isOr ? "must" : "should";
    }
    // The grouping parentheses or a wrapper with only `left`: recurse.
    const inner = isTerm(clause.item) ? termNode({ ...clause.item, prefix: null }, columns, field, options.path, ctx) : convert(clause.item, columns, field, options, ctx);
    if (inner) out.push({ occur, node: inner });
  }
  if (out.length === 1 && out[0]!.occur !== "mustNot") return out[0]!.node;
  const must = out.filter((c) => c.occur === "must").map((c) => c.node);
  const should = out.filter((c) => c.occur === "should").map((c) => c.node);
  const mustNot = out.filter((c) => c.occur === "mustNot").map((c) => c.node);
  if (!must.length && !should.length && !mustNot.length) return null;
  // Only prohibitions: every document without them (Elasticsearch adds match_all in that case too).
  if (!must.length && !should.length) return { kind: "bool", must: [{ kind: "all" }], should: [], mustNot, filter: [], msm: null };
  return { kind: "bool", must, should, mustNot, filter: [], msm: null };
}

function termNode(
  term: LuceneTerm,
  columns: readonly TextColumn[],
  groupField: string | null,
  path: string,
  ctx: QueryContext,
): Node | null {
  const field = term.field && term.field !== "<implicit>" ? term.field : groupField;
  const value = term.term;
  if (term.regex) throw new QueryError("Regular expressions (/.../) are not supported", path);
  if (term.similarity != null) throw new QueryError(`Fuzzy queries (${value}~) are not supported`, path);
  const prefix = !term.quoted && value.endsWith("*") && !value.endsWith("\\*");
  const bare = prefix ? value.slice(0, -1) : value;
  if (!term.quoted && /(?<!\\)[*?]/.test(bare)) {
    throw new QueryError(`Wildcards other than a trailing * are not supported ("${value}")`, path);
  }
  const text = bare.replace(/\\(.)/g, "$1");
  if (field === null || FIELD_COLUMNS[field] || field === "*" || field === "_all") {
    const cols = field === null ? columns : field === "*" || field === "_all" ? [...TEXT_COLUMNS] : [FIELD_COLUMNS[field]!];
    if (term.boost != null) ctx.boost(cols, term.boost);
    if (prefix && (analyze(text).at(-1)?.length ?? 0) < PREFIX_MIN_CHARS) {
      throw new QueryError(`A prefix needs at least ${PREFIX_MIN_CHARS} letters or digits before the * ("${value}")`, path);
    }
    const phrase = phraseOf(text, { prefix, slop: term.quoted ? (term.proximity ?? null) : null });
    if (phrase) ctx.phrase(path, phrase);
    return phrase ? textLeaf(cols, phrase) : null;
  }
  ctx.clause(path);
  if (prefix) throw new QueryError(`Prefix queries are only supported on text fields ("${field}:${value}")`, path);
  if (field === "tags" || field === "tags.name") return { kind: "tag", name: text };
  if (field === "id" || field === "_id") return { kind: "ids", column: "id", values: [text] };
  if (field === "source.id") return { kind: "ids", column: "source_id", values: [text] };
  if (field === "portfolioId") return { kind: "portfolio", id: text };
  if (RANGE_COLUMNS[field]) return { kind: "range", column: RANGE_COLUMNS[field], bounds: [{ op: ">=", value: rangeValue(field, text, path) }, { op: "<=", value: rangeValue(field, text, path) }] };
  throw new QueryError(`Unknown field "${field}" in the query string`, path);
}

function rangeValue(field: string, raw: string, path: string): number | string {
  if (field === "broadScore" || field === "detectableScore") {
    const n = Number(raw);
    if (raw.trim() === "" || !Number.isFinite(n)) throw new QueryError(`"${raw}" is not a number for ${field}`, path);
    return n;
  }
  const t = Date.parse(raw);
  if (Number.isNaN(t)) throw new QueryError(`"${raw}" is not a date for ${field} (use ISO 8601)`, path);
  return new Date(t).toISOString();
}

function rangeNode(node: LuceneRange, groupField: string | null, path: string): Node {
  const field = node.field && node.field !== "<implicit>" ? node.field : groupField;
  if (!field || !RANGE_COLUMNS[field]) throw new QueryError(`Ranges are only supported on ${Object.keys(RANGE_COLUMNS).join(", ")}`, path);
  const bounds: Bound[] = [];
  const lowInclusive = node.inclusive === "both" || node.inclusive === "left";
  const highInclusive = node.inclusive === "both" || node.inclusive === "right";
  if (node.term_min !== "*") bounds.push({ op: lowInclusive ? ">=" : ">", value: rangeValue(field, node.term_min, path) });
  if (node.term_max !== "*") bounds.push({ op: highInclusive ? "<=" : "<", value: rangeValue(field, node.term_max, path) });
  return { kind: "range", column: RANGE_COLUMNS[field], bounds };
}

export { rangeValue };
