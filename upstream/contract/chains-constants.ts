/**
 * Prompt chains (spec 3 §2.8, §2.9, §3, §5, §8, §9): bounds, link types, option lists and texts. No zod here, so a
 * route module that only needs a text or a list does not ship zod to the browser; the schemas are in chains.ts.
 */

/** The API path of the chains (spec 3 §7 "CRUD /api/prompts/"). */
export const CHAINS_PATH = "/api/prompts";

/** Every bound of a chain document, checked before any work on it (docs/decisions/chains.md). */
export const CHAIN_LIMITS = {
  /** Links of one chain: far above what a person edits by hand, low enough that a save's checks stay in milliseconds. */
  links: 200,
  linkName: 100,
  /** Messages of one prompt or chat link. */
  messages: 100,
  /** One message, template, mermaid or AI-content template (a chain is a document of prompts, not of books). */
  text: 100_000,
  /** Form variables of one form link. */
  variables: 100,
  variableName: 100,
  variableValue: 10_000,
  /** Model params of one link, and options of one param. */
  params: 50,
  paramValue: 1_000,
  functions: 50,
  /** Image variable names attached to one message or prompt. */
  attachments: 20,
  /** Files of one content link, and the base64 text of one (the upstream's 1 MB body bound is the real limit). */
  files: 10,
  fileBase64: 900_000,
  /** One content file as uploaded: its base64 (4/3 of it) stays under `fileBase64` and a draft under the body bound. */
  fileBytes: 600 * 1024,
  /** One image attached to a message as uploaded, and as base64: several fit in one draft under the body bound. */
  imageBytes: 200 * 1024,
  imageBase64: 280_000,
  maxTokens: 1_000_000,
  organizations: 200,
  categories: 100,
  comment: 2_000,
} as const;

/** Link types a chain holds (spec 3 §3); `chat` is the chain's one chat, kept apart from the links. */
export const LINK_TYPES = ["prompt", "query", "template", "form", "content"] as const;
export type LinkType = (typeof LINK_TYPES)[number];

export const MESSAGE_ROLES = ["system", "user", "assistant"] as const;
/** Form variable types (spec 3 §3; providers may add more, so the contract takes any bounded name). */
export const VARIABLE_TYPES = ["string", "image", "claims", "boolean"] as const;
/** Document codes and selectors of a form variable's source (spec 3 §9). */
export const DOC_CODES = ["", "IDF", "TRANSCRIPT"] as const;
export const SELECTORS = ["all", "newest", "oldest"] as const;
export const CONTENT_SOURCE_TYPES = ["file", "mermaid", "ai"] as const;
/** Files a content link accepts (spec 3 §5). */
export const CONTENT_FILE_TYPES = ["docx", "vsdx", "png", "jpeg", "jpg", "svg"] as const;
/** Images a vision model's user message takes as an upload (the image types of spec 3 §5's upload list). */
export const IMAGE_FILE_TYPES = ["png", "jpeg", "jpg"] as const;

/** Chain options (spec 3 §2.9): the section a result is inserted in, and where. The empty value means none. */
export const INSERT_IN = [
  "",
  "Title",
  "PriorityClaim",
  "TechnicalField",
  "Background",
  "Summary",
  "BriefDescription",
  "DetailedDescription",
  "Claims",
  "Abstract",
  "Document",
] as const;
export const INSERT_AT = ["", "Start", "End", "Replace"] as const;

/** Spec 3 §9 defaults. */
export const CHAIN_DEFAULTS = { temperature: 0.7, maxTokens: null, includeHistory: true } as const;

/** Minimum name length (spec 3 §9). */
export const MIN_CHAIN_NAME = 4;

/** "PROMPT 1", "QUERY 2": a new link's default name (spec 3 §3). */
export const defaultLinkName = (type: LinkType, n: number) => `${type.toUpperCase()} ${n}`;

/**
 * The session variable holding a link's output (spec 3 §3: TYPE_n_OUTPUT, e.g. PROMPT_1_OUTPUT): the link's name in
 * capitals, each run of other characters than letters and digits as one underscore.
 */
export const outputVariable = (linkName: string) =>
  `${linkName
    .trim()
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, "_")
    .replace(/^_|_$/g, "")}_OUTPUT`;

