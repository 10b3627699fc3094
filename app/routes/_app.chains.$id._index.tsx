import { json, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { requireRoute, requireWrite } from "~/auth/guard.server";
import { ChainEditor } from "~/chains/ChainEditor";
import { chainHistory, chains } from "~/chains/chains.server";
import { ChainDialog, ChainHistory } from "~/chains/ChainView";
import { applyEdit, editedDocument, editorOptions, readUploads, saveComment, saveDraft } from "~/chains/editor.server";
import { CHAINS } from "~/chains/texts";
import { ChainToolbar } from "~/chains/toolbar/ChainToolbar";
import { toolbarAction } from "~/chains/toolbar/toolbar.server";
import { NewerDraftStep } from "~/chains/versions/NewerDraftStep";
import chainVersionsStyles from "~/chains/versions/versions.css";
import { newerDraftStep } from "~/chains/versions/versions.server";
import { ContextTab } from "~/chains/context/ContextTab";
import { RunBar } from "~/chains/run/RunBar";
import { contextTabData } from "~/chains/context/context.server";
import { toasts } from "~/lib/toast.server";
import { templateHelpers } from "~/templates/templates.server";
import { TEXT_FROM_FILE } from "~/ui/text-from-file";
import { textFromFileAction, textFromFilePoll } from "~/ui/text-from-file.server";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: chainVersionsStyles }];

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.chain.name ?? "Chain"} · Backoffice` }];

const TABS = ["dialog", "context", "history"] as const;
type Tab = (typeof TABS)[number];

/** The chain page (spec 3 §2.9), read-only for now: tabs Dialog, Context and History in the URL (`?tab=`). */
export async function loader(args: LoaderFunctionArgs) {
  const { api, timeZone, may } = await requireRoute(args);
  const id = args.params.id ?? "";
  const wanted = new URL(args.request.url).searchParams.get("tab");
  const tab: Tab = TABS.find((t) => t === wanted) ?? "dialog";
  const chain = await chains.getOr404(api, id);
  const history = tab === "history" ? await chainHistory(api, chain, timeZone) : [];
  const context = tab === "context" ? await contextTabData(api, chain.id, new URL(args.request.url)) : null;
  // prompts.write edits the Dialog tab, on the draft when there is one; others see the chain as it is.
  const editing = tab === "dialog" && may.write ? await editedDocument(api, chain) : null;
  const url = new URL(args.request.url);
  const [options, codeHelp, polled] = editing
    ? await Promise.all([
        editorOptions(api, editing.document.organizations),
        // What the code fields complete besides the variables in scope: the generator's helpers and context fields.
        templateHelpers(api),
        // A scanned PDF's text, read by OCR, polled by a link's "Load text from a file" (its link in the URL).
        textFromFilePoll(api, url),
      ])
    : [null, null, null];
  const textFromFile = polled ? { link: url.searchParams.get("link") ?? "", state: polled } : null;
  const open = textFromFile?.link || url.searchParams.get("open");
  // The document goes to the page once: the edited one (the draft, or the chain) for an editor, else the chain's
  // template; of the chain itself only what the header and the toolbar show.
  const shown = { id: chain.id, name: chain.name, version: chain.version, hasDraft: chain.hasDraft };
  return { chain: shown, template: editing ? null : chain.template, tab, history, may, editing, options, codeHelp, open, textFromFile, context };
}

/**
 * An edit of the Dialog tab (a link added, moved, deleted, or its form saved), applied to the draft and saved through
 * the versions kit; the upstream checks the whole document. Refused: the problems and the document as typed.
 */
export async function action(args: ActionFunctionArgs) {
  const { api, timeZone } = await requireWrite(args);
  const id = args.params.id ?? "";
  const chain = await chains.getOr404(api, id);
  const form = await args.request.formData();
  const toolbar = toolbarAction(args, api, form);
  if (toolbar) return toolbar;
  const link = typeof form.get("link") === "string" ? String(form.get("link")) : "";
  // A link's "Load text from a file": the file read to text for review; nothing changes in the chain yet.
  if (form.get("intent") === TEXT_FROM_FILE.intent) return json({ textFromFile: { link, state: await textFromFileAction(api, form) }, open: link });
  // The History tab: a version's comment.
  if (form.get("intent") === "comment") {
    const commentRefused = await saveComment(api, id, form);
    if (commentRefused) return json({ commentRefused }, { status: 400 });
    return toasts(args.context).redirectWithSuccess(`/chains/${encodeURIComponent(id)}?tab=history`, CHAINS.toasts.updated);
  }
  // 'Delete Link' without JavaScript: the page again with the confirmation step; nothing changes yet.
  if (form.get("intent") === "delete" && form.get("confirmed") !== "yes") return json({ confirmDelete: link });
  const { document } = await editedDocument(api, chain);
  const sent = Number(form.get("draftVersion"));
  const draftVersion = Number.isInteger(sent) && sent >= 0 ? sent : 0;
  const options = await editorOptions(api, document.organizations);
  const edit = applyEdit(document, form, options, await readUploads(form, api));
  const refused = edit.problems.length ? { problems: edit.problems, message: CHAINS.inline.saveFailed } : await saveDraft(api, id, edit.document, draftVersion);
  if (refused) {
    const { problems, message } = refused;
    // A newer draft than the page showed: 'Overwrite draft?', the edit kept for the yes.
    const newer = "newer" in refused && refused.newer ? newerDraftStep(refused.newer, form, timeZone) : null;
    return json({ problems, message, newer, document: edit.document, typed: edit.typed, open: link || null }, { status: problems.length ? 400 : 409 });
  }
  // The page comes back with the link edited open, a new link's too; a deleted one's is gone.
  const added = form.get("intent") === "add" ? (form.get("type") === "chat" ? "chat" : (edit.document.template.chain.at(-1)?.id ?? "")) : "";
  const kept = link === "chat" ? edit.document.template.chat !== null : edit.document.template.chain.some((l) => l.id === link);
  const open = added || (kept ? link : "");
  // Spec 3 §8 "Draft saved": every edit of the Dialog tab is a save of the draft.
  return toasts(args.context).redirectWithSuccess(
    `/chains/${encodeURIComponent(id)}${open ? `?open=${encodeURIComponent(open)}#link-${encodeURIComponent(open)}` : ""}`,
    CHAINS.toasts.draftSaved,
  );
}

export default function ChainPage() {
  const { chain, template, tab, history, may, editing, options, codeHelp, open, textFromFile, context } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const refused = answer && "document" in answer ? answer : null;
  const loaded = answer && "textFromFile" in answer ? answer : null;
  const T = CHAINS.page;
  return (
    <>
      <div className="page-header">
        <h1>{chain.name}</h1>
        <span className="badge">{T.version(chain.version)}</span>
        {editing && editing.draftVersion > 0 ? <span className="badge badge-draft">{T.draftBadge}</span> : null}
        <Link to={`/chains/${chain.id}/edit`} className="btn btn-secondary">
          {T.edit}
        </Link>
      </div>
      <ChainToolbar chain={chain} write={may.write} draftVersion={editing?.draftVersion ?? 0} reply={answer && "confirm" in answer ? answer : undefined} />
      <nav className="tabs" aria-label={chain.name}>
        {TABS.map((t) => (
          <Link key={t} to={`?tab=${t}`} aria-current={t === tab ? "page" : undefined} className={t === tab ? "tab tab-active" : "tab"}>
            {T.tabs[t]}
          </Link>
        ))}
      </nav>
      <RunBar chainId={chain.id} template={editing?.document.template ?? template ?? { chain: [], chat: null }} />
      {tab === "dialog" && editing && options ? (
        <>
          {refused?.newer ? <NewerDraftStep key={refused.newer.version} step={refused.newer} /> : null}
          {refused && !refused.problems.length && !refused.newer ? (
            <p className="form-error" role="alert">
              {/* Spec 3 §8: a draft save that fails says 'Update failed' with the server's message. */}
              <strong>{CHAINS.toasts.updateFailed}</strong> {refused.message}
            </p>
          ) : null}
          <p className="muted">{CHAINS.editor.draftNote}</p>
          <ChainEditor
            // Fresh forms once the newer draft's step is answered or cancelled: its forms held the edit as typed.
            key={refused?.newer ? "typed" : "loaded"}
            document={refused?.document ?? editing.document}
            draftVersion={editing.draftVersion}
            options={options}
            problems={refused?.problems ?? []}
            typed={refused?.typed ?? {}}
            open={refused?.open ?? loaded?.open ?? open}
            confirmDelete={answer && "confirmDelete" in answer ? answer.confirmDelete : null}
            textFromFile={loaded?.textFromFile ?? textFromFile}
            codeHelp={codeHelp ?? undefined}
          />
        </>
      ) : null}
      {tab === "dialog" && !editing ? (
        <>
          {may.write ? null : <p className="muted">{CHAINS.readOnlyNote}</p>}
          {template ? <ChainDialog links={template.chain} chat={template.chat} options={template.options} runLinks /> : null}
        </>
      ) : null}
      {context ? <ContextTab chainId={chain.id} {...context} /> : null}
      {tab === "history" ? (
        <ChainHistory history={history} write={may.write} refused={answer && "commentRefused" in answer ? answer.commentRefused : null} />      ) : null}
    </>
  );
}
