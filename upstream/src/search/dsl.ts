/**
 * The documented subset of the Elasticsearch query DSL (docs/decisions/search-engine.md), parsed and validated into
 * the engine's tree. Anything outside it throws a QueryError naming the clause and its JSON path; nothing is ignored.
 */
import {
  ADVANCED_DEFAULT_SIZE,
  ADVANCED_MAX_SIZE,
  DEFAULT_POST_TAG,
  DEFAULT_PRE_TAG,
  MAX_RESULT_WINDOW,
  SEARCH_LIMITS,
  SEARCH_MESSAGES,
  TRACK_TOTAL_HITS,
  SORT_FIELDS,
  type SortField,
} from "../../contract/portfolio";
import { COLUMN_FIELDS, FIELD_COLUMNS, QueryContext, QueryError, RANGE_COLUMNS, SearchTooCostly, TEXT_COLUMNS, type Bound, type Node, type TextColumn } from "./ir";
import { columnsOf, parseQueryString, phraseOf, rangeValue, textLeaf } from "./query-string";
import { analyze } from "./tokens";

export type HighlightField = { column: TextColumn; field: string; fragmentSize: number; fragments: number; noMatchSize: number; pre: string; post: string };
export type SortKey = { field: SortField; order: "asc" | "desc" };
export type ParsedSearch = {
  query: Node;
  ctx: QueryContext;
  size: number;
  from: number;
  sort: SortKey[] | null;
  highlight: HighlightField[];
  /** Terms aggregations on tags: name → size. */
  aggs: { name: string; size: number }[];
  /** Fields each hit carries: null = all. */
  source: Set<string> | null;
  /** Count matches up to this many (Infinity: all). */
  trackTotalHits: number;
};

type Json = unknown;
const isObject = (v: Json): v is Record<string, Json> => typeof v === "object" && v !== null && !Array.isArray(v);

function object(v: Json, path: string, what: string): Record<string, Json> {
  if (!isObject(v)) throw new QueryError(`${what} must be an object`, path);
  return v;
}
function onlyKeys(o: Record<string, Json>, allowed: readonly string[], path: string, clause: string): void {
  for (const key of Object.keys(o)) {
    if (!allowed.includes(key)) throw new QueryError(`Unsupported option "${key}" of ${clause}`, `${path}.${key}`);
  }
}
function str(v: Json, path: string, what = "Value"): string {
  if (typeof v !== "string") throw new QueryError(`${what} must be a string`, path);
  if (v.length > 10_000) throw new QueryError(`${what} is too long`, path);
  return v;
}
function int(v: Json, path: string, min: number, max: number, what: string): number {
  if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max) {
    throw new QueryError(`${what} must be an integer from ${min} to ${max}`, path);
  }
  return v;
}
function num(v: Json, path: string, what: string): number {
  if (typeof v !== "number" || !Number.isFinite(v) || v < 0) throw new QueryError(`${what} must be a non-negative number`, path);
  return v;
}
function list(v: Json): Json[] {
  return Array.isArray(v) ? v : [v];
}

/** `minimum_should_match`: an integer, "n", "n%" (of the should clauses; negative values count from the total). */
function msmOf(v: Json, count: number, path: string): number {
  let n: number;
  if (typeof v === "number" && Number.isInteger(v)) n = v;
  else if (typeof v === "string" && /^-?\d+$/.test(v.trim())) n = Number(v.trim());
  else if (typeof v === "string" && /^-?\d+%$/.test(v.trim())) n = Math.trunc((count * Number(v.trim().slice(0, -1))) / 100);
  else throw new QueryError('minimum_should_match must be an integer, "n" or "n%"', path);
  if (n < 0) n = count + n;
  return Math.max(0, n);
}

const MAX_DEPTH = 20;
const MAX_VALUES = 1_000;

