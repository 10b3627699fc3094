import { ORGANIZATION_MESSAGES } from "@contract/organizations";

/**
 * Organizations texts. Spec 1 §2 and spec 3 §2.10 name the screens only; the failure titles follow spec 3 §8's
 * pattern ("Failed to create model"), the confirmation follows the other deletes ("This action can't be undone.").
 */
export const ORGANIZATIONS = {
  listTitle: "Organizations",
  addNew: "+ add new",
  searchLabel: "Search organizations",
  columns: { name: "Name", createdAt: "Created At", updatedAt: "Updated At" },
  newTitle: "New Organization",
  editTitle: "Edit Organization",
  labels: { name: "Name" },
  save: "Save",
  update: "Update",
  cancel: "Cancel",
  delete: "Delete",
  by: (who: string | null) => (who ? `by ${who}` : ""),
  aiNote: "Speech-to-text and model settings need the administration permission.",
  readOnlyNote: "You can look at this organization; changing it needs the organizations.write permission.",
  /** The contract's validation messages (spec 1 §5), defined once there. */
  validation: ORGANIZATION_MESSAGES,
  toasts: {
    created: "Organization created",
    updated: "Organization updated",
    deleted: "Organization deleted",
    createFailed: "Failed to create organization",
    updateFailed: "Failed to update organization",
    deleteFailed: "Failed to delete organization",
  },
  inline: { saveFailed: "Failed to save organization. Check your input and try again." },
  confirmDelete: {
    title: "Delete organization?",
    message: (name: string) => `${name} will be deleted and removed from its users. This action can't be undone.`,
    confirm: "Delete",
  },
  empty: "No organizations yet.",
  emptySearch: (q: string) => `No organizations match “${q}”.`,
  total: (n: number) => `${n.toLocaleString("en-US")} ${n === 1 ? "organization" : "organizations"} in total`,
} as const;
