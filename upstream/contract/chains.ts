/**
 * Prompt chains (spec 3 §3 chain, link, variable in a form, history entry, draft; §7 "Prompts and chains"): the
 * chain document with its typed links, the API's bodies and answers. Every string and list is bounded (hostile input
 * is refused before any work). Texts, bounds and lists are in the zod-free chains-constants.ts; why the document is
 * shaped so is docs/decisions/chains.md.
 */
import { z } from "zod";
import { CHAIN_QUERY_LIMITS } from "./chain-query";
import { extensionOf } from "./converters";
import { Audit, LIST_LIMITS, TEXT_LIMITS, boundedList, boundedText, limitText } from "./common";
import {
  CHAIN_DEFAULTS,
  CHAIN_LIMITS as L,
  CHAIN_MESSAGES as M,
  CHAINS_PATH,
  CONTENT_FILE_TYPES,
  DOC_CODES,
  IMAGE_FILE_TYPES,
  INSERT_AT,
  INSERT_IN,
  MESSAGE_ROLES,
  MIN_CHAIN_NAME,
  SELECTORS,
  VARIABLE_DEFAULT_LIMITS,
  VARIABLE_DEFAULT_WHICH,
} from "./chains-constants";
import { defineResource } from "./resource";
import { BaseVersion, CommitMessage } from "./versions";

const id = limitText(z.string().trim().min(1), "Id", TEXT_LIMITS.id);
const text = (label: string, max: number = L.text) => boundedText(label, max, { multiline: true });
const linkName = limitText(z.string().trim().min(1, M.nameRequired), "Link name", L.linkName);
const temperature = z.number().min(0).max(2);
const maxTokens = z.number().int().min(1).max(L.maxTokens).nullable();
const modelId = limitText(z.string().trim(), "Model", TEXT_LIMITS.id).nullable();
const variableName = limitText(z.string().trim().min(1), "Variable name", L.variableName);

/** A model param as the link keeps it: name, chosen value, the options offered (spec 3 §3). */
export const LinkParam = z.object({
  name: limitText(z.string().trim().min(1), "Param name", TEXT_LIMITS.name),
  value: boundedText("Param value", L.paramValue),
  options: boundedList(boundedText("Param option", L.paramValue), "options", L.params).default([]),
});

/** An image uploaded onto a message (spec 3 §5 upload rules): name, type, the bytes as base64. */
export const ChainImage = z.object({
  name: boundedText("File name", 255),
  type: z.enum(IMAGE_FILE_TYPES),
  base64: z.string().max(L.imageBase64).regex(/^[A-Za-z0-9+/=\s]*$/, "The file is not base64."),
});
export type ChainImage = z.infer<typeof ChainImage>;

/**
 * A prompt's or chat's message; a user message may carry images (vision models only): image variables by name
 * (`images`), and images uploaded onto it (`files`, spec 3 §3 "supplementals.files").
 */
export const ChainMessage = z.object({
  role: z.enum(MESSAGE_ROLES),
  content: text("Message"),
  supplementals: z
    .object({
      images: boundedList(variableName, "images", L.attachments).default([]),
      files: boundedList(ChainImage, "files", L.attachments).default([]),
    })
    .optional(),
});
export type ChainMessage = z.infer<typeof ChainMessage>;

const common = {
  id,
  name: linkName,
  key: limitText(z.string(), "Key", TEXT_LIMITS.id).optional(),
};

const modelFields = {
  model: modelId.default(null),
  temperature: temperature.default(CHAIN_DEFAULTS.temperature),
  max_tokens: maxTokens.default(CHAIN_DEFAULTS.maxTokens),
  params: boundedList(LinkParam, "params", L.params).default([]),
  functions: boundedList(limitText(z.string().trim().min(1), "Function", TEXT_LIMITS.name), "functions", L.functions).default([]),
  messages: boundedList(ChainMessage, "messages", L.messages),
};

export const PromptLink = z.object({
  ...common,
  type: z.literal("prompt"),
  ...modelFields,
  attachments: boundedList(variableName, "attachments", L.attachments).default([]),
});
export const QueryLink = z.object({ ...common, type: z.literal("query"), query: text("Query", CHAIN_QUERY_LIMITS.sqlChars) });
export const TemplateLink = z.object({ ...common, type: z.literal("template"), template: text("Template"), renderOnly: z.boolean().default(false) });

