import { NO_VALUE, Stamp, type Column } from "~/ui/list";
import { cloneEditColumn } from "~/ui/resource-list";
import { RULES } from "./texts";

export type RuleRow = {
  id: string;
  name: string;
  jurisdiction: string;
  trigger: string;
  deadlines: string[];
  updatedAt: string;
  updatedBy: string | null;
};

const C = RULES.columns;

/** The rules table, with Clone (needs `templates`) and Edit. */
export const ruleColumns = (canClone: boolean): Column<RuleRow>[] => [
  { header: C.name, cell: (r) => r.name },
  { header: C.jurisdiction, cell: (r) => r.jurisdiction || NO_VALUE },
  { header: C.trigger, cell: (r) => r.trigger },
  {
    header: C.deadlines,
    cell: (r) => (
      <ul className="plain-list">
        {r.deadlines.map((d, i) => (
          <li key={i}>{d}</li>
        ))}
      </ul>
    ),
  },
  { header: C.modified, cell: (r) => <Stamp at={r.updatedAt} by={r.updatedBy} /> },
  cloneEditColumn((r) => `/rules/${r.id}/edit`, canClone),
];
