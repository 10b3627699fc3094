/**
 * The template editor's page (spec 3 §2.6): the header (BACK, workflow and template titles, the state badge, the
 * shortest planned duration), the template's actions (Export template, Delete this template, the save area of the
 * versions kit: Save or Save as draft, Discard draft, Save & Activate with its commit message; the links to
 * Variables, the roadmap and Properties), the table editor beside a picture of
 * the saved graph, and, where JavaScript runs, the canvas over the tables (`canvas`).
 */
import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { ConfirmAction } from "~/ui/confirm";
import { Toast, toastOf } from "~/ui/toast";
import { HistoryMenu } from "../versions/HistoryMenu";
import { VERSIONS } from "../versions/texts";
import { SaveArea } from "../versions/SaveArea";
import { BadgeText, BadgeToggle } from "../versions/StateBadge";
import type { EditorData, EditorReply } from "./editor.server";
import { GraphPicture } from "./GraphPicture";
import { TableEditor } from "./TableEditor";
import { EDITOR } from "./texts";

export type EditorPageProps = {
  data: EditorData;
  reply: EditorReply | undefined;
  /** Mounts the canvas over the table editor (`tables`, its fallback); absent, the tables are the editor. */
  canvas?: (tables: ReactNode) => ReactNode;
};

export function EditorPage({ data, reply, canvas }: EditorPageProps) {
  const { workflow, template, doc, badge, duration, statistics, may } = data;
  const back = `/workflows/${encodeURIComponent(workflow.id)}`;
  const tables = <TableEditor doc={doc} statistics={statistics} canWrite={may.write} reply={reply} editing={data.editing} />;
  const confirmingOptions = reply?.confirm === "step-options" && reply.values;
  /** ONLINE / OFFLINE is the activation toggle for a writer (spec 3 §2.6 "clickable"); DRAFT is a label. */
  const toggles = may.write && badge !== "draft";
  return (
    <main className="main template-editor">
      <Toast toast={toastOf(reply)} />
      <p className="back-link">
        <Link to={back}>{EDITOR.back}</Link>
      </p>
      <div className="page-header">
        <div>
          <p className="page-subtitle">{workflow.title}</p>
          <h1>
            {template.title} {toggles ? null : <BadgeText badge={badge} />}
          </h1>
          {toggles ? <BadgeToggle badge={badge} title={template.title} confirming={reply?.confirm === "toggle"} /> : null}
          <p className="editor-duration">{duration}</p>
        </div>
        <div className="header-actions">
          <HistoryMenu entries={data.history} />
          {data.versions.draft !== undefined ? (
            <Link to={`${back}/milestones/${encodeURIComponent(template.id)}/compare?to=draft`} className="btn btn-secondary">
              {VERSIONS.compareWithCurrent}
            </Link>
          ) : null}
          <a href={`${back}/milestones/${encodeURIComponent(template.id)}/export`} className="btn btn-secondary" download>
            {EDITOR.exportTemplate}
          </a>
          {may.write ? (
            <ConfirmAction
              intent="delete"
              label={EDITOR.deleteTemplate}
              title={EDITOR.deleteTitle}
              message={EDITOR.deleteMessage}
              confirmLabel={EDITOR.deleteConfirm}
              confirming={reply?.confirm === "delete"}
            />
          ) : null}
        </div>
      </div>
      <nav className="editor-links" aria-label={EDITOR.tables}>
        <a href="#variables">{EDITOR.variables}</a> <a href="#roadmap">{doc.roadmap.length ? EDITOR.editRoadmap : EDITOR.defineRoadmap}</a>{" "}
        <a href="#properties">{EDITOR.properties}</a>
      </nav>
      {may.write ? <SaveArea data={data} reply={reply} /> : null}
      {confirmingOptions ? (
        <Form method="post" className="confirm-inline" aria-labelledby="step-options-title">
          <h2 id="step-options-title">{EDITOR.stepOptionsTitle}</h2>
          <p>{EDITOR.tasksExist(reply.tasks ?? 0)}</p>
          {Object.entries(reply.values ?? {})
            .filter(([name]) => name !== "confirmed")
            .map(([name, value]) => (
              <input key={name} type="hidden" name={name} value={value} />
            ))}
          <div className="confirm-actions">
            <Link to="." className="btn btn-secondary">
              {EDITOR.no}
            </Link>
            <button type="submit" name="confirmed" value="yes" className="btn btn-primary">
              {EDITOR.yes}
            </button>
          </div>
        </Form>
      ) : null}
      <div className="editor-body">
        <div className="editor-main">{canvas ? canvas(tables) : tables}</div>
        <aside className="editor-picture">
          <GraphPicture steps={(data.saved ?? doc).steps} paths={(data.saved ?? doc).paths} />
        </aside>
      </div>
    </main>
  );
}
