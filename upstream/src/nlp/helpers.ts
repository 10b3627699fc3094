import type { Claim, ContextObject, HelperFunction } from "../../contract/nlp";
import { productHelpers } from "../lib/templating";


const sampleClaims: Claim[] = [
  {
    claimNumber: 1,
    preamble: "A widget",
    text: "A widget, comprising:\na frame; and\na spring attached to the frame.",
    independentClaim: true,
    parentClaimNumbers: [],
  },
  {
    claimNumber: 2,
    preamble: "The widget of claim 1",
    text: "The widget of claim 1, wherein the spring is made of steel.",
    independentClaim: false,
    parentClaimNumbers: [1],
  },
  {
    claimNumber: 3,
    preamble: "The widget of claim 1 or 2",
    text: "The widget of claim 1 or 2, wherein the frame is aluminium.",
    independentClaim: false,
    parentClaimNumbers: [1, 2],
  },
  {
    claimNumber: 4,
    preamble: "A method of making a widget",
    text: "A method of making a widget, comprising:\ncutting a frame; and\nattaching a spring to the frame.",
    independentClaim: true,
    parentClaimNumbers: [],
  },
];

/** The context object the documentation shows and every helper example renders against. */
export const SAMPLE_CONTEXT: ContextObject = {
  fileName: "widget.docx",
  title: "Spring-loaded widget",
  paragraphs: [
    "Spring-loaded widget",
    "TECHNICAL FIELD",
    "The invention relates to widgets.",
    "CLAIMS",
    ...sampleClaims.map((c) => `${c.claimNumber}. ${c.text}`),
  ],
  sections: [
    { heading: "TECHNICAL FIELD", level: 1, paragraphs: ["The invention relates to widgets."] },
    { heading: "CLAIMS", level: 1, paragraphs: sampleClaims.map((c) => `${c.claimNumber}. ${c.text}`) },
  ],
  sectionsByHeading: {
    "technical field": ["The invention relates to widgets."],
    claims: sampleClaims.map((c) => `${c.claimNumber}. ${c.text}`),
  },
  claims: sampleClaims,
  independentClaims: sampleClaims.filter((c) => c.independentClaim),
  wordCount: 61,
};

export const CONTEXT_FIELDS = [
  { name: "fileName", type: "string", description: "The uploaded document's file name." },
  { name: "title", type: "string", description: "The document title (document properties, else the Title paragraph, else the first paragraph)." },
  { name: "paragraphs", type: "string[]", description: "Every non-empty paragraph in document order, headings included." },
  { name: "sections", type: "{heading, level, paragraphs}[]", description: "The document split at its headings (heading styles, or upper-case one-line headings such as TECHNICAL FIELD)." },
  { name: "sectionsByHeading", type: "Record<string, string[]>", description: 'Section paragraphs by lower-cased heading: {{join (lookup sectionsByHeading "technical field") " "}}.' },
  { name: "claims", type: "{claimNumber, preamble, text, independentClaim, parentClaimNumbers}[]", description: 'The claims: numbered paragraphs after a "Claims" or "What is claimed is" heading.' },
  { name: "independentClaims", type: "Claim[]", description: "The claims that refer to no other claim." },
  { name: "wordCount", type: "number", description: "Words in the document." },
] as const;

const { helpers: IMPLEMENTATIONS, claimRefs, joinWords } = productHelpers();
export { claimRefs, joinWords };

/**
 * The documentation of the product's helpers (GET /api/nlp/api/v1/generator/documentation); their code is in
 * lib/templating/helpers.ts, which the render workers run. Every example is rendered by a test.
 */