function parseQuery(q: Json, path: string, ctx: QueryContext, depth = 0): Node {
  if (depth > MAX_DEPTH) throw new QueryError(`Queries may nest at most ${MAX_DEPTH} levels`, path);
  const o = object(q, path, "A query");
  ctx.clause(path);
  const keys = Object.keys(o);
  if (keys.length !== 1) throw new QueryError(`A query clause must have exactly one key (got ${keys.length})`, path);
  const type = keys[0]!;
  const body = o[type];
  const at = `${path}.${type}`;
  switch (type) {
    case "match_all": {
      const b = object(body ?? {}, at, "match_all");
      onlyKeys(b, ["boost"], at, "match_all");
      return { kind: "all" };
    }
    case "query_string": {
      const b = object(body, at, "query_string");
      onlyKeys(b, ["query", "fields", "default_field", "default_operator", "boost"], at, "query_string");
      const fields = b.fields !== undefined ? list(b.fields).map((f, i) => str(f, `${at}.fields[${i}]`, "A field")) : b.default_field !== undefined ? [str(b.default_field, `${at}.default_field`, "default_field")] : ["*"];
      const op = b.default_operator === undefined ? "OR" : str(b.default_operator, `${at}.default_operator`).toUpperCase();
      if (op !== "OR" && op !== "AND") throw new QueryError('default_operator must be "OR" or "AND"', `${at}.default_operator`);
      if (b.boost !== undefined) num(b.boost, `${at}.boost`, "boost");
      const columns = columnsOf(fields, ctx, b.fields !== undefined ? `${at}.fields` : `${at}.default_field`);
      return parseQueryString(str(b.query, `${at}.query`, "query"), { columns, defaultOperator: op, path: `${at}.query` }, ctx);
    }
    case "match":
    case "match_phrase":
    case "match_phrase_prefix": {
      if (type === "match_phrase_prefix") break;
      const b = object(body, at, type);
      const fields = Object.keys(b);
      if (fields.length !== 1) throw new QueryError(`${type} takes exactly one field`, at);
      const field = fields[0]!;
      const fpath = `${at}.${field}`;
      const column = FIELD_COLUMNS[field];
      if (!column) throw new QueryError(`Unknown text field "${field}"`, fpath);
      const spec = isObject(b[field]) ? (b[field] as Record<string, Json>) : { query: b[field] };
      const allowed = type === "match" ? ["query", "operator", "minimum_should_match", "boost"] : ["query", "slop", "boost"];
      onlyKeys(spec, allowed, fpath, type);
      const text = typeof spec.query === "number" ? String(spec.query) : str(spec.query, `${fpath}.query`, "query");
      if (spec.boost !== undefined) ctx.boost([column], num(spec.boost, `${fpath}.boost`, "boost"));
      if (type === "match_phrase") {
        const slop = spec.slop === undefined ? null : int(spec.slop, `${fpath}.slop`, 0, 100, "slop");
        const phrase = phraseOf(text, { slop });
        if (phrase) ctx.phrase(`${fpath}.query`, phrase);
        return phrase ? textLeaf([column], phrase) : { kind: "none" };
      }
      return matchTerms([column], text, spec, fpath, ctx);
    }
    case "multi_match": {
      const b = object(body, at, "multi_match");
      onlyKeys(b, ["query", "fields", "type", "operator", "minimum_should_match", "boost", "slop"], at, "multi_match");
      const text = str(b.query, `${at}.query`, "query");
      const fields = b.fields === undefined ? ["*"] : list(b.fields).map((f, i) => str(f, `${at}.fields[${i}]`, "A field"));
      const columns = columnsOf(fields, ctx, `${at}.fields`);
      const mtype = b.type === undefined ? "best_fields" : str(b.type, `${at}.type`);
      if (mtype === "phrase") {
        const slop = b.slop === undefined ? null : int(b.slop, `${at}.slop`, 0, 100, "slop");
        const phrase = phraseOf(text, { slop });
        if (phrase) ctx.phrase(`${at}.query`, phrase);
        return phrase ? textLeaf(columns, phrase) : { kind: "none" };
      }
      if (mtype !== "best_fields" && mtype !== "most_fields" && mtype !== "cross_fields") {
        throw new QueryError(`multi_match type "${mtype}" is not supported (best_fields, most_fields, cross_fields, phrase)`, `${at}.type`);
      }
      return matchTerms(columns, text, b, at, ctx);
    }
    case "bool": {
      const b = object(body, at, "bool");
      onlyKeys(b, ["must", "should", "must_not", "filter", "minimum_should_match", "boost"], at, "bool");
      // Counted before any clause is parsed: 20,000 clauses cost over a second to parse and compile alone.
      const count = ["must", "should", "must_not", "filter"].reduce((n, key) => n + (b[key] === undefined ? 0 : Array.isArray(b[key]) ? (b[key] as Json[]).length : 1), 0);
      if (count > SEARCH_LIMITS.boolClauses) throw new SearchTooCostly(SEARCH_MESSAGES.tooManyBoolClauses(SEARCH_LIMITS.boolClauses), at);
      const part = (key: string) =>
        b[key] === undefined
          ? []
          : Array.isArray(b[key])
            ? (b[key] as Json[]).map((c, i) => parseQuery(c, `${at}.${key}[${i}]`, ctx, depth + 1))
            : [parseQuery(b[key], `${at}.${key}`, ctx, depth + 1)];
      const must = part("must");
      const should = part("should");
      const mustNot = part("must_not");
      const filter = part("filter");
      const msm = b.minimum_should_match === undefined ? null : msmOf(b.minimum_should_match, should.length, `${at}.minimum_should_match`);
      return { kind: "bool", must, should, mustNot, filter, msm };
    }
    case "term":
    case "terms": {
      const b = object(body, at, type);
      const fields = Object.keys(b).filter((k) => k !== "boost");
      if (fields.length !== 1) throw new QueryError(`${type} takes exactly one field`, at);
      const field = fields[0]!;
      const fpath = `${at}.${field}`;
      let values: string[];
      if (type === "term") {
        const spec = isObject(b[field]) ? (b[field] as Record<string, Json>) : { value: b[field] };
        onlyKeys(spec, ["value", "boost"], fpath, "term");
        values = [termValue(spec.value, `${fpath}.value`)];
      } else {
        if (!Array.isArray(b[field])) throw new QueryError("terms takes a list of values", fpath);
        const raw = b[field] as Json[];
        if (raw.length > MAX_VALUES) throw new QueryError(`At most ${MAX_VALUES} values`, fpath);
        values = raw.map((v, i) => termValue(v, `${fpath}[${i}]`));
      }
      // Each value is a clause of its own (an index token or a lookup): the first is the clause counted on entry.
      ctx.clause(fpath, Math.max(0, values.length - 1));
      return keywordNode(field, values, fpath);
    }
    case "ids": {
      const b = object(body, at, "ids");
      onlyKeys(b, ["values", "boost"], at, "ids");
      if (!Array.isArray(b.values)) throw new QueryError("ids.values must be a list", `${at}.values`);
      if (b.values.length > MAX_VALUES) throw new QueryError(`At most ${MAX_VALUES} values`, `${at}.values`);
      ctx.clause(`${at}.values`, Math.max(0, b.values.length - 1));
      return { kind: "ids", column: "id", values: b.values.map((v, i) => termValue(v, `${at}.values[${i}]`)) };
    }
    case "range": {
      const b = object(body, at, "range");
      const fields = Object.keys(b);
      if (fields.length !== 1) throw new QueryError("range takes exactly one field", at);
      const field = fields[0]!;
      const fpath = `${at}.${field}`;
      const column = RANGE_COLUMNS[field];
      if (!column) throw new QueryError(`range is only supported on ${Object.keys(RANGE_COLUMNS).join(", ")} (got "${field}")`, fpath);
      const spec = object(b[field], fpath, "A range");
      onlyKeys(spec, ["gt", "gte", "lt", "lte", "boost"], fpath, "range");
      const ops = { gt: ">", gte: ">=", lt: "<", lte: "<=" } as const;
      const bounds: Bound[] = [];
      for (const key of ["gt", "gte", "lt", "lte"] as const) {
        const v = spec[key];
        if (v === undefined) continue;
        if (typeof v !== "number" && typeof v !== "string") throw new QueryError(`${key} must be a number or a date`, `${fpath}.${key}`);
        bounds.push({ op: ops[key], value: rangeValue(field, String(v), `${fpath}.${key}`) });
      }
      if (!bounds.length) throw new QueryError("range needs gt, gte, lt or lte", fpath);
      return { kind: "range", column, bounds };
    }
  }
  throw new QueryError(`Unsupported query clause "${type}"`, at);
}

