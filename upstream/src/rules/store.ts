import type { Rule } from "../../contract/rules";
import type { Db } from "../db";
import { CollectionStore, columns } from "../lib/collection-store";

/** Docketing rules: name, jurisdiction and trigger in columns (search), description and deadlines in `data`. */
export class RulesStore extends CollectionStore<Rule> {
  constructor(db: Db, now: () => number) {
    super(db, now, {
      table: "rules",
      columns: { name: columns.text("name"), jurisdiction: columns.text("jurisdiction"), trigger: columns.text("trigger_event") },
      data: { description: "", deadlines: [], rollWeekends: true },
      search: ["name", "jurisdiction", "trigger_event"],
    });
  }
}
