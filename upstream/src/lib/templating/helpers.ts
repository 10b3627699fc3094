import type { Claim, ContextObject } from "../../../contract/nlp";

/** A Handlebars helper as registered: its arguments, then Handlebars' options object last. */
export type HelperFn = (...args: unknown[]) => unknown;

/**
 * The product's Handlebars helpers (documented for authors in nlp/helpers.ts; every example is rendered by a test),
 * with the two text functions the generator's tests also use.
 *
 * The function is self-contained (it reads nothing from the module around it): the render workers run its source
 * text (`productHelpers.toString()`, see runtime.ts), so that the same code runs under tsx, vitest and the bundled
 * server without a separate worker build. Only type imports may be used in it.
 */
export function productHelpers(): { helpers: Record<string, HelperFn>; claimRefs: (numbers: readonly number[]) => string; joinWords: (items: readonly string[], conjunction?: string) => string } {
  const isClaim = (v: unknown): v is Claim => !!v && typeof v === "object" && typeof (v as Claim).claimNumber === "number";
  const claimList = (v: unknown): Claim[] => (Array.isArray(v) ? v.filter(isClaim) : []);
  const str = (v: unknown): string => (v === undefined || v === null ? "" : String(v));
  /** Handlebars passes its options object last; helpers see only the arguments before it. */
  const args = (all: unknown[]): unknown[] => all.slice(0, -1);
  const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);
  const ORDINALS = ["zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth", "eighteenth", "nineteenth", "twentieth"];
  const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
  const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

  /** "a", "a and b", "a, b and c". */
  const joinWords = (items: readonly string[], conjunction = "and"): string => {
    const xs = items.filter((s) => s !== "");
    if (xs.length <= 1) return xs.join("");
    return `${xs.slice(0, -1).join(", ")} ${conjunction} ${xs[xs.length - 1]}`;
  };

  /** "claim 1", "claims 1 and 2", "claims 1-3 and 5": numbers sorted, runs of three or more as ranges. */
  const claimRefs = (numbers: readonly number[]): string => {
    const sorted = [...new Set(numbers.filter((n) => Number.isInteger(n)))].sort((a, b) => a - b);
    if (sorted.length === 0) return "";
    const parts: string[] = [];
    for (let i = 0; i < sorted.length; ) {
      let j = i;
      while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
      if (j - i >= 2) parts.push(`${sorted[i]}-${sorted[j]}`);
      else for (let k = i; k <= j; k++) parts.push(String(sorted[k]));
      i = j + 1;
    }
    return `${sorted.length === 1 ? "claim" : "claims"} ${joinWords(parts, "and")}`;
  };

  const helpers: Record<string, HelperFn> = {
      independentClaims: (...a) => claimList(args(a)[0]).filter((c) => c.independentClaim),
      dependentClaims: (...a) => {
        const [claims, parent] = args(a);
        const deps = claimList(claims).filter((c) => !c.independentClaim);
        return typeof parent === "number" ? deps.filter((c) => c.parentClaimNumbers.includes(parent)) : deps;
      },
      claim: (...a) => {
        const [claims, n] = args(a);
        return claimList(claims).find((c) => c.claimNumber === Number(n));
      },
      claimRefs: (...a) => claimRefs(list(args(a)[0]).map(Number)),
      claimBody: (...a) => {
        const c = args(a)[0];
        if (!isClaim(c)) return "";
        const rest = c.text.slice(c.preamble.length).replace(/^[\s,]*(comprising|comprises|consisting of|including|wherein|characteri[sz]ed in that)\s*:?\s*/i, "");
        return rest.split("\n").map((l) => l.trim()).filter(Boolean).join(" ");
      },
      withoutArticle: (...a) => str(args(a)[0]).replace(/^\s*(a|an|the)\s+/i, ""),
      ordinal: (...a) => {
        const n = Math.trunc(Number(args(a)[0]));
        if (!Number.isFinite(n)) return "";
        if (n >= 0 && n < ORDINALS.length) return ORDINALS[n];
        const tens = n % 100;
        const suffix = tens >= 11 && tens <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" } as Record<number, string>)[n % 10] ?? "th";
        return `${n}${suffix}`;
      },
      paragraphNumber: (...a) => `[${String(Math.trunc(Number(args(a)[0])) || 0).padStart(4, "0")}]`,
      add: (...a) => Number(args(a)[0]) + Number(args(a)[1]),
      count: (...a) => list(args(a)[0]).length,
      plural: (...a) => {
        const [n, one, many] = args(a);
        const count = Array.isArray(n) ? n.length : Number(n);
        return `${count} ${count === 1 ? str(one) : str(many)}`;
      },
      join: (...a) => {
        const [xs, sep, field] = args(a);
        return list(xs)
          .map((x) => (typeof field === "string" && x && typeof x === "object" ? str((x as Record<string, unknown>)[field]) : str(x)))
          .join(typeof sep === "string" ? sep : ", ");
      },
      joinWords: (...a) => {
        const [xs, conj, field] = args(a);
        const items = list(xs).map((x) =>
          typeof field === "string" && x && typeof x === "object" ? str((x as Record<string, unknown>)[field]) : str(x),
        );
        return joinWords(items, typeof conj === "string" ? conj : "and");
      },
      upper: (...a) => str(args(a)[0]).toUpperCase(),
      lower: (...a) => str(args(a)[0]).toLowerCase(),
      capitalize: (...a) => capitalize(str(args(a)[0])),
      lowerFirst: (...a) => lowerFirst(str(args(a)[0])),
      titleCase: (...a) =>
        str(args(a)[0])
          .split(/(\s+)/)
          .map((w, i) => (i > 0 && /^(a|an|the|of|and|or|to|in|for|on|with)$/i.test(w) ? w.toLowerCase() : capitalize(w)))
          .join(""),
      section: (...a) => {
        const options = a[a.length - 1] as { data?: { root?: ContextObject } };
        const key = str(args(a)[0]).trim().toLowerCase().replace(/:$/, "");
        return (options.data?.root?.sectionsByHeading?.[key] ?? []).join("\n\n");
      },
      firstSentence: (...a) => {
        const t = str(args(a)[0]).trim();
        const m = /^(.+?[.!?])(\s|$)/s.exec(t);
        return m?.[1] ?? t;
      },
      truncateWords: (...a) => {
        const [t, n] = args(a);
        const words = str(t).trim().split(/\s+/).filter(Boolean);
        const max = Math.max(0, Math.trunc(Number(n)));
        return words.length > max ? `${words.slice(0, max).join(" ")}…` : words.join(" ");
      },
      default: (...a) => {
        const [v, fb] = args(a);
        return v === undefined || v === null || v === "" || (Array.isArray(v) && v.length === 0) ? fb : v;
      },
      eq: (...a) => args(a)[0] === args(a)[1],
      gt: (...a) => Number(args(a)[0]) > Number(args(a)[1]),
      and: (...a) => args(a).every((v) => (Array.isArray(v) ? v.length > 0 : !!v)),
      or: (...a) => args(a).find((v) => (Array.isArray(v) ? v.length > 0 : !!v)) ?? false,
      not: (...a) => {
        const v = args(a)[0];
        return Array.isArray(v) ? v.length === 0 : !v;
      },
  };
  return { helpers, claimRefs, joinWords };
}
