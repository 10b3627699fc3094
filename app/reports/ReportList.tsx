import { Stamp, type Column } from "~/ui/list";
import { editColumn } from "~/ui/resource-list";
import { REPORTS } from "./texts";

export type ReportRow = {
  id: string;
  name: string;
  identifier: string;
  type: string;
  organizations: string[];
  updatedAt: string;
  updatedBy: string | null;
};

const C = REPORTS.columns;

/** The reports table (spec 2 §2, §3). */
export const reportColumns: Column<ReportRow>[] = [
  { header: C.name, cell: (r) => r.name },
  { header: C.identifier, cell: (r) => <code>{r.identifier}</code> },
  { header: C.type, cell: (r) => r.type },
  { header: C.organizations, cell: (r) => (r.organizations.length ? r.organizations.join(", ") : REPORTS.allOrganizations) },
  { header: C.modified, cell: (r) => <Stamp at={r.updatedAt} by={r.updatedBy} /> },
  editColumn((r) => `/reports/${r.id}/edit`),
];