/**
 * A form variable's default-value selector (spec 3 §3 {which, property, value}; chains-constants.ts
 * `VARIABLE_DEFAULT_WHICH`): where the run looks when the variable resolves to nothing, and the literal after that.
 */
export const VariableDefault = z.object({
  which: z.enum(VARIABLE_DEFAULT_WHICH).default(""),
  property: limitText(z.string().trim(), "Default property", VARIABLE_DEFAULT_LIMITS.property).default(""),
  value: boundedText("Default value", VARIABLE_DEFAULT_LIMITS.value).default(""),
});
export type VariableDefault = z.infer<typeof VariableDefault>;

/** A variable of a form link (spec 3 §3 "Variable in a form"); `defaultValue` absent on the chains made before it. */
export const FormVariable = z.object({
  name: variableName,
  label: boundedText("Label", TEXT_LIMITS.name).default(""),
  /** string, image, claims, boolean, or a type a provider defines. */
  type: limitText(z.string().trim().min(1), "Type", 50),
  origin: boundedText("Origin", 50).default("form"),
  value: z.union([boundedText("Value", L.variableValue, { multiline: true }), z.boolean(), z.null()]).default(null),
  source: z
    .object({ docCode: z.enum(DOC_CODES).default(""), selector: z.enum(SELECTORS).default("all") })
    .default({ docCode: "", selector: "all" }),
  independentOnly: z.boolean().default(false),
  singleClaimMode: z.boolean().default(false),
  defaultValue: VariableDefault.optional(),
});
export type FormVariable = z.infer<typeof FormVariable>;
export const FormLink = z.object({ ...common, type: z.literal("form"), variables: boundedList(FormVariable, "variables", L.variables) });

/** A file a content link carries (spec 3 §3): name, type, the bytes as base64. */
export const ContentFile = z.object({
  name: boundedText("File name", 255),
  type: z.enum(CONTENT_FILE_TYPES),
  base64: z.string().max(L.fileBase64).regex(/^[A-Za-z0-9+/=\s]*$/, "The file is not base64."),
});
export const ContentLink = z.object({
  ...common,
  type: z.literal("content"),
  source: z.discriminatedUnion("type", [
    z.object({ type: z.literal("file"), value: boundedList(ContentFile, "files", L.files) }),
    z.object({ type: z.literal("mermaid"), value: text("Mermaid template") }),
    z.object({
      type: z.literal("ai"),
      value: z.object({ model: modelId.default(null), template: text("Template"), images: boundedList(variableName, "images", L.attachments).default([]) }),
    }),
  ]),
});

/** Any link of a chain, told apart by `type` (spec 3 §3; default prompt). */
export const ChainLink = z.discriminatedUnion("type", [PromptLink, QueryLink, TemplateLink, FormLink, ContentLink]);
export type ChainLink = z.infer<typeof ChainLink>;
export type ChainLinkInput = z.input<typeof ChainLink>;

/** The chain's one chat (spec 3 §3): model, messages, history included by default. */
export const ChainChat = z.object({
  id: id.default("chat"),
  type: z.literal("chat"),
  name: linkName.default("CHAT"),
  ...modelFields,
  includeHistory: z.boolean().default(CHAIN_DEFAULTS.includeHistory),
});
export type ChainChat = z.infer<typeof ChainChat>;

/** What runs: the links, the options (spec 3 §2.9) and the chat. */
export const ChainTemplate = z.object({
  chain: boundedList(ChainLink, "links", L.links).default([]),
  options: z.object({ insertIn: z.enum(INSERT_IN).default(""), insertAt: z.enum(INSERT_AT).default("") }).default({ insertIn: "", insertAt: "" }),
  chat: ChainChat.nullable().default(null),
});
export type ChainTemplate = z.infer<typeof ChainTemplate>;
export type ChainTemplateInput = z.input<typeof ChainTemplate>;
export const EMPTY_TEMPLATE: ChainTemplate = { chain: [], options: { insertIn: "", insertAt: "" }, chat: null };

