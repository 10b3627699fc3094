/**
 * A template revision's read-only preview (spec 3 §2.6): the header with the history and the badge saying the
 * revision's label, Activate for a revision (§4.1), the revision's tables (no forms) and its picture.
 */
import { Form, Link } from "@remix-run/react";
import { Toast, toastOf } from "~/ui/toast";
import { GraphPicture } from "../editor/GraphPicture";
import { TableEditor } from "../editor/TableEditor";
import { EDITOR } from "../editor/texts";
import { HistoryMenu } from "./HistoryMenu";
import type { RevisionData, RevisionReply } from "./templates.server";
import { VERSIONS } from "./texts";
import { VersionFields } from "./versions";

export function RevisionPreview({ data, reply }: { data: RevisionData; reply: RevisionReply | undefined }) {
  const { workflow, template, revision, doc } = data;
  return (
    <main className="main template-editor">
      <Toast toast={toastOf(reply)} />
      <p className="back-link">
        <Link to={data.editor}>{EDITOR.back}</Link>
      </p>
      <div className="page-header">
        <div>
          <p className="page-subtitle">{workflow.title}</p>
          <h1>
            {template.title} <span className="badge badge-revision">{VERSIONS.revision(revision)}</span>
          </h1>
          <p className="editor-duration">{data.duration}</p>
        </div>
        <div className="header-actions">
          <HistoryMenu entries={data.history} />
          {!data.current ? (
            <Link to={`${data.editor}/compare?to=${revision}`} className="btn btn-secondary">
              {VERSIONS.compareWithCurrent}
            </Link>
          ) : null}
          {data.may.write && !data.current ? (
            <Form method="post" className="inline-form">
              <VersionFields versions={data.versions} />
              <button type="submit" name="intent" value="activate" className="btn btn-primary">
                {VERSIONS.activate}
              </button>
            </Form>
          ) : null}
        </div>
      </div>
      <p className="preview-note">
        {VERSIONS.preview} <Link to={data.editor}>{VERSIONS.backToEditor}</Link>
      </p>
      {reply?.message ? (
        <p className="form-error" role="alert">
          {reply.message}
        </p>
      ) : null}
      <div className="editor-body">
        <div className="editor-main">
          <TableEditor doc={doc} statistics={{}} canWrite={false} reply={undefined} editing={null} />
        </div>
        <aside className="editor-picture">
          <GraphPicture steps={doc.steps} paths={doc.paths} />
        </aside>
      </div>
    </main>
  );
}