function termValue(v: Json, path: string): string {
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return str(v, path);
}

function keywordNode(field: string, values: string[], path: string): Node {
  const any = (nodes: Node[]): Node => (nodes.length === 1 ? nodes[0]! : { kind: "bool", must: [], should: nodes, mustNot: [], filter: [], msm: 1 });
  if (field === "tags" || field === "tags.name") return values.length ? any(values.map((name) => ({ kind: "tag", name }))) : { kind: "none" };
  if (field === "portfolioId") return values.length ? any(values.map((id) => ({ kind: "portfolio", id }))) : { kind: "none" };
  if (field === "id" || field === "_id") return { kind: "ids", column: "id", values };
  if (field === "source.id") return { kind: "ids", column: "source_id", values };
  throw new QueryError(`term and terms are supported on tags.name, id, source.id and portfolioId (got "${field}")`, path);
}

/** `match`/`multi_match`: the analyzed terms, OR (default) or AND, or at least minimum_should_match of them. */
function matchTerms(columns: readonly TextColumn[], text: string, spec: Record<string, Json>, path: string, ctx: QueryContext): Node {
  const tokens = [...new Set(analyze(text))];
  if (!tokens.length) return { kind: "none" };
  ctx.words(`${path}.query`, tokens.length);
  const op = spec.operator === undefined ? "or" : str(spec.operator, `${path}.operator`).toLowerCase();
  if (op !== "or" && op !== "and") throw new QueryError('operator must be "or" or "and"', `${path}.operator`);
  const leaves = tokens.map((t) => textLeaf(columns, { tokens: [t], prefix: false, near: null }));
  if (leaves.length === 1) return leaves[0]!;
  if (op === "and") return { kind: "bool", must: leaves, should: [], mustNot: [], filter: [], msm: null };
  const msm = spec.minimum_should_match === undefined ? 1 : Math.max(1, msmOf(spec.minimum_should_match, leaves.length, `${path}.minimum_should_match`));
  return { kind: "bool", must: [], should: leaves, mustNot: [], filter: [], msm };
}

