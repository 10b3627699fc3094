/**
 * The history dropdown of a versioned document's header (spec 3 §2.6): a `<details>` menu, so it opens without
 * JavaScript; each line is a link to that version (the draft in the editor, a revision's read-only preview) saying
 * its status, date, author and commit message.
 */
import { Link } from "@remix-run/react";
import { VERSIONS } from "./texts";
import type { HistoryEntry } from "./versions";

export function HistoryMenu({ entries }: { entries: readonly HistoryEntry[] }) {
  if (!entries.length) return null;
  return (
    <details className="history-menu">
      <summary className="btn btn-secondary">{VERSIONS.history}</summary>
      <ol className="history-list" aria-label={VERSIONS.historyLabel}>
        {entries.map((e) => (
          <li key={e.key}>
            <Link to={e.href} aria-current={e.shown ? "page" : undefined} className="history-entry">
              <span className="history-head">
                <strong>{e.label}</strong> <span className="history-status">{e.status}</span>
              </span>
              <span className="history-meta">{`${e.date} · ${e.author}`}</span>
              <span className="history-message">{e.message}</span>
            </Link>
          </li>
        ))}
      </ol>
    </details>
  );
}
