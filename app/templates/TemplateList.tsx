import { Link } from "@remix-run/react";
import { Icon } from "~/ui/icons";
import type { Column } from "~/ui/list";
import type { TemplateTexts } from "./texts";

export type TemplateRow = {
  id: string;
  name: string;
  fileName: string;
  description: string;
  tags: string[];
  modified: string;
  title: string | null;
  author: string | null;
  documentModified: string | null;
  download: string | null;
};

/**
 * The columns of the Word, Visio and drawing lists (spec 2 §2: Name, Description, Tags, Last modification; actions
 * download and edit). The file's document properties (title, author, its own modification date) show under the name.
 */
export function templateColumns(texts: TemplateTexts, editPath: (id: string) => string): Column<TemplateRow>[] {
  const C = texts.columns;
  return [
    {
      header: C.name,
      className: "name-cell",
      cell: (t) => (
        <>
          <Link to={editPath(t.id)}>{t.name}</Link>
          {t.title || t.author ? <div className="muted small">{texts.properties(t.title, t.author)}</div> : null}
        </>
      ),
    },
    { header: C.description, cell: (t) => <span className="clamp">{t.description}</span> },
    {
      header: C.tags,
      cell: (t) => (
        <ul className="tag-list" aria-label={C.tags}>
          {t.tags.map((tag) => (
            <li key={tag} className="tag">
              {tag}
            </li>
          ))}
        </ul>
      ),
    },
    {
      header: C.modified,
      cell: (t) => (
        <>
          <span className="nowrap">{t.modified}</span>
          {t.documentModified ? <div className="muted small">File: {t.documentModified}</div> : null}
        </>
      ),
    },
    {
      header: C.actions,
      className: "actions",
      cell: (t) => (
        <span className="row-actions">
          {t.download ? (
            // A document download, not a page: a plain link, so the browser saves it (no client-side navigation).
            <a href={t.download} className="icon-button" aria-label={texts.download(t.fileName)} title="Download" download>
              <Icon name="download" />
            </a>
          ) : null}
          <Link to={editPath(t.id)} className="icon-button" aria-label={texts.edit(t.name)} title="Edit">
            <Icon name="pencil" />
          </Link>
        </span>
      ),
    },
  ];
}
