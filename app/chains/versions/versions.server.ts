/**
 * A chain's versions on the app's side (spec 3 §2.9 version view, §4.2): the item (the active version), a numbered
 * version's read-only preview and the draft, each with its actions — activate (with a comment), discard the draft,
 * delete a version — confirmed first (the shared ConfirmAction: a dialog with JavaScript, the page's inline step
 * without); and the compare page (the chain differ's named changes). The upstream checks every write again.
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { diffChains } from "@contract/chain-diff";
import { ChainDraft, ChainInvalid, HistoryVersion, type Chain, type ChainDocument } from "@contract/chains";
import { problemText } from "@contract/chains-constants";
import { CommitMessage, VersionRefParam, type VersionConflict } from "@contract/versions";
import { z } from "zod";
import { notFound, requireRoute, requireWrite } from "~/auth/guard.server";
import { failed, failureToast, intentOf, isConfirmed, reasonOf, statusOf } from "~/lib/actions.server";
import { readForm, textOf } from "~/lib/form.server";
import { toasts } from "~/lib/toast.server";
import { isUpstreamError, type Api } from "~/lib/upstream.server";
import { formatDateTime } from "~/lib/format";
import { authorName, sentVersions } from "~/workflows/versions/versions.server";
import { chainHistory, chains } from "../chains.server";
import { CHAIN_VERSIONS as V } from "./texts";
import { chainUrl, versionUrl } from "./urls";

const apiPath = (id: string) => `${chains.definition.path}/${encodeURIComponent(id)}`;

/** The chain's draft, or null: none, or discarded since the chain was read. */
export async function draftOf(api: Api, chain: Pick<Chain, "id" | "hasDraft">): Promise<ChainDraft | null> {
  if (!chain.hasDraft) return null;
  return api.get(ChainDraft, `${apiPath(chain.id)}/draft`).catch((error: unknown) => {
    if (isUpstreamError(error, 404)) return null;
    throw error;
  });
}

/** A chain's current version as a document (what a version and a draft hold). */
export const documentOf = ({ name, isPublic, isGeneric, organizations, categories, tags, description, template }: Chain): ChainDocument => ({
  name,
  isPublic,
  isGeneric,
  organizations,
  categories,
  tags,
  description,
  template,
});

/** `draft`, `current` or a version number from the URL; anything else is a 404. */
function refOf(raw: string | null | undefined) {
  const ref = VersionRefParam.safeParse(raw ?? "");
  if (!ref.success) throw notFound();
  return ref.data;
}

/** A numbered version with its document; 404 when the chain has none of that number. */
async function versionOf(api: Api, id: string, n: number): Promise<HistoryVersion> {
  return api.get(HistoryVersion, `${apiPath(id)}/history/${n}`).catch((error: unknown) => {
    if (isUpstreamError(error, 404)) throw notFound();
    throw error;
  });
}

/** /chains/{id}/versions/{draft|current|n}: the version view (spec 3 §4.2 views item, preview, draft). */
export async function versionLoader(args: LoaderFunctionArgs) {
  const { api, timeZone, may } = await requireRoute(args);
  const id = args.params.id ?? "";
  const ref = refOf(args.params.version);
  const chain = await chains.getOr404(api, id);
  const history = await chainHistory(api, chain, timeZone, ref === "current" ? chain.version : ref);
  const base = { chain: { id: chain.id, name: chain.name, version: chain.version, hasDraft: chain.hasDraft }, history, may };
  if (ref === "draft") {
    const draft = await draftOf(api, chain);
    return json({ ...base, view: "draft" as const, document: draft?.data ?? null, draftVersion: draft?.version ?? null, openDraft: draft?.version ?? 0, active: false });
  }
  // 'Save as draft' puts a numbered version into the draft: over an existing one only after 'Overwrite draft?', and
  // only over the draft this page showed (its version posted back; a newer one is refused).
  const openDraft = may.write ? ((await draftOf(api, chain))?.version ?? 0) : 0;
  if (ref === "current" || ref === chain.version) {
    return json({ ...base, view: chain.version, document: documentOf(chain), draftVersion: null, openDraft, active: true });
  }
  const version = await versionOf(api, id, ref);
  return json({ ...base, view: ref, document: version.data, draftVersion: null, openDraft, active: version.isActive });
}
export type VersionData = Awaited<ReturnType<Awaited<ReturnType<typeof versionLoader>>["json"]>>;

/** What a version action answers when it does not redirect: the confirmation step, or why it failed. */
export type VersionReply = { confirm?: string; comment?: string; message?: string; problems?: string[]; toast?: unknown };

/**
 * The version view's posts: `activate` (the draft, or version N: a new active version with the comment), `discard`
 * (the draft), `deleteVersion` (version N, not the active one), `saveAsDraft` (version N's content into the draft).
 */
export async function versionAction(args: ActionFunctionArgs) {
  const { api } = await requireWrite(args);
  const ref = refOf(args.params.version);
  if (ref === "current") throw notFound();
  return versionIntent(args, api, ref, await readForm(args.request));
}