function parseSort(v: Json, path: string): SortKey[] {
  const keys: SortKey[] = [];
  list(v).forEach((item, i) => {
    const at = Array.isArray(v) ? `${path}[${i}]` : path;
    const one = (field: string, order: Json, p: string) => {
      if (!(SORT_FIELDS as readonly string[]).includes(field)) throw new QueryError(`Cannot sort by "${field}" (${SORT_FIELDS.join(", ")})`, p);
      const o = order === undefined ? (field === "_score" ? "desc" : "asc") : order;
      if (o !== "asc" && o !== "desc") throw new QueryError('order must be "asc" or "desc"', p);
      keys.push({ field: field as SortField, order: o });
    };
    if (typeof item === "string") one(item, undefined, at);
    else if (isObject(item)) {
      const fields = Object.keys(item);
      if (fields.length !== 1) throw new QueryError("A sort entry names one field", at);
      const field = fields[0]!;
      const spec = item[field];
      if (isObject(spec)) {
        onlyKeys(spec, ["order"], `${at}.${field}`, "sort");
        one(field, spec.order, `${at}.${field}`);
      } else one(field, spec, `${at}.${field}`);
    } else throw new QueryError("A sort entry is a field name or {field: order}", at);
  });
  return keys;
}

function parseHighlight(v: Json, path: string): HighlightField[] {
  const h = object(v, path, "highlight");
  const OPTIONS = ["fragment_size", "number_of_fragments", "no_match_size", "pre_tags", "post_tags"];
  onlyKeys(h, ["fields", ...OPTIONS, "type", "encoder", "require_field_match", "order"], path, "highlight");
  if (h.encoder !== undefined && h.encoder !== "html") throw new QueryError('encoder must be "html" (fragments are always HTML-escaped)', `${path}.encoder`);
  if (h.type !== undefined && !["unified", "plain", "fvh"].includes(String(h.type))) throw new QueryError("Unknown highlighter type", `${path}.type`);
  if (h.order !== undefined && h.order !== "none" && h.order !== "score") throw new QueryError('order must be "none" or "score"', `${path}.order`);
  const base = options(h, path, { fragmentSize: 100, fragments: 5, noMatchSize: 0, pre: DEFAULT_PRE_TAG, post: DEFAULT_POST_TAG });
  const out: HighlightField[] = [];
  const add = (name: string, spec: Json, at: string) => {
    const columns = name === "*" ? [...TEXT_COLUMNS] : FIELD_COLUMNS[name] ? [FIELD_COLUMNS[name]] : null;
    if (!columns) throw new QueryError(`Cannot highlight "${name}" (${Object.keys(COLUMN_FIELDS).length} text fields: ${Object.values(COLUMN_FIELDS).join(", ")})`, at);
    const o = spec === undefined ? base : options(object(spec, at, "A highlight field"), at, base);
    for (const column of columns) if (!out.some((f) => f.column === column)) out.push({ column, field: COLUMN_FIELDS[column], ...o });
  };
  if (h.fields === undefined) throw new QueryError("highlight needs fields", `${path}.fields`);
  if (Array.isArray(h.fields)) {
    h.fields.forEach((f, i) => {
      if (typeof f === "string") add(f, undefined, `${path}.fields[${i}]`);
      else {
        const o = object(f, `${path}.fields[${i}]`, "A highlight field");
        for (const [name, spec] of Object.entries(o)) add(name, spec, `${path}.fields[${i}].${name}`);
      }
    });
  } else {
    for (const [name, spec] of Object.entries(object(h.fields, `${path}.fields`, "highlight.fields"))) add(name, spec, `${path}.fields.${name}`);
  }
  return out;
}

