/**
 * A chain template's export and import (spec 3 §2.9 toolbar, §8). Export: the template (`{ chain, options, chat }`)
 * of the active version, the draft or version N as indented JSON — a page to copy it from and a download, so it works
 * without JavaScript; the toolbar's button copies the same text. Import: the pasted JSON ('Invalid import string' if
 * it is not JSON), then the upstream's `POST /api/prompts/template/validate` (each message an 'Import failed'), then
 * the template replaces the draft's links, options and chat (the draft's save checks the chain's models too).
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { ChainTemplate, HistoryVersion, ValidateAnswer } from "@contract/chains";
import { problemText } from "@contract/chains-constants";
import { VersionRefParam } from "@contract/versions";
import { notFound, requireRoute, requireWrite } from "~/auth/guard.server";
import { failed } from "~/lib/actions.server";
import { readForm, textOf } from "~/lib/form.server";
import { toasts } from "~/lib/toast.server";
import { chains } from "../chains.server";
import { editedDocument, saveDraft } from "../editor.server";
import { CHAIN_VERSIONS as V } from "../versions/texts";
import { IMPORT_MAX_CHARS } from "./import-limit";
import { chainUrl } from "../versions/urls";
import { documentOf, draftOf } from "../versions/versions.server";


/** The template of the active version, the draft or version N (`?of=current|draft|n`) as indented JSON. */
async function exported(args: LoaderFunctionArgs) {
  const { api } = await requireRoute(args);
  const id = args.params.id ?? "";
  const of = VersionRefParam.safeParse(new URL(args.request.url).searchParams.get("of") ?? "current");
  if (!of.success) throw notFound();
  const chain = await chains.getOr404(api, id);
  const document =
    of.data === "current"
      ? documentOf(chain)
      : of.data === "draft"
        ? (await draftOf(api, chain))?.data
        : (await api.get(HistoryVersion, `${chains.definition.path}/${encodeURIComponent(id)}/history/${of.data}`).catch(() => null))?.data;
  if (!document) throw notFound();
  return { chain: { id: chain.id, name: chain.name }, of: of.data, text: JSON.stringify(document.template, null, 2) };
}

/** `/chains/{id}/export?of=…`: the page showing the JSON to copy. */
export const exportLoader = async (args: LoaderFunctionArgs) => json(await exported(args));

/** `/chains/{id}/export/download?of=…`: the same JSON as a file (the page's Download, the toolbar's copy). */
export async function exportDownload(args: LoaderFunctionArgs) {
  const { chain, text } = await exported(args);
  const name = `${chain.name.replace(/[^\w-]+/g, "-").replace(/^-|-$/g, "") || "chain"}.json`;
  return new Response(text, { headers: { "Content-Type": "application/json; charset=utf-8", "Content-Disposition": `attachment; filename="${name}"` } });
}
export type ExportData = { chain: { id: string; name: string }; of: string | number; text: string };

/** What an import answers when refused: the text as pasted, and each reason. */
export type ImportReply = { typed: string; title: string; messages: string[] };

export async function importLoader(args: LoaderFunctionArgs) {
  const { api } = await requireWrite(args);
  const chain = await chains.getOr404(api, args.params.id ?? "");
  return json({ chain: { id: chain.id, name: chain.name } });
}

export async function importAction(args: ActionFunctionArgs) {
  const { api } = await requireWrite(args);
  const id = args.params.id ?? "";
  const chain = await chains.getOr404(api, id);
  const typed = textOf(await readForm(args.request), "template");
  const refuse = (title: string, messages: string[], status = 400) =>
    failed<ImportReply>({ typed: typed.slice(0, IMPORT_MAX_CHARS), title, messages }, { type: "error", message: title, description: messages[0] }, status);
  let pasted: unknown;
  try {
    if (typed.length > IMPORT_MAX_CHARS) throw new Error("too long");
    pasted = JSON.parse(typed);
  } catch {
    return refuse(V.invalidImport, []);
  }
  const { messages } = await api.post(ValidateAnswer, `${chains.definition.path}/template/validate`, { template: pasted });
  if (messages.length) return refuse(V.importFailed, messages);
  const template = ChainTemplate.parse(pasted);
  const { document, draftVersion } = await editedDocument(api, chain);
  const imported = { ...document, template };
  const refused = await saveDraft(api, id, imported, draftVersion);
  if (refused) {
    const lines = refused.problems.length ? refused.problems.map((p) => problemText(p, p.link === null ? undefined : template.chain[p.link]?.name)) : [refused.message];
    return refuse(V.importFailed, lines, refused.problems.length ? 400 : 409);
  }
  return toasts(args.context).redirectWithSuccess(chainUrl(id), V.imported);
}
