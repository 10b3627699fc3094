/**
 * Where processing and USPTO downloads write what the patent office says about an application.
 * The portfolio implements it (upstream/src/applications/office-sink.ts: the applications store, whose triggers keep the
 * search index); tests pass their own.
 */
export type OfficeFields = { title: string; abstract: string; claims: string };

export interface PortfolioSink {
  /** Updates the portfolio application `id` with the office's fields and reindexes it. */
  updateFromOffice(id: string, fields: OfficeFields): Promise<"updated" | "not-found">;
  /** Which of `ids` are portfolio applications (a download matching none is unmatched). */
  existing(ids: readonly string[]): Promise<Set<string>>;
}

/** "PCT/US24/012345" and "PCTUS24012345" are the same application. */
export const normalizeId = (id: string) => id.replace(/[^A-Za-z0-9]/g, "").toUpperCase();
