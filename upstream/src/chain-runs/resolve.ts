/**
 * A form's variables resolved from the run's context (spec 3 §3 "Variable in a form", §4.3 breakpoint): the one
 * function behind `POST /api/v2/nlp/chains/variables/resolve` and a form link's pause, so both show the same values.
 *
 * - `claims`: the context's claims, the chosen ones when the user chose any (sorted by number; one in single-claim mode);
 *   `independentOnly` keeps the independent claims.
 * - a `source.docCode` (IDF, TRANSCRIPT): the text of the context's documents of that code (`context.documents`,
 *   each `{ docCode, createdAt, text }`), the newest, the oldest or all of them joined by a blank line.
 * - otherwise: the run's variable of that name, else the variable's own value, else the context's property of that name.
 */
import type { JsonValue, RunContext, RunFormVariable } from "../../contract/chain-runs";

export type VariableToResolve = {
  name: string;
  label?: string;
  type: string;
  value?: unknown;
  source?: { docCode: string; selector: string };
  independentOnly?: boolean;
  singleClaimMode?: boolean;
};

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
  return documents.map((d) => d.text).join("\n\n");
}

/** The variable's value: JSON, since the context and the variables came in JSON bodies. */
export function resolveVariable(v: VariableToResolve, context: RunContext, variables: Record<string, unknown>): JsonValue {
  return (resolveAny(v, context, variables) ?? null) as JsonValue;
}

function resolveAny(v: VariableToResolve, context: RunContext, variables: Record<string, unknown>): unknown {
  if (v.type === "claims") return claimsOf(context, v);
  if (v.source?.docCode) return documentText(context, v.source.docCode, v.source.selector || "all");
  if (Object.prototype.hasOwnProperty.call(variables, v.name)) return variables[v.name];
  if (v.value !== undefined && v.value !== null && v.value !== "") return v.value;
  const property = objectOf(context.properties)[v.name];
  return property ?? v.value ?? null;
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