/** Texts of the chain screens and the upstream's refusals (spec 3 §5, §8), verbatim. */
export const CHAIN_MESSAGES = {
  nameRequired: "Name is required",
  nameShort: "Name must be at least 4 characters.",
  modelNotAllowed: "Not all organizations this is chain assigned for allow selected model",
  chatModelNotAllowed: "Not all organizations this chat is assigned for allow selected model",
  notFound: "Chain not found.",
  saveFailed: "Failed to save prompt. Check your input and try again.",
  /** The 400 of a save whose document has problems; each problem follows, named by link and field. */
  invalid: "The chain has problems: nothing was saved.",
  unknownModel: "This model does not exist.",
  usedBeforeDefined: (variable: string, link: number) =>
    `{{${variable}}} is used before link ${link} defines it.`,
  undefinedLink: (variable: string) => `{{${variable}}} is the output of no link of this chain.`,
  /** Spec 3 §5: a chat is one per chain, and goes when the last link does. */
  chatWithoutLinks: "A chat needs at least one link.",
  duplicateLinkId: "Two links have the same id.",
  historyNotFound: "Version not found.",
  draftNotFound: "Draft not found.",
  alreadyActive: "This version is already the active one.",
  /** A message's images: only a vision model reads them, and only on a user message before the last user message. */
  imagesNotAllowed: "Images can be attached only for a vision model, to a user message that is not the last one.",
  fileType: (types: readonly string[]) => `Accepted files: ${types.map((t) => `.${t}`).join(", ")}.`,
  fileTooLarge: (kb: number) => `The file is larger than ${kb} KB.`,
  tooManyFiles: (n: number) => `A content link holds at most ${n} files.`,
  tooLarge: "The chain is too large to save: remove some of its files or images.",
  /** An AI content link's model draws; a prompt's or the chat's answers in text (spec 3 §3 model capability). */
  notImageModel: "An AI content link needs an image-generation model.",
  imageModelInText: "An image-generation model does not answer in text: choose a chat model.",
} as const;

/** Where a problem of a chain document is: the link's index (0-based; null for the chain or its chat) and field. */
export type ChainProblem = { link: number | null; chat?: boolean; field: string; message: string };

/** "Link 2 (PROMPT 2), model: …": a problem as one line. */
export const problemText = (p: ChainProblem, linkName?: string) =>
  `${p.chat ? "Chat" : p.link === null ? "Chain" : `Link ${p.link + 1}${linkName ? ` (${linkName})` : ""}`}, ${p.field}: ${p.message}`;

/** A new prompt link's messages (spec 3 §3): the patent-attorney persona and a user message. */
export const DEFAULT_PROMPT_MESSAGES = [
  { role: "system", content: "You are an experienced patent attorney. Answer precisely, in the language of patent practice." },
  { role: "user", content: "" },
] as const;


/**
 * A form variable's default-value selector (spec 3 §3 "default-value selector {which, property, value}";
 * docs/decisions/chains.md "Default-value selector"): what the variable holds when its own resolution (claims, source
 * document, run variable, value, context property) finds nothing. `which` is where in the run to look, `property` the
 * field there, `value` the literal when that is empty too. The empty `which` reads nothing: the literal only.
 */
export const VARIABLE_DEFAULT_WHICH = ["", "invention", "document", "output", "properties", "variable"] as const;
export type VariableDefaultWhich = (typeof VARIABLE_DEFAULT_WHICH)[number];
/** The invention's fields a default reads (the context's invention: spec 3 §3 "invention (title, references, id)"). */
export const INVENTION_DEFAULT_PROPERTIES = ["title", "id", "references"] as const;
export const VARIABLE_DEFAULT_LIMITS = { property: 100, value: 1_000 } as const;
/** The variable types a default applies to: claims come from the context's selection, images from an upload. */
export const takesDefault = (type: string) => type !== "claims" && type !== "image";
export const VARIABLE_DEFAULT_MESSAGES = {
  propertyWithoutPlace: "Choose where this property is read, or leave it empty.",
  propertyRequired: "Name the property to read there.",
  inventionProperty: `An invention's property is one of: ${INVENTION_DEFAULT_PROPERTIES.join(", ")}.`,
  outputProperty: `A document section is one of: ${INSERT_IN.filter(Boolean).join(", ")}.`,
  notForType: "A claims or image variable has no default: its value comes from the context or an upload.",
  booleanValue: "A boolean variable's default is true, false or empty.",
} as const;

/**
 * Office files and PDFs as page images (spec 3 §5 "images accept .png, .jpeg, .jpg, .docx, .pptx, .pptm, .vsdx, .pdf";
 * §3 content link's .vsdx; the accept list is the converters' `UPLOAD_ACCEPT.images`): pages of one file turned into
 * images, on a message or in a content link's run. A message holds `CHAIN_LIMITS.attachments` images in all, and the
 * draft stays under the upstream's body bound.
 */
export const ATTACHMENT_PAGES = 10;
/**
 * Office files and PDFs one post may send to be converted (each a LibreOffice or poppler run in the converters' one
 * pool, seconds of CPU): past it the post converts none, so one request cannot hold the pool for minutes.
 */
export const ATTACHMENT_CONVERSIONS = 2;
export const ATTACHMENT_MESSAGES = {
  tooManyConversions: (n: number) => `Attach at most ${n} office files or PDFs at a time: save, then add the next.`,
  tooManyImages: (n: number) => `A message holds at most ${n} images: remove some before adding these pages.`,
  pageTooLarge: (name: string, kb: number) => `${name} is larger than ${kb} KB as an image.`,
} as const;
