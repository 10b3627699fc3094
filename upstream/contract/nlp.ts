import { z } from "zod";
import { FileRef, MAX_FILE_BYTES } from "./files";

/** The generator's refusal of an empty document (file or text). */
const DOCUMENT_REQUIRED = "Document content is required";

/** Largest .docx the generator accepts (the decoded file). */
export const MAX_DOCUMENT_BYTES = MAX_FILE_BYTES;

/** A Word document sent to the generator: its file name and its bytes as base64. */
export const DocumentContent = z.object({
  name: z.string().trim().min(1).max(255),
  content: z.string().min(1, DOCUMENT_REQUIRED),
});
export type DocumentContent = z.infer<typeof DocumentContent>;

/**
 * The document of a generator call: its bytes (`{ name, content }`, base64), or an upload kept on the server
 * (`{ fileId }`, from POST /api/files, the caller's own and unexpired: else 404 "File not found.").
 */
export const DocumentInput = z.union([DocumentContent, FileRef]);
export type DocumentInput = z.infer<typeof DocumentInput>;

/** One claim parsed from the claims section (spec 1 §7, parser/parse). */
export const Claim = z.object({
  claimNumber: z.number().int().positive(),
  /** The text before the transitional phrase ("comprising", "wherein", ...), without the number. */
  preamble: z.string(),
  /** The whole claim without its number; elements on their own lines. */
  text: z.string(),
  independentClaim: z.boolean(),
  /** The claims this one refers to ("according to claim 1", "of claims 1 or 2"); empty for independent claims. */
  parentClaimNumbers: z.array(z.number().int().positive()),
});
export type Claim = z.infer<typeof Claim>;

/** POST /api/nlp/api/v1/parser/parse */
export const ParseBody = z.object({
  /** The .docx as base64, or `{ fileId }` of an upload. */
  document: z.union([z.string().min(1, DOCUMENT_REQUIRED), FileRef]),
  sections: z.array(z.enum(["claims"])).optional().default(["claims"]),
});
export const ParseAnswer = z.object({ claims: z.object({ claims: z.array(Claim) }) });
export type ParseAnswer = z.infer<typeof ParseAnswer>;

/** A template sent to the generator. `claims`: the claim numbers to use (all when absent or empty). */
export const TemplateInput = z.object({
  name: z.string().max(255).optional().default("template"),
  body: z.string().max(500_000),
  params: z.array(z.string()).optional(),
  claims: z.array(z.number().int().positive()).optional(),
});
export type TemplateInput = z.input<typeof TemplateInput>;

export const Section = z.object({ heading: z.string(), level: z.number().int(), paragraphs: z.array(z.string()) });
export type Section = z.infer<typeof Section>;

/** What a template is rendered against: everything read from one Word document. */
export const ContextObject = z.object({
  fileName: z.string(),
  title: z.string(),
  /** Every non-empty paragraph in document order (headings included). */
  paragraphs: z.array(z.string()),
  /** The document split at its headings; text before the first heading is a section with an empty heading. */
  sections: z.array(Section),
  /** Section paragraphs by lower-cased heading: `(lookup sectionsByHeading "technical field")`. */
  sectionsByHeading: z.record(z.array(z.string())),
  claims: z.array(Claim),
  independentClaims: z.array(Claim),
  wordCount: z.number().int().nonnegative(),
});
export type ContextObject = z.infer<typeof ContextObject>;

/** POST /api/nlp/api/v1/generator/contextObject */
export const ContextObjectBody = z.object({ templates: z.array(TemplateInput).max(20).default([]), document: DocumentInput });
/** Keyed by the document's file name. */
export const ContextObjectAnswer = z.record(ContextObject);
export type ContextObjectAnswer = z.infer<typeof ContextObjectAnswer>;

/** POST /api/nlp/api/v1/generator/generate */
export const GenerateBody = z.object({ templates: z.array(TemplateInput).min(1).max(20), document: DocumentInput });
const Run = z.object({ text: z.string(), break: z.boolean().optional() });
export const Paragraph = z.object({ template: z.string(), runs: z.array(Run) });
export type Paragraph = z.infer<typeof Paragraph>;
/** The rendered text split at blank lines into paragraphs; each line of a paragraph is a run (`break`: starts a new line). */
export const GenerateAnswer = z.object({ paragraphs: z.array(Paragraph) });
export type GenerateAnswer = z.infer<typeof GenerateAnswer>;

/** Joins generated paragraphs as the back office shows them: runs of a paragraph, paragraphs with blank lines. */
export function joinParagraphs(paragraphs: readonly Paragraph[]): string {
  return paragraphs
    .map((p) => p.runs.map((r, i) => (i > 0 && r.break ? `\n${r.text}` : r.text)).join(""))
    .join("\n\n");
}

const HelperArgument = z.object({ name: z.string(), type: z.string(), description: z.string() });
const HelperExample = z.object({ template: z.string(), output: z.string() });
export const HelperFunction = z.object({
  name: z.string(),
  description: z.string(),
  requirements: z.string(),
  arguments: z.array(HelperArgument),
  example: HelperExample,
});
export type HelperFunction = z.infer<typeof HelperFunction>;

/** GET /api/nlp/api/v1/generator/documentation. `contextObject`: a sample the helpers' examples render against. */
export const Documentation = z.object({
  helperFunctions: z.array(HelperFunction),
  contextObject: z.object({
    description: z.string(),
    fields: z.array(z.object({ name: z.string(), type: z.string(), description: z.string() })),
    sample: ContextObject,
  }),
});
export type Documentation = z.infer<typeof Documentation>;