function options(
  o: Record<string, Json>,
  path: string,
  base: Omit<HighlightField, "column" | "field">,
): Omit<HighlightField, "column" | "field"> {
  onlyKeys(o, ["fields", "fragment_size", "number_of_fragments", "no_match_size", "pre_tags", "post_tags", "type", "encoder", "require_field_match", "order"], path, "highlight");
  if (o !== undefined && "fields" in o && path.includes(".fields")) throw new QueryError("A highlight field cannot have fields", `${path}.fields`);
  const tag = (key: string, fallback: string) => {
    if (o[key] === undefined) return fallback;
    const tags = list(o[key]);
    const t = tags[0];
    if (tags.length !== 1 || typeof t !== "string" || t.length > 100) throw new QueryError(`${key} must be one tag (a list of one string)`, `${path}.${key}`);
    return t;
  };
  return {
    fragmentSize: o.fragment_size === undefined ? base.fragmentSize : int(o.fragment_size, `${path}.fragment_size`, 18, 10_000, "fragment_size"),
    fragments: o.number_of_fragments === undefined ? base.fragments : int(o.number_of_fragments, `${path}.number_of_fragments`, 0, 50, "number_of_fragments"),
    noMatchSize: o.no_match_size === undefined ? base.noMatchSize : int(o.no_match_size, `${path}.no_match_size`, 0, 10_000, "no_match_size"),
    pre: tag("pre_tags", base.pre),
    post: tag("post_tags", base.post),
  };
}

const SOURCE_FIELDS = ["id", "source", "title", "abstract", "claims", "specification", "aiSummary", "products", "broadScore", "detectableScore", "tags", "portfolioId", "createdAt", "updatedAt", "createdBy", "updatedBy"];

