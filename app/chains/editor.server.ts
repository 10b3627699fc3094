import {
  ChainChat,
  ChainDraft,
  ChainInvalid,
  ChainLink,
  EditorOptions,
  FormVariable,
  fileTypeOf,
  type Chain,
  type ChainDocument,
  type ChainMessage,
} from "@contract/chains";
import { DEFAULT_QUERY_SQL } from "@contract/chain-query";
import {
  ATTACHMENT_CONVERSIONS,
  ATTACHMENT_MESSAGES,
  CHAIN_LIMITS,
  CHAIN_MESSAGES,
  CONTENT_FILE_TYPES,
  CONTENT_SOURCE_TYPES,
  DEFAULT_PROMPT_MESSAGES,
  DOC_CODES,
  INSERT_AT,
  INSERT_IN,
  LINK_TYPES,
  SELECTORS,
  VARIABLE_DEFAULT_WHICH,
  defaultLinkName,
  type ChainProblem,
  type LinkType,
} from "@contract/chains-constants";
import { CommitMessage, VERSION_MESSAGES, VersionConflict } from "@contract/versions";
import { z, type ZodIssue } from "zod";
import { isUpstreamError, type Api } from "~/lib/upstream.server";
import { TEXT_FROM_FILE } from "~/ui/text-from-file";
import { converted, readAttachment, type Attachment } from "./attachments.server";
import { chains } from "./chains.server";

/**
 * The Dialog tab's editing without JavaScript (spec 3 §2.9, §4.2): every button and link form is a post that edits
 * the chain's draft (the versions kit's draft, PATCH /api/prompts/{id}/draft), which the upstream checks first; a
 * refused edit comes back with its problems and the document as it was typed.
 */

const path = (id: string) => `${chains.definition.path}/${encodeURIComponent(id)}`;

/** The document a chain's editor shows: its draft when it has one, else the chain as it is now. */
export async function editedDocument(api: Api, chain: Chain): Promise<{ document: ChainDocument; draftVersion: number }> {
  const draft = chain.hasDraft
    ? await api.get(ChainDraft, `${path(chain.id)}/draft`).catch((error: unknown) => {
        if (isUpstreamError(error, 404)) return null;
        throw error;
      })
    : null;
  if (draft) return { document: draft.data, draftVersion: draft.version };
  const { name, isPublic, isGeneric, organizations, categories, tags, description, template } = chain;
  return { document: { name, isPublic, isGeneric, organizations, categories, tags, description, template }, draftVersion: 0 };
}

/** The models the chain's organizations all allow (none without an organization) and the content sources. */
export const editorOptions = (api: Api, organizations: readonly string[]) =>
  api.get(EditorOptions, `${chains.definition.path}/editor-options`, { organizations: organizations.join(",") || undefined });

/** A new link's name: TYPE n, the first n no link of the chain is named with. */
function newName(type: LinkType, links: readonly ChainLink[]): string {
  const taken = new Set(links.map((l) => l.name.trim().toUpperCase()));
  let n = 1;
  while (taken.has(defaultLinkName(type, n))) n++;
  return defaultLinkName(type, n);
}

/** A new link of `type` with the spec's defaults (spec 3 §3, §9). */
export function newLink(type: LinkType, links: readonly ChainLink[], contentSource: string): ChainLink {
  const common = { id: crypto.randomUUID(), name: newName(type, links) };
  switch (type) {
    case "prompt":
      return ChainLink.parse({ ...common, type, messages: DEFAULT_PROMPT_MESSAGES.map((m) => ({ ...m })) });
    case "query":
      return ChainLink.parse({ ...common, type, query: DEFAULT_QUERY_SQL });
    case "template":
      return ChainLink.parse({ ...common, type, template: "" });
    case "form":
      return ChainLink.parse({ ...common, type, variables: [] });
    case "content":
      return ChainLink.parse({
        ...common,
        type,
        source: contentSource === "file" ? { type: "file", value: [] } : { type: contentSource, value: contentSource === "ai" ? { template: "" } : "" },
      });
  }
}

