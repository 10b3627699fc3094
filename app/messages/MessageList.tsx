import { NO_VALUE, Stamp, tagsCell, type Column } from "~/ui/list";
import { cloneEditColumn } from "~/ui/resource-list";
import { MESSAGES } from "./texts";

export type MessageRow = {
  id: string;
  name: string;
  description: string;
  tags: string[];
  updatedAt: string;
  updatedBy: string | null;
};

const C = MESSAGES.columns;

/** The messages table (spec 2 §2: Clone and Edit actions; Clone needs `messages`). */
export const messageColumns = (canClone: boolean): Column<MessageRow>[] => [
  { header: C.name, cell: (m) => m.name },
  { header: C.description, cell: (m) => m.description || NO_VALUE },
  { header: C.tags, cell: (m) => tagsCell(m.tags) },
  { header: C.modified, cell: (m) => <Stamp at={m.updatedAt} by={m.updatedBy} /> },
  cloneEditColumn((m) => `/messages/${m.id}/edit`, canClone),
];