function parseSource(v: Json, path: string): Set<string> | null {
  if (v === true) return null;
  if (v === false) return new Set(["id"]);
  const check = (names: Json, p: string) =>
    list(names).map((n, i) => {
      const name = str(n, `${p}[${i}]`, "A field").replace(/^source\.id$/, "source");
      if (!SOURCE_FIELDS.includes(name)) throw new QueryError(`Unknown field "${name}"`, `${p}[${i}]`);
      return name;
    });
  if (Array.isArray(v) || typeof v === "string") return new Set(["id", ...check(v, path)]);
  const o = object(v, path, "_source");
  onlyKeys(o, ["includes", "excludes"], path, "_source");
  const included = o.includes === undefined ? SOURCE_FIELDS : check(o.includes, `${path}.includes`);
  const excluded = new Set(o.excludes === undefined ? [] : check(o.excludes, `${path}.excludes`));
  return new Set(["id", ...included.filter((f) => !excluded.has(f))]);
}

/** Parses an advanced search body. `maxSize` bounds `size` (1,000 for search, 10,000 for CSV export). */
export function parseSearchBody(raw: Json, options: { maxSize?: number; defaultSize?: number } = {}): ParsedSearch {
  const body = object(raw ?? {}, "", "The search body");
  const maxSize = options.maxSize ?? ADVANCED_MAX_SIZE;
  for (const key of Object.keys(body)) {
    if (!["query", "highlight", "aggs", "aggregations", "size", "from", "sort", "_source", "track_total_hits"].includes(key)) {
      throw new QueryError(`Unsupported search option "${key}"`, key);
    }
  }
  const ctx = new QueryContext();
  const query = body.query === undefined ? ({ kind: "all" } as Node) : parseQuery(body.query, "query", ctx);
  const size = body.size === undefined ? (options.defaultSize ?? ADVANCED_DEFAULT_SIZE) : int(body.size, "size", 0, maxSize, "size");
  const from = body.from === undefined ? 0 : int(body.from, "from", 0, MAX_RESULT_WINDOW, "from");
  if (from + size > Math.max(MAX_RESULT_WINDOW, maxSize)) throw new QueryError(`from + size must be at most ${MAX_RESULT_WINDOW.toLocaleString("en-US")}`, "from");
  const track = body.track_total_hits;
  const trackTotalHits =
    track === undefined ? TRACK_TOTAL_HITS : track === true ? Infinity : track === false ? 0 : typeof track === "number" ? int(track, "track_total_hits", 0, 2 ** 31 - 1, "track_total_hits") : NaN;
  if (Number.isNaN(trackTotalHits)) throw new QueryError("track_total_hits must be true, false or a whole number", "track_total_hits");
  const aggs: { name: string; size: number }[] = [];
  const aggKey = body.aggs !== undefined ? "aggs" : "aggregations";
  if (body.aggs !== undefined && body.aggregations !== undefined) throw new QueryError("Give aggs or aggregations, not both", "aggregations");
  if (body[aggKey] !== undefined) {
    for (const [name, spec] of Object.entries(object(body[aggKey], aggKey, aggKey))) {
      const at = `${aggKey}.${name}`;
      const s = object(spec, at, "An aggregation");
      const types = Object.keys(s);
      if (types.length !== 1 || types[0] !== "terms") throw new QueryError(`Unsupported aggregation "${types.find((t) => t !== "terms") ?? types.join(",")}" (only terms on tags.name)`, `${at}.${types.find((t) => t !== "terms") ?? ""}`);
      const t = object(s.terms, `${at}.terms`, "terms");
      onlyKeys(t, ["field", "size"], `${at}.terms`, "terms aggregation");
      if (t.field !== "tags.name" && t.field !== "tags") throw new QueryError('terms aggregations are supported on "tags.name" only', `${at}.terms.field`);
      aggs.push({ name, size: t.size === undefined ? 10 : int(t.size, `${at}.terms.size`, 1, 1_000, "size") });
    }
  }
  return {
    query,
    ctx,
    size,
    from,
    sort: body.sort === undefined ? null : parseSort(body.sort, "sort"),
    highlight: body.highlight === undefined ? [] : parseHighlight(body.highlight, "highlight"),
    aggs,
    source: body._source === undefined ? null : parseSource(body._source, "_source"),
    trackTotalHits,
  };
}