/** Added messages alternate user and assistant after the system message (spec 3 §2.9). */
export const nextRole = (messages: readonly ChainMessage[]): ChainMessage["role"] => (messages.at(-1)?.role === "user" ? "assistant" : "user");

/** A zod issue's path as the upstream names fields: `messages[1].content`. */
const fieldOf = (issue: ZodIssue) => issue.path.reduce<string>((f, p) => (typeof p === "number" ? `${f}[${p}]` : f ? `${f}.${p}` : p), "");

/** What a refused edit answers: the document as typed, where each problem is, the raw numbers typed. */
export type EditRefusal = { problems: ChainProblem[]; document: ChainDocument; typed: Record<string, string>; message: string };

const text = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === "string" ? v : "";
};

/** A number field as typed: empty is `empty`; anything else a number, or NaN (the schema then says what is wrong). */
const numberOf = (raw: string, empty: number | null) => (raw.trim() === "" ? empty : Number(raw));

/**
 * A refused link with its numbers that are not numbers back to what was saved: the page shows them as typed (`typed`),
 * and the answer stays plain JSON.
 */
function finiteNumbers<L extends ChainLink | ChainChat>(link: L, saved: ChainLink | ChainChat): L {
  if ((link.type !== "prompt" && link.type !== "chat") || (saved.type !== "prompt" && saved.type !== "chat")) return link;
  const finite = (n: number | null, was: number | null) => (n === null || Number.isFinite(n) ? n : was);
  return { ...link, temperature: finite(link.temperature, saved.temperature) ?? saved.temperature, max_tokens: finite(link.max_tokens, saved.max_tokens) };
}

type Edited = { kind: "link"; index: number } | { kind: "chat" } | { kind: "none" };

/** An uploaded file read for the draft (a content link's file), or why it was refused. */
type Upload<T extends string> = { name: string; type: T; base64: string } | { error: string };
/**
 * The files of one post, read before the edit: `image-N` (a file onto message N: an image, or an office file or PDF as
 * its page images, attachments.server.ts), `contentFile` (a content link's files).
 */
export type Uploads = { images: Map<number, Attachment>; files: Upload<(typeof CONTENT_FILE_TYPES)[number]>[] };
export const NO_UPLOADS: Uploads = { images: new Map(), files: [] };

const filesOf = (form: FormData, name: string) => form.getAll(name).filter((v): v is File => typeof v !== "string" && v.size > 0);

/** One file read as base64 when it is of `types` and at most `maxBytes` (spec 3 §5 upload rules), before any is read. */
async function readUpload<T extends string>(file: File, types: readonly T[], maxBytes: number): Promise<Upload<T>> {
  const type = fileTypeOf(file.name, types);
  if (!type) return { error: CHAIN_MESSAGES.fileType(types) };
  if (file.size > maxBytes) return { error: CHAIN_MESSAGES.fileTooLarge(Math.floor(maxBytes / 1024)) };
  return { name: file.name.slice(0, 255), type, base64: Buffer.from(await file.arrayBuffer()).toString("base64") };
}

/** The uploads of a link form's post, bounded in number before any is read; office files and PDFs converted one by one. */
export async function readUploads(form: FormData, api: Api): Promise<Uploads> {
  const images = new Map<number, Attachment>();
  const posted = Array.from({ length: CHAIN_LIMITS.messages }, (_, i) => filesOf(form, `image-${i}`)[0]);
  // Past the bound of conversions a post may ask for, none is made: each such file is refused on its message.
  const tooMany = posted.filter((file) => file && converted(file.name)).length > ATTACHMENT_CONVERSIONS;
  for (const [i, file] of posted.entries()) {
    if (!file) continue;
    images.set(i, tooMany && converted(file.name) ? { error: ATTACHMENT_MESSAGES.tooManyConversions(ATTACHMENT_CONVERSIONS) } : await readAttachment(api, file));
  }
  const files = await Promise.all(filesOf(form, "contentFile").slice(0, CHAIN_LIMITS.files).map((f) => readUpload(f, CONTENT_FILE_TYPES, CHAIN_LIMITS.fileBytes)));
  return { images, files };
}

type EditorModel = EditorOptions["models"][number];

