import type { ContextObject, Section } from "../../contract/nlp";
import { isClaimsHeading, parseClaims } from "./claims";
import type { ParsedDocx } from "./docx";

/** Upper-case one-liners such as "TECHNICAL FIELD" are headings in many patent drafts that use no heading styles. */
function looksLikeHeading(text: string): boolean {
  const t = text.trim();
  return t.length > 2 && t.length <= 80 && /[A-Z]/.test(t) && t === t.toUpperCase() && !/[.;,]$/.test(t);
}

/** Builds the context object of one document: what templates are rendered against. */
export function buildContext(fileName: string, doc: ParsedDocx): ContextObject {
  const paragraphs = doc.paragraphs.map((p) => p.text.trim()).filter(Boolean);
  const sections: Section[] = [];
  let current: Section = { heading: "", level: 0, paragraphs: [] };
  for (const p of doc.paragraphs) {
    const text = p.text.trim();
    if (!text) continue;
    if (p.headingLevel === 0 && text === doc.title) continue;
    const level = p.headingLevel ?? (isClaimsHeading(text) || looksLikeHeading(text) ? 1 : null);
    if (level !== null && level > 0) {
      if (current.heading || current.paragraphs.length) sections.push(current);
      current = { heading: text.replace(/:$/, ""), level, paragraphs: [] };
    } else current.paragraphs.push(text);
  }
  if (current.heading || current.paragraphs.length) sections.push(current);
  const sectionsByHeading: Record<string, string[]> = {};
  for (const s of sections) {
    const key = s.heading.toLowerCase();
    sectionsByHeading[key] = [...(sectionsByHeading[key] ?? []), ...s.paragraphs];
  }
  const claims = parseClaims(doc.paragraphs);
  return {
    fileName,
    title: doc.title,
    paragraphs,
    sections,
    sectionsByHeading,
    claims,
    independentClaims: claims.filter((c) => c.independentClaim),
    wordCount: paragraphs.reduce((n, p) => n + (p.match(/\S+/g)?.length ?? 0), 0),
  };
}