/** Spec 3 §5: required, then at least 4 characters, trimmed; one message at a time. */
const name = limitText(z.string({ required_error: M.nameRequired }).trim(), "Name", TEXT_LIMITS.name).superRefine((value, ctx) => {
  if (!value) ctx.addIssue({ code: "custom", message: M.nameRequired });
  else if (value.length < MIN_CHAIN_NAME) ctx.addIssue({ code: "custom", message: M.nameShort });
});
const tag = limitText(z.string().trim().min(1), "Tag", TEXT_LIMITS.tag);

/** The chain's settings (the /chains/create and /edit form, spec 3 §2.9). */
export const ChainFields = {
  name,
  isPublic: z.boolean(),
  isGeneric: z.boolean(),
  organizations: boundedList(id, "organizations", Math.min(L.organizations, LIST_LIMITS.organizations)),
  categories: boundedList(id, "categories", L.categories),
  tags: boundedList(tag, "tags", LIST_LIMITS.tags),
  description: boundedText("Description", TEXT_LIMITS.description, { multiline: true }),
};

/** One versioned chain document: what a version, a draft and the current chain each hold. */
export const ChainDocument = z.object({
  name: ChainFields.name,
  isPublic: ChainFields.isPublic,
  isGeneric: ChainFields.isGeneric,
  organizations: ChainFields.organizations,
  categories: ChainFields.categories,
  tags: ChainFields.tags,
  description: ChainFields.description,
  template: ChainTemplate,
});
export type ChainDocument = z.infer<typeof ChainDocument>;

/** A chain as answered (spec 3 §3): its current version, `version` the revision (the token a save sends back). */
export const Chain = ChainDocument.extend({
  id: z.string(),
  version: z.number().int(),
  comment: z.string(),
  isActive: z.boolean(),
  hasDraft: z.boolean(),
}).merge(Audit);
export type Chain = z.infer<typeof Chain>;

/** POST /api/prompts/: a new chain (revision 1). */
export const ChainCreate = z.object({
  name: ChainFields.name,
  isPublic: ChainFields.isPublic.default(false),
  isGeneric: ChainFields.isGeneric.default(false),
  organizations: ChainFields.organizations.default([]),
  categories: ChainFields.categories.default([]),
  tags: ChainFields.tags.default([]),
  description: ChainFields.description.default(""),
  template: ChainTemplate.default(EMPTY_TEMPLATE),
  comment: CommitMessage.optional(),
});
export type ChainCreate = z.input<typeof ChainCreate>;

/**
 * PATCH /api/prompts/{id}: a new version with the fields sent changed and `comment` as its message. `baseVersion`
 * (the chain's `version` the client edited) refuses a stale save with 409. The settings fields sent are applied to
 * the chain's draft too, when it has one (spec 3 §4.2 "also update the draft if one exists").
 */
export const ChainUpdate = z
  .object({
    name: ChainFields.name,
    isPublic: ChainFields.isPublic,
    isGeneric: ChainFields.isGeneric,
    organizations: ChainFields.organizations,
    categories: ChainFields.categories,
    tags: ChainFields.tags,
    description: ChainFields.description,
    template: ChainTemplate,
    comment: CommitMessage,
    baseVersion: BaseVersion,
  })
  .partial();
export type ChainUpdate = z.input<typeof ChainUpdate>;

/** /api/prompts (spec 3 §6): prompts.read lists and shows; `prompts` (prompts.write) creates, changes, deletes. */
export const ChainsResource = defineResource({
  name: "chains",
  path: CHAINS_PATH,
  item: Chain,
  create: ChainCreate,
  update: ChainUpdate,
  permissions: { read: "prompts.read", create: "prompts", write: "prompts" },
  notFound: M.notFound,
});

/** A problem of a chain document, where it is (chains-constants `ChainProblem`). */
export const ChainProblemSchema = z.object({ link: z.number().int().nullable(), chat: z.boolean().optional(), field: z.string(), message: z.string() });
/** The 400 of a save refused for its document: the message, then each problem. */
export const ChainInvalid = z.object({ message: z.string(), problems: z.array(ChainProblemSchema) });

