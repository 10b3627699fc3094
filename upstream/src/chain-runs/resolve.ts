/**
 * A form's variables resolved from the run's context (spec 3 §3 "Variable in a form", §4.3 breakpoint): the one
 * function behind `POST /api/v2/nlp/chains/variables/resolve` and a form link's pause, so both show the same values.
 *
 * - `claims`: the context's claims, the chosen ones when the user chose any (sorted by number; one in single-claim mode);
 *   `independentOnly` keeps the independent claims.
 * - a `source.docCode` (IDF, TRANSCRIPT): the text of the context's documents of that code (`context.documents`,
 *   each `{ docCode, createdAt, text }`), the newest, the oldest or all of them joined by a blank line.
 * - otherwise: the run's variable of that name, else the variable's own value, else the context's property of that name.
 *
 * When that finds nothing (null, empty text or list), the variable's default-value selector answers
 * (docs/decisions/chains.md "Default-value selector"): the field `property` of `which` (the invention, the context
 * document, a section of the document's output, the context's properties, a run variable), else its literal `value`.
 * A text variable gets text (a list joined); a boolean gets true/false or none.
 */
import type { JsonValue, RunContext, RunFormVariable } from "../../contract/chain-runs";
import { VARIABLE_DEFAULT_WHICH, takesDefault, type VariableDefaultWhich } from "../../contract/chains-constants";

export type VariableToResolve = {
  name: string;
  label?: string;
  type: string;
  value?: unknown;
  source?: { docCode: string; selector: string };
  independentOnly?: boolean;
  singleClaimMode?: boolean;
  /** Unknown here: the resolve endpoint passes its variables through; `defaultOf` reads only its known shape. */
  defaultValue?: unknown;
};

type Default = { which: VariableDefaultWhich; property: string; value: string };

type Claim = { claimNumber?: number; independentClaim?: boolean; selected?: boolean };
type ContextDocument = { docCode?: string; createdAt?: string; text?: string };

const objectOf = (v: unknown): Record<string, unknown> => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

function claimsOf(context: RunContext, v: VariableToResolve): Claim[] {
  const all = (Array.isArray(context.claims) ? context.claims : []).filter((c): c is Claim => !!c && typeof c === "object");
  const kept = v.independentOnly ? all.filter((c) => c.independentClaim !== false) : all;
  const sorted = [...kept].sort((a, b) => (a.claimNumber ?? 0) - (b.claimNumber ?? 0));
  const chosen = sorted.filter((c) => c.selected);
  const picked = chosen.length ? chosen : sorted;
  return v.singleClaimMode ? picked.slice(0, 1) : picked;
}

function documentText(context: RunContext, docCode: string, selector: string): string {
  const documents = (Array.isArray(objectOf(context).documents) ? (objectOf(context).documents as unknown[]) : [])
    .map(objectOf)
    .filter((d): d is ContextDocument => d.docCode === docCode && typeof d.text === "string")
    .sort((a, b) => String(a.createdAt ?? "").localeCompare(String(b.createdAt ?? "")));
  if (selector === "newest") return documents.at(-1)?.text ?? "";
  if (selector === "oldest") return documents[0]?.text ?? "";
  return paragraphs(documents.map((d) => d.text));
}

/** The variable's value: JSON, since the context and the variables came in JSON bodies. */
export function resolveVariable(v: VariableToResolve, context: RunContext, variables: Record<string, unknown>): JsonValue {
  return (resolveAny(v, context, variables) ?? null) as JsonValue;
}

const own = (o: Record<string, unknown>, key: string) => (Object.prototype.hasOwnProperty.call(o, key) ? o[key] : undefined);
const isEmpty = (x: unknown) => x === undefined || x === null || x === "" || (Array.isArray(x) && x.length === 0);

function resolveAny(v: VariableToResolve, context: RunContext, variables: Record<string, unknown>): unknown {
  if (v.type === "claims") return claimsOf(context, v);
  const found = resolveOwn(v, context, variables);
  const fallback = takesDefault(v.type) ? defaultOf(v.defaultValue) : null;
  if (!isEmpty(found) || !fallback) return found;
  const looked = lookUp(fallback, context, variables);
  const chosen = !isEmpty(looked) ? looked : fallback.value !== "" ? fallback.value : found;
  return v.type === "boolean" ? booleanOf(chosen) : textOf(chosen);
}

function resolveOwn(v: VariableToResolve, context: RunContext, variables: Record<string, unknown>): unknown {
  if (v.source?.docCode) return documentText(context, v.source.docCode, v.source.selector || "all");
  if (Object.prototype.hasOwnProperty.call(variables, v.name)) return variables[v.name];
  if (v.value !== undefined && v.value !== null && v.value !== "") return v.value;
  const property = own(objectOf(context.properties), v.name);
  return property ?? v.value ?? null;
}

/** The default-value selector of a variable, when it has one of the known shape (a saved chain's always has). */
function defaultOf(raw: unknown): Default | null {
  const d = objectOf(raw);
  const which = VARIABLE_DEFAULT_WHICH.find((w) => w === d.which);
  if (which === undefined || typeof d.property !== "string" || typeof d.value !== "string") return null;
  return { which, property: d.property, value: d.value };
}

/** The field `property` of the place `which` names; undefined when there is none. */
function lookUp({ which, property }: Default, context: RunContext, variables: Record<string, unknown>): unknown {
  if (!which || !property) return undefined;
  if (which === "variable") return own(variables, property);
  if (which === "invention") return own(objectOf(context.invention), property);
  if (which === "properties") return own(objectOf(context.properties), property);
  if (which === "output") return own(objectOf(context.output), property);
  // The context document: one of its fields (name, title, fileName, wordCount), else a section by its heading.
  const document = objectOf(context.document);
  const field = own(document, property);
  if (Array.isArray(field)) return paragraphs(field);
  if (field !== undefined && typeof field !== "object") return field;
  const section = own(objectOf(document.sectionsByHeading), property.trim().toLowerCase());
  return Array.isArray(section) ? paragraphs(section) : undefined;
}

const paragraphs = (list: unknown[]) => list.filter((p) => typeof p === "string").join("\n\n");

/** A default as a text variable holds it: text as is, a list of texts joined, a number written out; else JSON as is. */
function textOf(x: unknown): unknown {
  if (Array.isArray(x) && x.every((i) => typeof i === "string" || typeof i === "number")) return x.join(", ");
  if (typeof x === "number") return String(x);
  return x;
}

function booleanOf(x: unknown): boolean | null {
  if (typeof x === "boolean") return x;
  return x === "true" ? true : x === "false" ? false : null;
}

export function resolveVariables(list: readonly VariableToResolve[], context: RunContext, variables: Record<string, unknown>): RunFormVariable[] {
  return list.map((v) => ({
    name: v.name,
    label: v.label ?? "",
    type: v.type,
    value: resolveVariable(v, context, variables),
    singleClaimMode: v.singleClaimMode ?? false,
    independentOnly: v.independentOnly ?? false,
  }));
}
