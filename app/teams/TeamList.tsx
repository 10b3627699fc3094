import { Link } from "@remix-run/react";
import { NO_VALUE, Stamp, type Column } from "~/ui/list";
import { editColumn } from "~/ui/resource-list";
import { TEAMS } from "./texts";

export type TeamRow = {
  id: string;
  name: string;
  members: string[];
  more: number;
  createdAt: string;
  createdBy: string | null;
  updatedAt: string;
  updatedBy: string | null;
};

const C = TEAMS.columns;
const teamPath = (t: { id: string }): `/${string}` => `/teams/${t.id}`;

/** The teams table (spec 1 §2): name, the first members then "N more...", created and updated with who. */
export function teamColumns(canWrite: boolean): Column<TeamRow>[] {
  return [
    { header: C.name, cell: (t) => <Link to={teamPath(t)}>{t.name}</Link> },
    {
      header: C.members,
      cell: (t) =>
        t.members.length === 0 ? (
          NO_VALUE
        ) : (
          <span className="team-members">
            {t.members.join(", ")}
            {t.more > 0 ? <span className="muted"> {TEAMS.more(t.more)}</span> : null}
          </span>
        ),
    },
    { header: C.createdAt, cell: (t) => <Stamp at={t.createdAt} by={t.createdBy} /> },
    { header: C.updatedAt, cell: (t) => <Stamp at={t.updatedAt} by={t.updatedBy} /> },
    // The edit pencil needs users.write (spec 1 §2).
    ...(canWrite ? [editColumn<TeamRow>(teamPath)] : []),
  ];
}
