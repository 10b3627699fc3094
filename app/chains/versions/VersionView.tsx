/**
 * A chain's version view (spec 3 §2.9, §4.2): the item (the active version), a numbered version's read-only preview,
 * or the draft — the history menu, Compare with current, and the actions §4.2 allows there: activate the draft or a
 * version that is not the active one (each asking for a Comment), discard the draft, delete a version, put a numbered
 * version into the draft ('Save as draft'). Every action
 * asks first with the shared ConfirmAction, so each works without JavaScript (the inline step) and with it (a dialog).
 */
import { Form, Link } from "@remix-run/react";
import { ChainDialog } from "~/chains/ChainView";
import { ConfirmAction } from "~/ui/confirm";
import { Toast, toastOf } from "~/ui/toast";
import { HistoryMenu } from "~/workflows/versions/HistoryMenu";
import { CHAIN_VERSIONS as V } from "./texts";
import { chainUrl } from "./urls";
import type { VersionData, VersionReply } from "./versions.server";

/** The Comment an activation asks for (spec 3 §8 'Activate {draft|version}?', 'Save new version?'), kept as typed when refused. */
export function CommentField({ value, error }: { value: string; error: string | undefined }) {
  return (
    <div className="field">
      <label htmlFor="version-comment">{V.comment}</label>
      <textarea id="version-comment" name="comment" rows={2} maxLength={2000} defaultValue={value} aria-describedby="version-comment-hint" aria-invalid={error ? true : undefined} />
      <p className="field-hint" id="version-comment-hint">
        {error ?? V.commentHint}
      </p>
    </div>
  );
}

/**
 * 'Save as draft' (spec 3 §4.2): version N's content into the draft. With no draft nothing is lost, so it saves at
 * once; over a draft it asks 'Overwrite draft?' first, posting the draft's version the page showed (a newer one: 409).
 */
function SaveAsDraft({ version, openDraft, confirming }: { version: number; openDraft: number; confirming: boolean }) {
  const fields = { draftVersion: String(openDraft) };
  if (openDraft === 0) {
    return (
      <Form method="post" className="inline-form">
        <input type="hidden" name="confirmed" value="yes" />
        <input type="hidden" name="draftVersion" value="0" />
        <button type="submit" name="intent" value="saveAsDraft" className="btn btn-secondary" title={V.saveAsDraftHint}>
          {V.saveAsDraft}
        </button>
      </Form>
    );
  }
  return (
    <ConfirmAction
      intent="saveAsDraft"
      label={V.saveAsDraft}
      title={V.overwriteTitle}
      message={V.overwriteMessage(version)}
      confirmLabel={V.overwriteConfirm}
      confirming={confirming}
      fields={fields}
      buttonClassName="btn btn-secondary"
    />
  );
}

export function VersionView({ data, reply }: { data: VersionData; reply: VersionReply | undefined }) {
  const { chain, view, document, active, may } = data;
  const isDraft = view === "draft";
  const what = isDraft ? "draft" : "version";
  const label = isDraft ? V.draft : V.version(view);
  // The step again after a refusal too: the comment as typed, the reason above.
  const confirming = (intent: string) => reply?.confirm === intent;
  const fields = data.draftVersion === null ? undefined : { draftVersion: String(data.draftVersion) };
  return (
    <>
      <Toast toast={toastOf(reply)} />
      <p className="back-link">
        <Link to={chainUrl(chain.id)}>{V.back}</Link>
      </p>
      <div className="page-header">
        <div>
          <h1>
            {chain.name} <span className="badge badge-revision">{label}</span>
          </h1>
          <p className="muted">{isDraft ? V.draftView : active ? V.activeNote : V.preview}</p>
        </div>
        <div className="header-actions chain-toolbar">
          <HistoryMenu entries={data.history} />
          {!active && document ? (
            <Link to={`${chainUrl(chain.id)}/compare?to=${view}`} className="btn btn-secondary">
              {V.compare}
            </Link>
          ) : null}
          {document ? (
            <Link to={`${chainUrl(chain.id)}/export?of=${isDraft ? "draft" : view}`} className="btn btn-secondary">
              {V.export}
            </Link>
          ) : null}
        </div>
      </div>
      {reply?.message && reply.toast ? (
        <div className="form-error" role="alert">
          <p>{reply.message}</p>
          {reply.problems?.length ? (
            <ul>
              {reply.problems.map((p, i) => (
                <li key={i}>{p}</li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      {may.write && document ? (
        <div className="chain-version-actions">
          {isDraft ? null : <SaveAsDraft version={Number(view)} openDraft={data.openDraft} confirming={confirming("saveAsDraft")} />}
          {active ? null : (
            <ConfirmAction
              intent="activate"
              label={isDraft ? V.activateDraft : V.activateVersion}
              title={V.activateTitle(what)}
              message={isDraft ? V.activateDraftMessage : V.activateVersionMessage(Number(view))}
              confirmLabel={V.activate}
              confirming={confirming("activate")}
              danger={false}
              fields={fields}
            >
              <CommentField value={reply?.comment ?? ""} error={reply?.confirm === "activate" && !reply.toast ? reply.message : undefined} />
            </ConfirmAction>
          )}
          {isDraft || active ? null : (
            <ConfirmAction
              intent="deleteVersion"
              label={V.deleteVersion}
              title={V.deleteVersionTitle}
              message={V.deleteVersionMessage(Number(view))}
              confirmLabel={V.delete}
              confirming={confirming("deleteVersion")}
            />
          )}
          {isDraft ? (
            <ConfirmAction
              intent="discard"
              label={V.discardDraft}
              title={V.discardTitle}
              message={V.discardMessage}
              confirmLabel={V.discardConfirm}
              confirming={confirming("discard")}
              fields={fields}
            />
          ) : null}
        </div>
      ) : null}
      {document ? (
        <ChainDialog links={document.template.chain} chat={document.template.chat} options={document.template.options} />
      ) : (
        <p className="muted">{V.noDraft}</p>
      )}
    </>
  );
}
