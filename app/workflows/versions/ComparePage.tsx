/**
 * A template's compare page (spec 3 §2.6 compare mode): the named changes, deleted in red and created in green, each
 * with a sign and a word too (not by colour alone), and the two graphs' pictures side by side; 'Quit comparision
 * mode' goes back to the editor. Rendered on the server: it works without JavaScript.
 */
import { Link } from "@remix-run/react";
import { GraphPicture } from "../editor/GraphPicture";
import { EDITOR } from "../editor/texts";
import { ChangeList } from "./ChangeList";
import type { CompareData } from "./compare.server";
import { VERSIONS } from "./texts";

export function ComparePage({ data }: { data: CompareData }) {
  const { workflow, template, labels } = data;
  return (
    <main className="main template-editor template-compare">
      <p className="back-link">
        <Link to={data.editor}>{EDITOR.back}</Link>
      </p>
      <div className="page-header">
        <div>
          <p className="page-subtitle">{workflow.title}</p>
          <h1>{template.title}</h1>
          <p>{VERSIONS.compareTitle(labels.current, labels.other)}</p>
        </div>
        <div className="header-actions">
          <Link to={data.editor} className="btn btn-primary">
            {VERSIONS.quitCompare}
          </Link>
        </div>
      </div>
      <section aria-labelledby="compare-changes-heading">
        <h2 id="compare-changes-heading">{VERSIONS.changes}</h2>
        {data.changes.length ? (
          <ChangeList changes={data.changes} />
        ) : (
          <p className="empty-state">{VERSIONS.noChanges}</p>
        )}
      </section>
      <div className="compare-pictures">
        <GraphPicture id="compare-current" caption={VERSIONS.pictureOf(labels.current)} steps={data.current.steps} paths={data.current.paths} marks={data.current.marks} />
        <GraphPicture id="compare-other" caption={VERSIONS.pictureOf(labels.other)} steps={data.other.steps} paths={data.other.paths} marks={data.other.marks} />
      </div>
    </main>
  );
}