export const HELPERS: readonly HelperFunction[] = [
  {
    name: "independentClaims",
    description: "The independent claims of a claim list (claims that refer to no other claim).",
    requirements: "A list of claims, usually `claims`. Use with #each.",
    arguments: [{ name: "claims", type: "Claim[]", description: "The claims to filter." }],
    example: { template: "{{#each (independentClaims claims)}}{{claimNumber}} {{/each}}", output: "1 4 " },
  },
  {
    name: "dependentClaims",
    description: "The dependent claims of a claim list; with a claim number, only the claims that refer to that claim.",
    requirements: "A list of claims, usually `claims`. Use with #each.",
    arguments: [
      { name: "claims", type: "Claim[]", description: "The claims to filter." },
      { name: "parent", type: "number (optional)", description: "Keep only the claims referring to this claim." },
    ],
    example: { template: "{{#each (dependentClaims claims 2)}}{{claimNumber}}{{/each}}", output: "3" },
  },
  {
    name: "claim",
    description: "The claim with the given number, or nothing when there is none.",
    requirements: "A list of claims and a claim number. Use with #with or as a sub-expression.",
    arguments: [
      { name: "claims", type: "Claim[]", description: "The claims to search." },
      { name: "number", type: "number", description: "The claim number." },
    ],
    example: { template: "{{#with (claim claims 4)}}{{preamble}}{{/with}}", output: "A method of making a widget" },
  },
  {
    name: "claimRefs",
    description: 'Writes claim numbers the way claims cite them: "claim 1", "claims 1 and 2", "claims 1-3 and 5".',
    requirements: "A list of claim numbers, such as a claim's parentClaimNumbers.",
    arguments: [{ name: "numbers", type: "number[]", description: "The claim numbers." }],
    example: { template: "{{#with (claim claims 3)}}{{claimRefs parentClaimNumbers}}{{/with}}", output: "claims 1 and 2" },
  },
  {
    name: "claimBody",
    description: "A claim's text after its preamble and transitional phrase (what follows \"comprising:\"), lines joined with spaces.",
    requirements: "A claim.",
    arguments: [{ name: "claim", type: "Claim", description: "The claim." }],
    example: { template: "{{claimBody (claim claims 2)}}", output: "the spring is made of steel." },
  },
  {
    name: "withoutArticle",
    description: 'Removes a leading "A", "An" or "The": turns a preamble into a noun phrase to reuse in a sentence.',
    requirements: "A text.",
    arguments: [{ name: "text", type: "string", description: "The text." }],
    example: { template: 'The present {{withoutArticle (lookup (claim claims 1) "preamble")}} is light.', output: "The present widget is light." },
  },
  {
    name: "ordinal",
    description: 'A number as an ordinal word ("first", "second" … "twentieth"), then "21st", "22nd" and so on.',
    requirements: "A whole number.",
    arguments: [{ name: "n", type: "number", description: "The number." }],
    example: { template: "the {{ordinal 2}} embodiment", output: "the second embodiment" },
  },
  {
    name: "paragraphNumber",
    description: "A patent paragraph number in brackets, zero-padded to four digits: [0001].",
    requirements: "A number; inside #each use (add @index 1).",
    arguments: [{ name: "n", type: "number", description: "The paragraph number." }],
    example: { template: "{{#each (independentClaims claims)}}{{paragraphNumber (add @index 1)}} {{/each}}", output: "[0001] [0002] " },
  },
  {
    name: "add",
    description: "Adds two numbers (for numbering from 1 with @index).",
    requirements: "Two numbers.",
    arguments: [
      { name: "a", type: "number", description: "First number." },
      { name: "b", type: "number", description: "Second number." },
    ],
    example: { template: "{{#each claims}}{{add @index 1}}{{/each}}", output: "1234" },
  },
  {
    name: "count",
    description: "How many items a list holds (0 for nothing).",
    requirements: "A list.",
    arguments: [{ name: "list", type: "unknown[]", description: "The list." }],
    example: { template: "{{count claims}} claims, {{count independentClaims}} independent", output: "4 claims, 2 independent" },
  },
  {
    name: "plural",
    description: "A count with the singular or plural word: \"1 claim\", \"4 claims\".",
    requirements: "A number (or a list, counted) and the two word forms.",
    arguments: [
      { name: "n", type: "number | list", description: "The count, or a list to count." },
      { name: "singular", type: "string", description: "Word for one." },
      { name: "plural", type: "string", description: "Word for any other count." },
    ],
    example: { template: "{{plural independentClaims \"independent claim\" \"independent claims\"}}", output: "2 independent claims" },
  },
  {
    name: "join",
    description: "Joins a list with a separator; with a field name, joins that field of each item.",
    requirements: "A list and a separator.",
    arguments: [
      { name: "list", type: "unknown[]", description: "The items." },
      { name: "separator", type: "string", description: 'Put between items (default ", ").' },
      { name: "field", type: "string (optional)", description: "Join this field of each item instead of the item." },
    ],
    example: { template: '{{join claims "; " "claimNumber"}}', output: "1; 2; 3; 4" },
  },
  {
    name: "joinWords",
    description: 'Joins a list as in a sentence: "a, b and c"; the conjunction can be changed ("or").',
    requirements: "A list; optionally a conjunction and a field name.",
    arguments: [
      { name: "list", type: "unknown[]", description: "The items." },
      { name: "conjunction", type: "string (optional)", description: 'The last joining word (default "and").' },
      { name: "field", type: "string (optional)", description: "Join this field of each item instead of the item." },
    ],
    example: { template: '{{joinWords (independentClaims claims) "or" "preamble"}}', output: "A widget or A method of making a widget" },
  },
  {
    name: "upper",
    description: "Upper case.",
    requirements: "A text.",
    arguments: [{ name: "text", type: "string", description: "The text." }],
    example: { template: "{{upper title}}", output: "SPRING-LOADED WIDGET" },
  },
  {
    name: "lower",
    description: "Lower case.",
    requirements: "A text.",
    arguments: [{ name: "text", type: "string", description: "The text." }],
    example: { template: "{{lower title}}", output: "spring-loaded widget" },
  },
  {
    name: "capitalize",
    description: "Upper-cases the first letter.",
    requirements: "A text.",
    arguments: [{ name: "text", type: "string", description: "The text." }],
    example: { template: '{{capitalize (withoutArticle (lookup (claim claims 4) "preamble"))}}', output: "Method of making a widget" },
  },
  {
    name: "lowerFirst",
    description: 'Lower-cases the first letter, to continue a sentence with a preamble: "there is provided a widget".',
    requirements: "A text.",
    arguments: [{ name: "text", type: "string", description: "The text." }],
    example: { template: 'There is provided {{lowerFirst (lookup (claim claims 1) "preamble")}}.', output: "There is provided a widget." },
  },
  {
    name: "titleCase",
    description: "Upper-cases the first letter of every word except short joining words (a, an, the, of, and, or, to, in, for, on, with).",
    requirements: "A text.",
    arguments: [{ name: "text", type: "string", description: "The text." }],
    example: { template: '{{titleCase "method of making a widget"}}', output: "Method of Making a Widget" },
  },
  {
    name: "section",
    description: "The paragraphs of the section with this heading (case-insensitive), joined with blank lines; empty when missing.",
    requirements: "A heading of the uploaded document.",
    arguments: [{ name: "heading", type: "string", description: "The section heading, e.g. \"Technical field\"." }],
    example: { template: '{{section "Technical Field"}}', output: "The invention relates to widgets." },
  },
  {
    name: "firstSentence",
    description: "The first sentence of a text (up to the first full stop followed by a space).",
    requirements: "A text.",
    arguments: [{ name: "text", type: "string", description: "The text." }],
    example: { template: "{{firstSentence \"The spring is steel. It is strong.\"}}", output: "The spring is steel." },
  },
  {
    name: "truncateWords",
    description: 'At most n words of a text, with "…" when cut (abstracts are limited to 150 words).',
    requirements: "A text and a word count.",
    arguments: [
      { name: "text", type: "string", description: "The text." },
      { name: "n", type: "number", description: "The number of words to keep." },
    ],
    example: { template: '{{truncateWords (lookup (claim claims 1) "text") 3}}', output: "A widget, comprising:…" },
  },
  {
    name: "default",
    description: "The value, or the fallback when the value is empty.",
    requirements: "Two values.",
    arguments: [
      { name: "value", type: "unknown", description: "The value." },
      { name: "fallback", type: "unknown", description: "Used when value is missing, empty or an empty list." },
    ],
    example: { template: '{{default (section "Background") "No background."}}', output: "No background." },
  },
  {
    name: "eq",
    description: "True when two values are equal: for conditional sections, {{#if (eq a b)}}…{{/if}}.",
    requirements: "Two values.",
    arguments: [
      { name: "a", type: "unknown", description: "First value." },
      { name: "b", type: "unknown", description: "Second value." },
    ],
    example: { template: "{{#if (eq (count independentClaims) 2)}}two independent claims{{/if}}", output: "two independent claims" },
  },
  {
    name: "gt",
    description: "True when the first number is greater than the second.",
    requirements: "Two numbers.",
    arguments: [
      { name: "a", type: "number", description: "First number." },
      { name: "b", type: "number", description: "Second number." },
    ],
    example: { template: "{{#if (gt (count claims) 3)}}many claims{{else}}few claims{{/if}}", output: "many claims" },
  },
  {
    name: "and",
    description: "True when every argument is truthy (an empty list is false).",
    requirements: "Two or more values.",
    arguments: [{ name: "values", type: "unknown…", description: "The values." }],
    example: { template: "{{#if (and claims title)}}ready{{/if}}", output: "ready" },
  },
  {
    name: "or",
    description: "The first truthy argument (an empty list is false), else false.",
    requirements: "Two or more values.",
    arguments: [{ name: "values", type: "unknown…", description: "The values." }],
    example: { template: '{{or (section "Summary") title}}', output: "Spring-loaded widget" },
  },
  {
    name: "not",
    description: "True when the value is falsy (an empty list counts as falsy).",
    requirements: "A value.",
    arguments: [{ name: "value", type: "unknown", description: "The value." }],
    example: { template: '{{#if (not (section "Background"))}}no background{{/if}}', output: "no background" },
  },
];

export const HELPER_NAMES: ReadonlySet<string> = new Set(HELPERS.map((h) => h.name));

/** The documented helpers that have no implementation, and the implemented ones left undocumented (both empty). */
export function undocumentedHelpers(): { missing: string[]; undocumented: string[] } {
  return {
    missing: HELPERS.map((h) => h.name).filter((name) => !(name in IMPLEMENTATIONS)),
    undocumented: Object.keys(IMPLEMENTATIONS).filter((name) => !HELPER_NAMES.has(name)),
  };
}

/** The documentation as answered. */
export function helperDocumentation(): HelperFunction[] {
  return HELPERS.map((doc) => ({ ...doc }));
}
