/**
 * A chain document's checks before it is saved (spec 3 §5 chain rules, docs/decisions/chains.md): models the chain's
 * organizations all allow, Handlebars that parses, variables used only after the link that defines them, queries
 * that are one read-only SELECT (the query link's own rule, contract/chain-query.ts). Each problem names its link
 * (by index) and field; the save answers them all at once.
 */
import {
  CHAIN_MESSAGES as M,
  INSERT_IN,
  INVENTION_DEFAULT_PROPERTIES,
  VARIABLE_DEFAULT_MESSAGES as DM,
  outputVariable,
  takesDefault,
  type ChainProblem,
} from "../../contract/chains-constants";
import type { ChainDocument, ChainLink, ChainMessage, FormVariable } from "../../contract/chains";
import { querySqlProblem } from "../../contract/chain-query";
import { TEMPLATE_SYNTAX_MESSAGES, templateSyntaxError } from "../../contract/template-syntax";
import { templateParams } from "../nlp/generator";

/** What the checks ask of the AI administration. */
export type ModelRules = {
  /** True when model `id` exists. */
  exists(id: string): boolean;
  /** True when every organization of `organizations` allows model `id` (none: no model is allowed, spec 3 §5). */
  allowedFor(id: string, organizations: readonly string[]): boolean;
  /** True when model `id` reads images (its capability ends in "vision"). */
  vision(id: string): boolean;
  /** True when model `id` generates images (capability "image-generation"). */
  image(id: string): boolean;
};

/** A text of a link that Handlebars renders, and the field it is in. */
type Text = { field: string; text: string };

function textsOf(link: ChainLink | NonNullable<ChainDocument["template"]["chat"]>): Text[] {
  const messages = (list: readonly ChainMessage[]) => list.map((m, i) => ({ field: `messages[${i}].content`, text: m.content }));
  switch (link.type) {
    case "prompt":
    case "chat":
      return messages(link.messages);
    case "query":
      return [];
    case "template":
      return [{ field: "template", text: link.template }];
    case "content":
      if (link.source.type === "mermaid") return [{ field: "source.value", text: link.source.value }];
      if (link.source.type === "ai") return [{ field: "source.value.template", text: link.source.value.template }];
      return [];
    case "form":
      return [];
  }
}

/**
 * The run variables a query reads (`:NAME`, bound by name: docs/decisions/chain-query.md), string literals and
 * comments aside.
 */
