import type { Db } from "../db";

/**
 * Where processing and USPTO downloads write what the patent office says about an application (issue 13, item 3).
 * The portfolio applications store and its search index are issue 11's; at merge the lead implements this interface
 * over them (update title, abstract and claims, then reindex) and passes it as `UpstreamOptions.portfolio`
 * (upstream/src/app.ts, "issue 13: wire the applications store here"). Until then OfficeRecordsSink below keeps
 * the office's copy in its own table.
 */
export type OfficeFields = { title: string; abstract: string; claims: string };

export interface PortfolioSink {
  /** Updates the portfolio application `id` with the office's fields and reindexes it. */
  updateFromOffice(id: string, fields: OfficeFields): Promise<"updated" | "not-found">;
  /** Which of `ids` are portfolio applications (a download matching none is unmatched). */
  existing(ids: readonly string[]): Promise<Set<string>>;
}

/**
 * STAND-IN until issue 11's applications store is wired (see above): the office's fields in `office_records`; an
 * application counts as in the portfolio once processing has recorded it.
 */
export class OfficeRecordsSink implements PortfolioSink {
  private readonly upsert;
  private readonly has;

  constructor(
    db: Db,
    private readonly now: () => number,
  ) {
    this.upsert = db.prepare(
      `insert into office_records (id, title, abstract, claims, updated_at) values (?, ?, ?, ?, ?)
       on conflict (id) do update set title = excluded.title, abstract = excluded.abstract, claims = excluded.claims,
       updated_at = excluded.updated_at`,
    );
    this.has = db.prepare<[string], { id: string }>(`select id from office_records where id = ?`);
  }

  async updateFromOffice(id: string, fields: OfficeFields): Promise<"updated"> {
    this.upsert.run(normalizeId(id), fields.title, fields.abstract, fields.claims, this.now());
    return "updated";
  }

  async existing(ids: readonly string[]): Promise<Set<string>> {
    return new Set(ids.filter((id) => this.has.get(normalizeId(id))));
  }
}

/** "PCT/US24/012345" and "PCTUS24012345" are the same application. */
export const normalizeId = (id: string) => id.replace(/[^A-Za-z0-9]/g, "").toUpperCase();