/** GET /api/prompts/{id}/history: one entry per version, newest first (spec 3 §3 "History entry"). */
export const HistoryEntry = z.object({
  id: z.string(),
  libraryItemId: z.string(),
  version: z.number().int(),
  comment: z.string(),
  isActive: z.boolean(),
  author: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  activatedFrom: z.number().int().nullable(),
});
export type HistoryEntry = z.infer<typeof HistoryEntry>;
export const History = z.array(HistoryEntry);
/** GET /api/prompts/{id}/history/{version}: the entry with its document. */
export const HistoryVersion = HistoryEntry.extend({ data: ChainDocument });
export type HistoryVersion = z.infer<typeof HistoryVersion>;

/** PATCH /api/prompts/{id}/history/{version}: a version's comment (its content stays as committed). */
export const HistoryUpdate = z.object({ comment: CommitMessage });

/** POST /api/prompts/{id}/history/activate */
export const ActivateVersion = z.object({ version: z.number().int().min(1), baseVersion: BaseVersion.optional(), comment: CommitMessage.optional() });

/** GET /api/prompts/{id}/draft (spec 3 §3 "Draft": data, dates; `version` its save token, `baseVersion` the version it began from). */
export const ChainDraft = z.object({
  id: z.string(),
  libraryItemId: z.string(),
  version: z.number().int(),
  baseVersion: z.number().int(),
  data: ChainDocument,
  createdAt: z.string(),
  updatedAt: z.string(),
  createdBy: z.string().nullable(),
  updatedBy: z.string().nullable(),
});
export type ChainDraft = z.infer<typeof ChainDraft>;
/** PATCH /api/prompts/{id}/draft: the whole document (`baseVersion`: the draft's version edited, 0 for none). */
export const DraftSave = z.object({ data: ChainDocument, baseVersion: BaseVersion.optional() });
/** POST /api/prompts/{id}/draft/activate: the draft becomes the active version with `comment`. */
export const DraftActivate = z.object({ comment: CommitMessage.optional(), baseVersion: BaseVersion.optional(), draftVersion: BaseVersion.optional() });

/** POST /api/prompts/template/validate {template}: the problems of an imported template, one message each. */
export const ValidateBody = z.object({ template: z.unknown() });
export const ValidateAnswer = z.object({ messages: z.array(z.string()) });
export type ValidateAnswer = z.infer<typeof ValidateAnswer>;

/**
 * GET /api/v2/nlp/chains/variables/selectors (spec 3 §3 "variableSelectors"): what a form variable's source offers
 * (document codes, selectors) and the places its default-value selector reads (`defaults`).
 */
export const VariableSelectors = z.object({ docCodes: z.array(z.string()), selectors: z.array(z.string()), defaults: z.array(z.string()) });
export type VariableSelectors = z.infer<typeof VariableSelectors>;

/** What the library lists of a chain (listChainsForLibrary). */
export type ChainLibraryItem = {
  id: string;
  name: string;
  description: string;
  tags: string[];
  organizations: string[];
  categories: string[];
  isPublic: boolean;
  isGeneric: boolean;
  author: string | null;
  createdAt: string;
  updatedAt: string;
  updatedBy: string | null;
};

/** GET /api/prompts/editor-options?organizations=a,b: the models all of them allow, and the content sources. */
export const EditorOptions = z.object({
  /** Each model with its params' defaults (a link's params reset to them when its model changes) and its functions. */
  models: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      vision: z.boolean(),
      /** An image-generation model: offered to an AI content link only, and only it is offered there. */
      image: z.boolean(),
      params: z.array(z.object({ name: z.string(), default: z.string(), options: z.array(z.string()) })),
      functions: z.array(z.string()),
    }),
  ),
  contentSources: z.array(z.string()),
});
export type EditorOptions = z.infer<typeof EditorOptions>;

/** A file name's type among `types` ("Plan.JPG" → "jpg"), or null when it is none of them. */
export function fileTypeOf<T extends string>(name: string, types: readonly T[]): T | null {
  const ext = extensionOf(name).slice(1);
  return types.find((t) => t === ext) ?? null;
}
