import type { Claim } from "../../contract/nlp";
import type { DocParagraph } from "./docx";

/** Headings that open the claims section (whole paragraph, case-insensitive, optional colon). */
const CLAIMS_HEADING =
  /^(?:claims|the claims|patent claims|what is claimed is|what is claimed|what we claim is|we claim|i claim|claimed is|the invention claimed is|it is claimed|having thus described the invention,? what is claimed is)\s*:?$/i;
/** Headings that close it when they are not styled as headings. */
const AFTER_CLAIMS = /^(?:abstract|abstract of the disclosure|abstract of the invention)\s*:?$/i;
/** "1. A method…", "1) A method…", "Claim 1. A method…", "1 A method" is not enough (too easy to misread). */
const LITERAL_NUMBER = /^\s*(?:claim\s+)?(\d{1,4})\s*[.):]\s*(.*)$/is;
/** A reference to earlier claims: "claim 1", "claims 1 or 2", "claims 1-3", "any one of claims 1 to 3, 5 and 7". */
const REFERENCE =
  /\bclaims?\s+(\d{1,4}(?:\s*(?:-|–|—|to|through|,|or|and|, or|, and)\s*(?:claims?\s+)?\d{1,4})*)/i;
const TRANSITION =
  /,?\s*\b(?:further\s+)?(?:comprising|comprises|consisting essentially of|consisting of|including|includes|characteri[sz]ed in that|characteri[sz]ed by|wherein|whereby|in which)\b/i;

export const isClaimsHeading = (text: string) => CLAIMS_HEADING.test(text.trim().replace(/\s+/g, " "));

/** The claim numbers a claim refers to: every number and range in its first reference, below its own number. */
export function parentClaimNumbers(text: string, own: number): number[] {
  const m = REFERENCE.exec(text);
  if (!m?.[1]) return [];
  const numbers = new Set<number>();
  const parts = m[1].replace(/claims?/gi, "").split(/\s*(?:,\s*and|,\s*or|,|\bor\b|\band\b)\s*/i);
  for (const part of parts) {
    const range = /^(\d+)\s*(?:-|–|—|to|through)\s*(\d+)$/i.exec(part.trim());
    if (range) {
      const from = Number(range[1]);
      const to = Number(range[2]);
      for (let n = Math.min(from, to); n <= Math.max(from, to) && n - from < 500; n++) numbers.add(n);
    } else if (/^\d+$/.test(part.trim())) numbers.add(Number(part.trim()));
  }
  return [...numbers].filter((n) => n >= 1 && n < own).sort((a, b) => a - b);
}

/** The words before the transitional phrase: "A method of making a widget" for "A method of making a widget, comprising:". */
export function preambleOf(text: string): string {
  const firstLine = text.split("\n")[0] ?? "";
  const m = TRANSITION.exec(firstLine);
  const head = m ? firstLine.slice(0, m.index) : (firstLine.split(":")[0] ?? firstLine);
  return head.replace(/[\s,:;]+$/, "").trim();
}

function makeClaim(claimNumber: number, lines: string[]): Claim {
  const text = lines.map((l) => l.trim()).filter(Boolean).join("\n");
  const parents = parentClaimNumbers(text, claimNumber);
  return {
    claimNumber,
    preamble: preambleOf(text),
    text,
    independentClaim: parents.length === 0,
    parentClaimNumbers: parents,
  };
}

/**
 * The claims of a document: the numbered paragraphs after the last "Claims" / "What is claimed is" heading, up to the
 * next heading (or "Abstract"). A claim starts with a literal number ("1. A method…") or a top-level Word-numbered
 * paragraph; other paragraphs (claim elements, sub-lists) belong to the claim before them. Dependent claims are found
 * from their wording ("according to claim 1", "of claims 1 or 2", "as claimed in any of claims 1 to 3").
 */
export function parseClaims(paragraphs: readonly DocParagraph[]): Claim[] {
  let start = -1;
  paragraphs.forEach((p, i) => {
    if (isClaimsHeading(p.text)) start = i;
  });
  if (start < 0) return [];
  const claims: Claim[] = [];
  let current: { n: number; lines: string[] } | null = null;
  const flush = () => {
    if (current) claims.push(makeClaim(current.n, current.lines));
    current = null;
  };
  for (const p of paragraphs.slice(start + 1)) {
    const text = p.text.trim();
    if (!text) continue;
    if (p.headingLevel !== null || AFTER_CLAIMS.test(text)) break;
    const literal = LITERAL_NUMBER.exec(text);
    const previous: number = claims.length ? claims[claims.length - 1]!.claimNumber : 0;
    const currentNumber: number = current ? (current as { n: number }).n : previous;
    if (literal && Number(literal[1]) === currentNumber + 1) {
      flush();
      current = { n: Number(literal[1]), lines: [literal[2] ?? ""] };
    } else if (p.numbered && p.numberLevel === 0) {
      flush();
      current = { n: currentNumber + 1, lines: [text] };
    } else if (current) {
      (current as { lines: string[] }).lines.push(text);
    } else if (literal) {
      // The first claim need not be numbered 1 (a continuation's claims may start at 21).
      current = { n: Number(literal[1]), lines: [literal[2] ?? ""] };
    }
  }
  flush();
  return claims;
}
