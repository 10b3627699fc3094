import { Link } from "@remix-run/react";
import type { FormType } from "@contract/forms";
import { Icon } from "~/ui/icons";
import type { Column } from "~/ui/list";
import { FORMS } from "./texts";

export type FormRow = {
  id: string;
  name: string;
  type: FormType;
  description: string;
  tags: string[];
  modified: string;
  formFile: { name: string; href: string } | null;
  modelFile: { name: string; href: string } | null;
};

const C = FORMS.columns;
const editPath = (f: { id: string }) => `/forms/${f.id}/edit`;

/** The forms table: name, type, description, tags, last modification; downloads of form and model, edit. */
export const formColumns: Column<FormRow>[] = [
  { header: C.name, className: "name-cell", cell: (f) => <Link to={editPath(f)}>{f.name}</Link> },
  { header: C.type, cell: (f) => FORMS.types[f.type] },
  { header: C.description, cell: (f) => <span className="clamp">{f.description}</span> },
  { header: C.tags, cell: (f) => f.tags.join(", ") },
  { header: C.modified, cell: (f) => <span className="nowrap">{f.modified}</span> },
  {
    header: C.actions,
    className: "actions",
    cell: (f) => (
      <span className="row-actions">
        {f.formFile ? (
          <a href={f.formFile.href} className="icon-button" aria-label={`${FORMS.downloadForm} ${f.formFile.name}`} title={FORMS.downloadForm} download>
            <Icon name="download" />
          </a>
        ) : null}
        {f.modelFile ? (
          <a href={f.modelFile.href} className="icon-button" aria-label={`${FORMS.downloadModel} ${f.modelFile.name}`} title={FORMS.downloadModel} download>
            <Icon name="archive" />
          </a>
        ) : null}
        <Link to={editPath(f)} className="icon-button" aria-label={`Edit ${f.name}`} title="Edit">
          <Icon name="pencil" />
        </Link>
      </span>
    ),
  },
];
