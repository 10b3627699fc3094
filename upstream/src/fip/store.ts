import crypto from "node:crypto";
import type { FipFilter, FipSort } from "../../contract/queues";
import type { Db } from "../db";

export type FipRow = {
  id: string;
  fipId: string;
  matterNumber: string;
  fipAuditDate: string | null;
  synchronized: boolean;
  error: string | null;
  createdAt: number;
  updatedAt: number;
};

type Raw = { id: string; fip_id: string; matter_number: string; fip_audit_date: string | null; synchronized: number; error: string | null; created_at: number; updated_at: number };
const toRow = (r: Raw): FipRow => ({
  id: r.id,
  fipId: r.fip_id,
  matterNumber: r.matter_number,
  fipAuditDate: r.fip_audit_date,
  synchronized: r.synchronized === 1,
  error: r.error,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** The FIP sync records (spec 2 §3): one per docket matter, synchronized or failed with the error. */
export class FipStore {
  private readonly s;

  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {
    this.s = {
      byFipId: db.prepare<[string], Raw>(`select * from fip_matters where fip_id = ?`),
      byId: db.prepare<[string], Raw>(`select * from fip_matters where id = ?`),
      upsert: db.prepare(
        `insert into fip_matters (id, fip_id, matter_number, fip_audit_date, synchronized, error, created_at, updated_at)
         values (@id, @fipId, @matterNumber, @auditDate, @synchronized, @error, @now, @now)
         on conflict (fip_id) do update set
           matter_number = case when excluded.synchronized = 1 then excluded.matter_number else matter_number end,
           fip_audit_date = case when excluded.synchronized = 1 then excluded.fip_audit_date else fip_audit_date end,
           synchronized = excluded.synchronized, error = excluded.error, updated_at = excluded.updated_at`,
      ),
      remove: db.prepare(`delete from fip_matters where id = ?`),
      aggs: db.prepare<[], { synchronized: number; n: number }>(`select synchronized, count(*) as n from fip_matters group by synchronized`),
    };
  }

  get(id: string): FipRow | null {
    const r = this.s.byId.get(id);
    return r ? toRow(r) : null;
  }

  getByFipId(fipId: string): FipRow | null {
    const r = this.s.byFipId.get(fipId);
    return r ? toRow(r) : null;
  }

  record(fipId: string, outcome: { matterNumber: string; auditDate: string | null } | { error: string }): FipRow {
    const ok = !("error" in outcome);
    this.s.upsert.run({
      id: crypto.randomUUID(),
      fipId,
      matterNumber: ok ? outcome.matterNumber : "",
      auditDate: ok ? outcome.auditDate : null,
      synchronized: ok ? 1 : 0,
      error: ok ? null : outcome.error.slice(0, 2000),
      now: this.now(),
    });
    return this.getByFipId(fipId)!;
  }

  remove(id: string): boolean {
    return this.s.remove.run(id).changes > 0;
  }

  aggs(): { failed: number; synchronized: number } {
    const out = { failed: 0, synchronized: 0 };
    for (const r of this.s.aggs.all()) out[r.synchronized === 1 ? "synchronized" : "failed"] = r.n;
    return out;
  }

  /** Filtered by status, sorted by sync status (asc: failed first), then the most recently updated. */
  page(q: { status: readonly FipFilter[]; sort: FipSort; skip: number; limit: number }): { data: FipRow[]; total: number } {
    const wanted = [...new Set(q.status)].map((s) => (s === "synchronized" ? 1 : 0));
    if (!wanted.length) return { data: [], total: 0 };
    const where = `synchronized in (${wanted.join(", ")})`;
    const order = `synchronized ${q.sort === "asc" ? "asc" : "desc"}, updated_at desc`;
    const total = (this.db.prepare(`select count(*) as n from fip_matters where ${where}`).get() as { n: number }).n;
    const rows = this.db
      .prepare(`select * from fip_matters where ${where} order by ${order} limit ? offset ?`)
      .all(q.limit, q.skip) as Raw[];
    return { data: rows.map(toRow), total };
  }
}
