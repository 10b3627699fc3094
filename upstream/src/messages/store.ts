import type { Message } from "../../contract/messages";
import type { Db } from "../db";
import { CollectionStore, columns } from "../lib/collection-store";
import { uniqueTags } from "../lib/tags";

/** Message templates (spec 2 §3): name, description and tags in columns; subject, body and recipients in `data`. */
export class MessagesStore extends CollectionStore<Message> {
  constructor(db: Db, now: () => number) {
    super(db, now, {
      table: "messages",
      columns: { name: columns.text("name"), description: columns.text("description"), tags: columns.json("tags") },
      data: { subject: "", body: "", to: [], cc: [], bcc: [] },
      search: ["name", "description", "tags"],
      normalize: (values) => ({ ...values, tags: uniqueTags(values.tags) }),
    });
  }
}
