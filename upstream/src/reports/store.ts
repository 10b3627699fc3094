import type { Report } from "../../contract/reports";
import type { Db } from "../db";
import { CollectionStore, columns } from "../lib/collection-store";

/** Reports: identifier, name, type and description in columns, organizations (ids) as JSON. */
export class ReportsStore extends CollectionStore<Report> {
  constructor(db: Db, now: () => number) {
    super(db, now, {
      table: "reports",
      columns: {
        identifier: columns.text("identifier"),
        name: columns.text("name"),
        description: columns.text("description"),
        type: columns.text("type"),
        organizations: columns.json("organizations"),
      },
      search: ["name", "identifier", "description"],
      normalize: (values) => ({ ...values, organizations: [...new Set(values.organizations)] }),
    });
  }
}