/**
 * A confirmed version action, on the version view or the chain page's toolbar (`saveVersion`: the draft committed as
 * the new active version, spec 3 §4.2 "save as version"). Each asks first (`confirmed=yes`); done, the chain page
 * with the spec's toast; refused, the step again with the comment as typed and the upstream's reason.
 */
export async function versionIntent(args: ActionFunctionArgs, api: Api, ref: number | "draft", form: FormData) {
  const id = args.params.id ?? "";
  const intent = intentOf(form);
  const comment = CommitMessage.safeParse(textOf(form, "comment"));
  if (!isConfirmed(form)) return json<VersionReply>({ confirm: intent });
  const flash = toasts(args.context);
  const what = ref === "draft" ? "draft" : "version";
  // The draft's version the page showed: a newer draft (someone else's) is refused, 409.
  const draftVersion = sentVersions(form).draft;
  try {
    if (intent === "activate" || (intent === "saveVersion" && ref === "draft")) {
      if (!comment.success) return json<VersionReply>({ confirm: intent, comment: textOf(form, "comment"), message: comment.error.issues[0]?.message }, { status: 400 });
      if (ref === "draft") {
        await api.post(z.unknown(), `${apiPath(id)}/draft/activate`, { comment: comment.data, ...(draftVersion !== undefined ? { draftVersion } : {}) });
        return flash.redirectWithSuccess(chainUrl(id), intent === "saveVersion" ? V.versionSaved : V.draftActivated);
      }
      await api.post(z.unknown(), `${apiPath(id)}/history/activate`, { version: ref, comment: comment.data });
      return flash.redirectWithSuccess(chainUrl(id), V.versionActivated);
    }
    if (intent === "discard" && ref === "draft") {
      await api.send("DELETE", `${apiPath(id)}/draft${draftVersion !== undefined ? `?baseVersion=${draftVersion}` : ""}`);
      return flash.redirectWithSuccess(chainUrl(id), V.draftDiscarded);
    }
    if (intent === "deleteVersion" && typeof ref === "number") {
      await api.send("DELETE", `${apiPath(id)}/history/${ref}`);
      return flash.redirectWithSuccess(`${chainUrl(id)}?tab=history`, V.versionDeleted);
    }
    if (intent === "saveAsDraft" && typeof ref === "number") {
      // Version N as its history entry holds it (the active one's too).
      const { data } = await versionOf(api, id, ref);
      await api.patch(z.unknown(), `${apiPath(id)}/draft`, { data, baseVersion: draftVersion ?? 0 });
      return flash.redirectWithSuccess(chainUrl(id), V.draftSaved);
    }
  } catch (error) {
    // A document refused for its problems (a model no longer allowed, say): each problem named, as a save shows them.
    const refusal = isUpstreamError(error, 400) ? ChainInvalid.safeParse(error.body) : null;
    const problems = refusal?.success ? refusal.data.problems.map((p) => problemText(p)) : [];
    const title = intent === "activate" ? V.activateFailed(what) : V.updateFailed;
    return failed<VersionReply>({ confirm: intent, comment: textOf(form, "comment"), message: reasonOf(error), problems }, failureToast(title, error), statusOf(error));
  }
  return json<VersionReply>({ message: "Unknown action." }, { status: 400 });
}

/** /chains/{id}/compare?to=draft|n: the active version against the draft or version N, as named changes. */
export async function compareLoader(args: LoaderFunctionArgs) {
  const { api } = await requireRoute(args);
  const id = args.params.id ?? "";
  const to = refOf(new URL(args.request.url).searchParams.get("to") ?? "draft");
  if (to === "current") throw notFound();
  const chain = await chains.getOr404(api, id);
  const other = to === "draft" ? (await draftOf(api, chain))?.data : (await versionOf(api, id, to)).data;
  if (!other) throw notFound();
  return json({
    chain: { id: chain.id, name: chain.name },
    labels: { current: V.current(chain.version), other: to === "draft" ? V.draft : V.version(to) },
    back: to === "draft" ? chainUrl(id) : versionUrl(id, to),
    changes: diffChains(documentOf(chain), other),
  });
}
export type CompareData = Awaited<ReturnType<Awaited<ReturnType<typeof compareLoader>>["json"]>>;

/**
 * 'Overwrite draft?' after a Dialog tab save met a newer draft than the page showed (the versions kit's 409): who
 * saved it and when, and the post to send again on yes — every field as posted (files excepted: a post of hidden
 * fields cannot carry them) with the newer draft's version as the save token, so the edit is applied to that draft.
 */
export type NewerDraftStep = { version: number; author: string; date: string; fields: [string, string][] };

export function newerDraftStep(newer: VersionConflict, form: FormData, timeZone: string): NewerDraftStep {
  const fields: [string, string][] = [];
  for (const [name, value] of form) if (typeof value === "string" && name !== "draftVersion") fields.push([name, value]);
  return { version: newer.version, author: authorName(newer.updatedBy) ?? V.unknownAuthor, date: formatDateTime(newer.updatedAt, timeZone), fields };
}