/**
 * A prompt's or the chat's params and functions for the model chosen (spec 3 §4.2): a changed model resets the params
 * to its defaults and keeps only the functions it offers (none: cleared); the same model takes the values posted.
 */
function modelSettings(link: ChainLink | ChainChat, form: FormData, model: string | null, models: readonly EditorModel[]) {
  if (link.type !== "prompt" && link.type !== "chat") return {};
  const chosen = models.find((m) => m.id === model);
  if (model !== link.model) {
    return {
      params: (chosen?.params ?? []).slice(0, CHAIN_LIMITS.params).map((p) => ({ name: p.name, value: p.default, options: p.options })),
      functions: link.functions.filter((f) => chosen?.functions.includes(f)),
    };
  }
  const values = form.getAll("paramValue").map(String);
  const offered = new Set([...(chosen?.functions ?? []), ...link.functions]);
  return {
    params: link.params.map((p, i) => ({ ...p, value: values[i] ?? p.value })),
    functions: [...new Set(form.getAll("functions").map(String))].filter((f) => offered.has(f)).slice(0, CHAIN_LIMITS.functions),
  };
}

/**
 * The uploaded images of message `i` after this post: one removed (`removeImage:i:j`), one file's images added
 * (`image-i`: an image, or a file's pages) when they all fit in the message's bound, else none and why.
 */
function imagesOf(message: ChainMessage | undefined, i: number, intent: string, uploads: Uploads, refuse: (field: string, message: string) => void) {
  const images = message?.supplementals?.images ?? [];
  const files = [...(message?.supplementals?.files ?? [])];
  const remove = /^removeImage:(\d+):(\d+)$/.exec(intent);
  if (remove && Number(remove[1]) === i) files.splice(Number(remove[2]), 1);
  const upload = uploads.images.get(i);
  if (upload && "error" in upload) refuse(`messages[${i}].supplementals.files`, upload.error);
  else if (upload && files.length + upload.images.length > CHAIN_LIMITS.attachments) {
    refuse(`messages[${i}].supplementals.files`, ATTACHMENT_MESSAGES.tooManyImages(CHAIN_LIMITS.attachments));
  } else if (upload) files.push(...upload.images);
  return images.length || files.length ? { supplementals: { images, files } } : {};
}

/**
 * One post of the Dialog tab applied to `doc`: the fields of the link form it came from first (so "Add message"
 * keeps what was typed), then its intent. Returns the edited document, or the problems the contract finds.
 */
