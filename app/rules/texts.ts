import { MEASURE_LABELS } from "@contract/deadlines";
import { RULE_MESSAGES } from "@contract/rules";
import { CLONE_TOASTS, SAVE_TOASTS } from "~/lib/form-texts";

/**
 * Rules texts. Spec 2 names the screens only (§2 Rules); the fields are the docketing rules of
 * docs/decisions/docketing-rules.md, the toasts follow spec 2 §8's ('Create completed', 'Clone completed', …).
 */
export const RULES = {
  listTitle: "Rules",
  addNew: "+ new",
  searchLabel: "Search rules",
  columns: { name: "Name", jurisdiction: "Jurisdiction", trigger: "Triggering event", deadlines: "Deadlines", modified: "Last modification" },
  newTitle: "New Rule",
  editTitle: "Edit Rule",
  labels: {
    name: "Name",
    description: "Description",
    jurisdiction: "Jurisdiction",
    trigger: "Triggering event",
    rollWeekends: "Move dates falling on a weekend to the next Monday",
    deadlines: "Deadlines",
    label: "Label",
    amount: "Amount",
    measure: "Measure",
    extensionTimes: "Extensions",
    extensionAmount: "Each of",
    extensionMeasure: "Extension measure",
  },
  measures: MEASURE_LABELS,
  deadlineLegend: (n: number) => `Deadline ${n}`,
  addDeadline: "Add a deadline",
  removeDeadline: (n: number) => `Remove deadline ${n}`,
  jurisdictionHint: "For example US, EP, PCT.",
  extensionHint: "Extensions available after the due date (0: none), each of the amount and measure given.",
  save: "Save",
  cancel: "Cancel",
  delete: "Delete",
  previewTitle: "Deadline preview",
  triggerDate: "Trigger date",
  preview: "Preview deadlines",
  previewColumns: { label: "Deadline", due: "Due date", extensions: "Extended dates", final: "Final date" },
  previewNeedsValidRule: "Correct the rule's fields to preview its deadlines.",
  badTriggerDate: "Enter the trigger date as a date (YYYY-MM-DD).",
  noExtensions: "—",
  readOnlyNote: "You can look at this rule; changing it needs the templates permission.",
  validation: RULE_MESSAGES,
  inline: { saveFailed: "Failed to save a rule. Check your input and try again." },
  toasts: { ...SAVE_TOASTS, ...CLONE_TOASTS },
  confirmDelete: {
    title: "Delete rule?",
    message: (name: string) => `${name} will be deleted. This action can't be undone.`,
    confirm: "Delete",
  },
  empty: "No rules yet.",
  emptySearch: (q: string) => `No rules match “${q}”.`,
  total: (n: number) => `${n.toLocaleString("en-US")} ${n === 1 ? "rule" : "rules"} in total`,
} as const;