function queryParams(sql: string): string[] {
  const bare = sql.replace(/--[^\n]*/g, " ").replace(/\/\*[\s\S]*?(\*\/|$)/g, " ").replace(/'(?:[^']|'')*'?/g, "''");
  return [...new Set([...bare.matchAll(/(?<![:\w]):([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]!))];
}

/** The top-level names a template reads, or null when it does not parse (its syntax problem is reported apart). */
function namesOf(text: string): string[] | null {
  try {
    return templateParams(text);
  } catch {
    return null;
  }
}

/** Every problem of `doc`; none when it may be saved. */
export function chainProblems(doc: ChainDocument, models: ModelRules): ChainProblem[] {
  const problems: ChainProblem[] = [];
  const links = doc.template.chain;
  // Where each variable is defined: a link's output at its index, a form's variables at the form's index.
  const definedAt = new Map<string, number>();
  links.forEach((link, i) => {
    const out = outputVariable(link.name);
    if (!definedAt.has(out)) definedAt.set(out, i);
    if (link.type === "form") for (const v of link.variables) if (!definedAt.has(v.name)) definedAt.set(v.name, i);
  });
  const seenIds = new Set<string>();

  const checkModel = (model: string | null, at: { link: number | null; chat?: boolean }, field: string, draws = false) => {
    if (!model) return;
    if (!models.exists(model)) problems.push({ ...at, field, message: M.unknownModel });
    else if (!models.allowedFor(model, doc.organizations)) problems.push({ ...at, field, message: at.chat ? M.chatModelNotAllowed : M.modelNotAllowed });
    else if (models.image(model) !== draws) problems.push({ ...at, field, message: draws ? M.notImageModel : M.imageModelInText });
  };
  // Spec 3 §5: images only for a vision model, on a user message before the last user message.
  const checkImages = (model: string | null, messages: readonly ChainMessage[], at: { link: number | null; chat?: boolean }) => {
    const lastUser = messages.map((m) => m.role).lastIndexOf("user");
    const vision = model !== null && models.exists(model) && models.vision(model);
    messages.forEach((m, i) => {
      const images = (m.supplementals?.images.length ?? 0) + (m.supplementals?.files.length ?? 0);
      if (images && (!vision || m.role !== "user" || i === lastUser)) {
        problems.push({ ...at, field: `messages[${i}].supplementals.files`, message: M.imagesNotAllowed });
      }
    });
  };
  const checkNames = (names: readonly string[], at: { link: number | null; chat?: boolean }, field: string, index: number) => {
    for (const name of names) {
      const defined = definedAt.get(name);
      if (defined !== undefined && defined >= index) problems.push({ ...at, field, message: M.usedBeforeDefined(name, defined + 1) });
      else if (defined === undefined && name.endsWith("_OUTPUT")) problems.push({ ...at, field, message: M.undefinedLink(name) });
    }
  };
  const checkTexts = (texts: Text[], at: { link: number | null; chat?: boolean }, index: number) => {
    for (const { field, text } of texts) {
      if (!text.includes("{{")) continue;
      const syntax = templateSyntaxError(text);
      if (syntax) {
        problems.push({ ...at, field, message: TEMPLATE_SYNTAX_MESSAGES.where(syntax) });
        continue;
      }
      checkNames(namesOf(text) ?? [], at, field, index);
    }
  };

  // A form variable's default-value selector (docs/decisions/chains.md "Default-value selector"): a place with a
  // property it can hold, a run variable read as a template reads one, a literal a boolean can take.
  const checkDefault = (v: FormVariable, field: string, at: { link: number }, index: number) => {
    const d = v.defaultValue;
    if (!d || (!d.which && !d.property && !d.value)) return;
    const problem = (part: string, message: string) => problems.push({ ...at, field: `${field}.${part}`, message });
    if (!takesDefault(v.type)) return problem("which", DM.notForType);
    if (v.type === "boolean" && d.value !== "" && d.value !== "true" && d.value !== "false") problem("value", DM.booleanValue);
    if (!d.which) {
      if (d.property) problem("property", DM.propertyWithoutPlace);
      return;
    }
    if (!d.property) return problem("property", DM.propertyRequired);
    if (d.which === "invention" && !(INVENTION_DEFAULT_PROPERTIES as readonly string[]).includes(d.property)) problem("property", DM.inventionProperty);
    if (d.which === "output" && !(INSERT_IN as readonly string[]).includes(d.property)) problem("property", DM.outputProperty);
    if (d.which === "variable") checkNames([d.property], at, `${field}.property`, index);
  };

  links.forEach((link, i) => {
    const at = { link: i };
    if (seenIds.has(link.id)) problems.push({ ...at, field: "id", message: M.duplicateLinkId });
    seenIds.add(link.id);
    if (link.type === "prompt") {
      checkModel(link.model, at, "model");
      checkImages(link.model, link.messages, at);
    }
    if (link.type === "content" && link.source.type === "ai") checkModel(link.source.value.model, at, "source.value.model", true);
    checkTexts(textsOf(link), at, i);
    if (link.type === "form") link.variables.forEach((v, j) => checkDefault(v, `variables[${j}].defaultValue`, at, i));
    if (link.type === "query") {
      const sqlProblem = querySqlProblem(link.query);
      if (sqlProblem) problems.push({ ...at, field: "query", message: sqlProblem });
      else checkNames(queryParams(link.query), at, "query", i);
    }
  });
  const chat = doc.template.chat;
  if (chat) {
    const at = { link: null, chat: true };
    checkModel(chat.model, at, "model");
    checkImages(chat.model, chat.messages, at);
    checkTexts(textsOf(chat), at, links.length);
  }
  return problems;
}
