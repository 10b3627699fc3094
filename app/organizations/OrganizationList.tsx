import { Link } from "@remix-run/react";
import type { Column } from "~/ui/list";
import { Stamp } from "~/ui/list";
import { editColumn } from "~/ui/resource-list";
import { ORGANIZATIONS } from "./texts";

export type OrganizationRow = {
  id: string;
  name: string;
  createdAt: string;
  createdBy: string | null;
  updatedAt: string;
  updatedBy: string | null;
};

const C = ORGANIZATIONS.columns;
const editPath = (o: { id: string }): `/${string}` => `/organizations/${o.id}/edit`;

/** The organizations table (spec 1 §2): name, created and updated with who. */
export const organizationColumns: Column<OrganizationRow>[] = [
  { header: C.name, cell: (o) => <Link to={editPath(o)}>{o.name}</Link> },
  { header: C.createdAt, cell: (o) => <Stamp at={o.createdAt} by={o.createdBy} /> },
  { header: C.updatedAt, cell: (o) => <Stamp at={o.updatedAt} by={o.updatedBy} /> },
  editColumn(editPath),
];
