import type { Db } from "../db";
import { normalizeId, type OfficeFields, type PortfolioSink } from "../dispatcher/portfolio-sink";
import { prepared } from "../lib/collection";
import type { ApplicationsStore } from "./store";

/**
 * The queues' PortfolioSink over the portfolio itself: processing and USPTO downloads
 * write the office's title, abstract and claims onto the portfolio application, in one transaction; the search index
 * follows through the applications table's triggers. An application is found by its id as stored, else by the
 * normalized form of the id ("PCT/US24/012345" = "PCTUS24012345").
 */
export class ApplicationsSink implements PortfolioSink {
  constructor(
    private readonly db: Db,
    private readonly store: ApplicationsStore,
  ) {}

  private find(id: string): string | null {
    if (this.store.row(id)) return id;
    const normalized = normalizeId(id);
    return normalized !== id && this.store.row(normalized) ? normalized : null;
  }

  async updateFromOffice(id: string, fields: OfficeFields): Promise<"updated" | "not-found"> {
    return this.db.transaction((): "updated" | "not-found" => {
      const found = this.find(id);
      if (!found) return "not-found";
      this.store.updateFromOffice(found, fields, null);
      return "updated";
    })();
  }

  async existing(ids: readonly string[]): Promise<Set<string>> {
    const has = prepared(this.db, "select 1 from applications where id = ?");
    return new Set(ids.filter((id) => has.get(id) !== undefined || has.get(normalizeId(id)) !== undefined));
  }
}
