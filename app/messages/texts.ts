import { MESSAGE_MESSAGES } from "@contract/messages";
import { CLONE_TOASTS, SAVE_TOASTS } from "~/lib/form-texts";

/** Messages texts, verbatim from spec 2 §2, §5, §8 where it has them. Tests import these. */
export const MESSAGES = {
  listTitle: "Messages",
  addNew: "+ new",
  searchLabel: "Search messages",
  columns: { name: "Name", description: "Description", tags: "Tags", modified: "Last modification" },
  newTitle: "New Message",
  editTitle: "Edit Message",
  labels: {
    name: "Name",
    description: "Description",
    tags: "Tags",
    subject: "Subject",
    body: "Body",
    to: "To",
    cc: "Cc",
    bcc: "Bcc",
  },
  recipientsHint: 'E-mail addresses or variables such as @clients.primary.work, separated by ";".',
  save: "Save",
  cancel: "Cancel",
  delete: "Delete",
  clone: "Clone",
  preview: "Preview",
  previewTitle: "Preview",
  previewFailed: "The template cannot be rendered:",
  sampleContext: "Sample context",
  readOnlyNote: "You can look at this message; changing it needs the messages permission.",
  validation: MESSAGE_MESSAGES,
  inline: { saveFailed: "Failed to save a message..." },
  toasts: { ...SAVE_TOASTS, ...CLONE_TOASTS },
  confirmDelete: {
    title: "Delete message?",
    message: (name: string) => `${name} will be deleted. This action can't be undone.`,
    confirm: "Delete",
  },
  empty: "No messages yet.",
  emptySearch: (q: string) => `No messages match “${q}”.`,
  total: (n: number) => `${n.toLocaleString("en-US")} ${n === 1 ? "message" : "messages"} in total`,
} as const;