export function applyEdit(
  doc: ChainDocument,
  form: FormData,
  options: EditorOptions,
  uploads: Uploads = NO_UPLOADS,
): { document: ChainDocument; problems: ChainProblem[]; typed: Record<string, string> } {
  const contentSource = options.contentSources[0] ?? "file";
  const links = [...doc.template.chain];
  let chat = doc.template.chat;
  const intent = text(form, "intent");
  const linkId = text(form, "link");
  const index = links.findIndex((l) => l.id === linkId);
  const problems: ChainProblem[] = [];
  const typed: Record<string, string> = {};
  let edited: Edited = { kind: "none" };

  // Problems of the post itself (a file refused), on the link or chat being edited.
  const uploadProblems: { field: string; message: string }[] = [];
  const refuseUpload = (field: string, message: string) => uploadProblems.push({ field, message });
  const withFields = <L extends ChainLink | ChainChat>(link: L): L => {
    if (!form.has("name")) return link;
    const next: Record<string, unknown> = { ...link, name: text(form, "name") };
    if (link.type === "prompt" || link.type === "chat") {
      typed.temperature = text(form, "temperature");
      typed.max_tokens = text(form, "max_tokens");
      const model = text(form, "model") || null;
      next.model = model;
      Object.assign(next, modelSettings(link, form, model, options.models));
      next.temperature = numberOf(typed.temperature, NaN);
      next.max_tokens = numberOf(typed.max_tokens, null);
      const contents = form.getAll("content").slice(0, CHAIN_LIMITS.messages).map(String);
      next.messages = contents.map((content, i) => {
        const { supplementals: _images, ...message } = link.messages[i] ?? { role: nextRole(link.messages.slice(0, i)) };
        return { ...message, content, ...imagesOf(link.messages[i], i, intent, uploads, refuseUpload) };
      });
      if (link.type === "chat") next.includeHistory = form.has("includeHistory");
    }
    if (link.type === "content") next.source = contentSourceOf(link, form, options, intent, uploads, refuseUpload);
    if (link.type === "query") next.query = text(form, "query");
    if (link.type === "form") next.variables = formVariablesOf(link, form);
    if (link.type === "template") {
      next.template = text(form, "template");
      next.renderOnly = form.has("renderOnly");
    }
    return next as L;
  };
  const withMessages = <L extends ChainLink | ChainChat>(link: L): L => {
    if (link.type === "form") {
      if (intent === "addVariable" && link.variables.length < CHAIN_LIMITS.variables) {
        const taken = new Set(link.variables.map((v) => v.name));
        let n = link.variables.length + 1;
        while (taken.has(`variable_${n}`)) n++;
        return { ...link, variables: [...link.variables, FormVariable.parse({ name: `variable_${n}`, type: "string" })] };
      }
      if (intent === "deleteVariable") return { ...link, variables: link.variables.slice(0, -1) };
      return link;
    }
    if (link.type !== "prompt" && link.type !== "chat") return link;
    // "Use this text" of the link's "Load text from a file": the text joins the last user message (a new one when the
    // last is not the user's), so a file read for review becomes what the model is asked.
    if (intent === TEXT_FROM_FILE.useIntent) {
      const loaded = text(form, TEXT_FROM_FILE.textField);
      const last = link.messages.at(-1);
      if (last?.role === "user") {
        const content = last.content.trim() ? `${last.content}\n\n${loaded}` : loaded;
        return { ...link, messages: [...link.messages.slice(0, -1), { ...last, content }] };
      }
      if (link.messages.length < CHAIN_LIMITS.messages) return { ...link, messages: [...link.messages, { role: "user", content: loaded }] };
      return link;
    }
    if (intent === "addMessage" && link.messages.length < CHAIN_LIMITS.messages) {
      return { ...link, messages: [...link.messages, { role: nextRole(link.messages), content: "" }] };
    }
    if (intent === "deleteMessage" && link.messages.length > 2) return { ...link, messages: link.messages.slice(0, -1) };
    return link;
  };

  if (intent === "add" && text(form, "type") !== "chat") {
    const type = LINK_TYPES.find((t) => t === text(form, "type"));
    if (type && links.length < CHAIN_LIMITS.links) links.push(newLink(type, links, contentSource));
  } else if (intent === "add") {
    // Spec 3 §2.9: one chat at most, and only after a link (a chat needs at least one).
    if (!chat && links.length) chat = ChainChat.parse({ type: "chat", messages: DEFAULT_PROMPT_MESSAGES.map((m) => ({ ...m })) });
  } else if (intent === "options") {
    // Spec 3 §2.9: the options row, saved in the template's options (an unknown value is none).
    const insertIn = INSERT_IN.find((v) => v === text(form, "insertIn")) ?? "";
    const insertAt = INSERT_AT.find((v) => v === text(form, "insertAt")) ?? "";
    return { document: { ...doc, template: { ...doc.template, options: { insertIn, insertAt } } }, problems, typed };
  } else if (linkId === "chat" && chat) {
    if (intent === "delete") chat = null;
    else {
      chat = withMessages(withFields(chat));
      edited = { kind: "chat" };
    }
  } else if (index >= 0) {
    const to = intent === "up" ? index - 1 : intent === "down" ? index + 1 : -1;
    if (to >= 0 && to < links.length) [links[index], links[to]] = [links[to]!, links[index]!];
    else if (intent === "delete") links.splice(index, 1);
    else if (LINK_INTENTS.includes(intent) || /^remove(Image|File):/.test(intent)) {
      links[index] = withMessages(withFields(links[index]!));
      edited = { kind: "link", index };
    }
  }
  // Spec 3 §4.2: with the last link the chat goes too.
  if (!links.length) chat = null;

  if (edited.kind === "link") problems.push(...uploadProblems.map((p) => ({ link: edited.index, ...p })));
  if (edited.kind === "chat") problems.push(...uploadProblems.map((p) => ({ link: null, chat: true, ...p })));
  if (edited.kind === "link") {
    const parsed = ChainLink.safeParse(links[edited.index]);
    if (!parsed.success || problems.length) {
      if (!parsed.success) problems.push(...parsed.error.issues.map((i) => ({ link: edited.index, field: fieldOf(i), message: i.message })));
      links[edited.index] = finiteNumbers(links[edited.index]!, doc.template.chain[index]!);
    } else links[edited.index] = parsed.data;
  } else if (edited.kind === "chat" && chat) {
    const parsed = ChainChat.safeParse(chat);
    if (!parsed.success || problems.length) {
      if (!parsed.success) problems.push(...parsed.error.issues.map((i) => ({ link: null, chat: true, field: fieldOf(i), message: i.message })));
      chat = doc.template.chat ? finiteNumbers(chat, doc.template.chat) : chat;
    } else chat = parsed.data;
  }
  return { document: { ...doc, template: { ...doc.template, chain: links, chat } }, problems, typed };
}

