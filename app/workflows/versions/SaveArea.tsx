/**
 * The template editor's save area (spec 3 §2.6 buttons, §4.1 their conditions): Save, or Save as draft for a
 * running template, Discard draft while the page shows a draft, Save & Activate with its commit message and the
 * differ's summary of what it changes, and the 'Overwrite draft?' step after a draft save found a newer draft. Every
 * button is a form post (no JavaScript needed); with JavaScript the canvas adds its document to the save posts.
 */
import { Form } from "@remix-run/react";
import { ConfirmAction } from "~/ui/confirm";
import type { EditorData, EditorReply } from "../editor/editor.server";
import { EDITOR } from "../editor/texts";
import { ChangeList } from "./ChangeList";
import { OverwriteDraftStep } from "./OverwriteDraftStep";
import { VERSIONS } from "./texts";
import { VersionFields } from "./versions";

export function SaveArea({ data, reply }: { data: EditorData; reply: EditorReply | undefined }) {
  const { template, versions } = data;
  const draftTemplate = template.type === "draft";
  const showsDraft = draftTemplate || versions.draft !== undefined;
  /**
   * Save or Save as draft (§2.6, §4.1): a running (ONLINE) template's changes are parked in its draft — they reach the
   * engine only through Save & Activate; a draft template's Save keeps it a draft; an OFFLINE template's Save makes
   * the changes the template (a new revision; nothing runs it).
   */
  const toDraft = draftTemplate || template.active;
  return (
    <>
      <div className="editor-save">
        <Form method="post" className="inline-form">
          <VersionFields versions={versions} />
          {toDraft ? <input type="hidden" name="to" value="draft" /> : null}
          <button type="submit" name="intent" value="save" className="btn btn-secondary">
            {template.active ? VERSIONS.saveAsDraft : EDITOR.save}
          </button>
        </Form>
        {showsDraft ? (
          <ConfirmAction
            intent="discard-draft"
            label={VERSIONS.discardDraft}
            title={VERSIONS.discardTitle}
            message={draftTemplate ? VERSIONS.deleteDraftMessage : VERSIONS.discardMessage}
            confirmLabel={VERSIONS.discardConfirm}
            confirming={reply?.confirm === "discard-draft"}
            fields={versions.draft !== undefined ? { draftVersion: String(versions.draft) } : {}}
            buttonClassName="btn btn-secondary"
          />
        ) : null}
        <Form method="post" className="inline-form" aria-label={EDITOR.saveActivate}>
          <VersionFields versions={versions} />
          <div className="field">
            <label htmlFor="commit-message">{EDITOR.commitMessage}</label>
            <input id="commit-message" name="commitMessage" aria-describedby="commit-message-hint" defaultValue={reply?.values?.commitMessage} />
            <p id="commit-message-hint" className="field-hint">
              {EDITOR.commitHint}
            </p>
          </div>
          {data.changes ? (
            <details className="commit-summary">
              <summary>{`${VERSIONS.whatChanges} (${data.changes.length})`}</summary>
              {data.changes.length ? <ChangeList changes={data.changes} /> : <p>{VERSIONS.nothingChanges}</p>}
            </details>
          ) : draftTemplate ? (
            <p className="field-hint">{VERSIONS.newTemplate}</p>
          ) : null}
          <button type="submit" name="intent" value="save-activate" className="btn btn-primary">
            {EDITOR.saveActivate}
          </button>
        </Form>
        {reply && reply.ok === false && !reply.form && reply.message ? (
          <p className="form-error" role="alert">
            {reply.message}
          </p>
        ) : null}
      </div>
      {reply?.confirm === "overwrite-draft" && reply.overwrite ? (
        <OverwriteDraftStep
          key={reply.overwrite.version}
          overwrite={reply.overwrite}
          intent="save"
          // A draft template's token is its write counter (baseVersion); a template's draft, the draft's version.
          fields={{ to: "draft", [draftTemplate ? "baseVersion" : "draftVersion"]: String(reply.overwrite.version) }}
        />
      ) : null}
    </>
  );
}
