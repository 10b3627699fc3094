import { REPORT_MESSAGES, type ReportType } from "@contract/reports";
import { SAVE_TOASTS } from "~/lib/form-texts";

/** Reports texts (spec 2 §2, §5, §8: 'Update failed' with the server's message). */
export const REPORTS = {
  listTitle: "Reports",
  addNew: "",
  searchLabel: "Search reports",
  columns: { name: "Name", identifier: "Identifier", type: "Type", organizations: "Organizations", modified: "Last modification" },
  editTitle: "Edit report",
  labels: { identifier: "Identifier", name: "Name", description: "Description", organizations: "Organizations", type: "Type" },
  types: { stream: "Stream", table: "Table", summary: "Summary" } satisfies Record<ReportType, string>,
  allOrganizations: "All organizations",
  noOrganizations: "No organizations yet.",
  organizationsHint: "The organizations whose users get this report; none chosen: every organization.",
  save: "Save",
  cancel: "Cancel",
  readOnlyNote: "You can look at this report; changing it needs the forms permission.",
  validation: REPORT_MESSAGES,
  inline: { saveFailed: "Failed to save a report. Check your input and try again." },
  toasts: SAVE_TOASTS,
  empty: "No reports.",
  emptySearch: (q: string) => `No reports match “${q}”.`,
  total: (n: number) => `${n.toLocaleString("en-US")} ${n === 1 ? "report" : "reports"} in total`,
} as const;