type FormVariableInput = z.input<typeof FormVariable>;

/**
 * A form link's variables after its form's post (spec 3 §3 "Variable in a form"): each field a list in the
 * variables' order (name, label, type, origin, value, source document and selector); the claims modes are checkboxes
 * whose value is the variable's index. A boolean variable's value is true, false or none; any other's the text typed
 * (empty: none). An unknown source document or selector keeps what was saved (as the options row does); the claims
 * modes hold only for a claims variable. The default-value selector (where, property, value) is left out when all
 * three are empty, so a chain saved without one stays without. The contract then bounds every string.
 */
function formVariablesOf(link: Extract<ChainLink, { type: "form" }>, form: FormData): FormVariableInput[] {
  const list = (name: string) => form.getAll(name).map(String);
  const labels = list("variableLabel");
  const types = list("variableType");
  const origins = list("variableOrigin");
  const values = list("variableValue");
  const docCodes = list("variableDocCode");
  const selectors = list("variableSelector");
  const indices = (name: string) => new Set(list(name));
  const single = indices("variableSingleClaim");
  const independent = indices("variableIndependentOnly");
  const defaultWhich = list("variableDefaultWhich");
  const defaultProperty = list("variableDefaultProperty");
  const defaultLiteral = list("variableDefaultValue");
  const defaultOf = (i: number, saved: FormVariableInput["defaultValue"]): FormVariableInput["defaultValue"] => {
    if (defaultWhich[i] === undefined && defaultProperty[i] === undefined && defaultLiteral[i] === undefined) return saved;
    const which = VARIABLE_DEFAULT_WHICH.find((w) => w === defaultWhich[i]) ?? saved?.which ?? "";
    const [property, value] = [defaultProperty[i] ?? "", defaultLiteral[i] ?? ""];
    return which || property || value ? { which, property, value } : undefined;
  };
  return list("variableName")
    .slice(0, CHAIN_LIMITS.variables)
    .map((name, i) => {
      const { defaultValue: savedDefault, ...saved } = link.variables[i] ?? FormVariable.parse({ name: "v", type: "string" });
      const fallback = defaultOf(i, savedDefault);
      const type = types[i] ?? saved.type;
      const raw = values[i];
      const value = raw === undefined ? saved.value : type === "boolean" ? (raw === "true" ? true : raw === "false" ? false : null) : raw === "" ? null : raw;
      const claims = type === "claims";
      return {
        ...saved,
        name,
        label: labels[i] ?? "",
        type,
        origin: origins[i] ?? saved.origin,
        value,
        source: {
          docCode: DOC_CODES.find((c) => c === docCodes[i]) ?? saved.source.docCode,
          selector: SELECTORS.find((c) => c === selectors[i]) ?? saved.source.selector,
        },
        singleClaimMode: claims && single.has(String(i)),
        independentOnly: claims && independent.has(String(i)),
        ...(fallback ? { defaultValue: fallback } : {}),
      };
    });
}

/** The posts of a link's form that apply its fields (and then their own step). */
const LINK_INTENTS = ["save", "addMessage", "deleteMessage", "addVariable", "deleteVariable", TEXT_FROM_FILE.useIntent];

type ContentSource = Extract<ChainLink, { type: "content" }>["source"];

/**
 * A content link's source after its form's post (spec 3 §2.9, §4.2): a changed source type starts with an empty value
 * (an empty list of files, an empty template); the same type takes the fields posted — the files kept, one removed
 * (`removeFile:j`), those uploaded added; the mermaid template; the AI's model, template and image variables.
 */
function contentSourceOf(
  link: Extract<ChainLink, { type: "content" }>,
  form: FormData,
  options: EditorOptions,
  intent: string,
  uploads: Uploads,
  refuse: (field: string, message: string) => void,
): ContentSource {
  const wanted = CONTENT_SOURCE_TYPES.find((t) => t === text(form, "sourceType") && options.contentSources.includes(t)) ?? link.source.type;
  if (wanted !== link.source.type) {
    if (wanted === "file") return { type: "file", value: [] };
    if (wanted === "mermaid") return { type: "mermaid", value: "" };
    return { type: "ai", value: { model: null, template: "", images: [] } };
  }
  const source = link.source;
  if (source.type === "mermaid") return { type: "mermaid", value: text(form, "mermaid") };
  if (source.type === "ai") {
    const images = [...new Set(form.getAll("aiImages").map(String))].slice(0, CHAIN_LIMITS.attachments);
    return { type: "ai", value: { model: text(form, "aiModel") || null, template: text(form, "aiTemplate"), images } };
  }
  const files = [...source.value];
  const remove = /^removeFile:(\d+)$/.exec(intent);
  if (remove) files.splice(Number(remove[1]), 1);
  for (const upload of uploads.files) {
    if ("error" in upload) refuse("source.value", upload.error);
    else if (files.length < CHAIN_LIMITS.files) files.push(upload);
    else refuse("source.value", CHAIN_MESSAGES.tooManyFiles(CHAIN_LIMITS.files));
  }
  return { type: "file", value: files };
}

/** Saves `document` as the chain's draft; the upstream's problems (400) come back rather than thrown. */
export async function saveDraft(
  api: Api,
  id: string,
  document: ChainDocument,
  draftVersion: number,
): Promise<{ problems: ChainProblem[]; message: string; newer?: VersionConflict } | null> {
  try {
    await api.patch(ChainDraft, `${path(id)}/draft`, { data: document, baseVersion: draftVersion });
    return null;
  } catch (error) {
    // Past the upstream's body bound: the files and images the draft carries are too many.
    if (isUpstreamError(error, 413)) return { problems: [], message: CHAIN_MESSAGES.tooLarge };
    if (!isUpstreamError(error, 400) && !isUpstreamError(error, 409)) throw error;
    // The draft moved on since the page was loaded: its version, who saved it and when, for 'Overwrite draft?'.
    const newer = isUpstreamError(error, 409) && error.message === VERSION_MESSAGES.overwriteDraft ? VersionConflict.safeParse(error.body) : null;
    if (newer?.success) return { problems: [], message: error.message, newer: newer.data };
    const refusal = ChainInvalid.safeParse(error.body);
    return { problems: refusal.success ? refusal.data.problems : [], message: error.message };
  }
}

/**
 * A version's comment from the History tab's form (`version`, `comment`): PATCH …/history/{version}. Refused (bad
 * input, a version gone): why, with what was typed.
 */
export async function saveComment(api: Api, id: string, form: FormData): Promise<{ version: number; comment: string; message: string } | null> {
  const version = Number(text(form, "version"));
  const comment = text(form, "comment");
  const checked = CommitMessage.safeParse(comment);
  if (!Number.isInteger(version) || version < 1) return { version: 0, comment, message: CHAIN_MESSAGES.historyNotFound };
  if (!checked.success) return { version, comment, message: checked.error.issues[0]?.message ?? CHAIN_MESSAGES.saveFailed };
  try {
    await api.patch(z.unknown(), `${path(id)}/history/${version}`, { comment: checked.data });
    return null;
  } catch (error) {
    if (isUpstreamError(error) && error.status < 500) return { version, comment, message: error.message };
    throw error;
  }
}
