/**
 * Rebuilding the search index (applications_fts) from the stored applications, a batch a turn of the event loop, and
 * the maintained tag and portfolio counts with it. Rows written meanwhile are indexed by the table's triggers.
 */
import type { Db } from "../db";
import { prepared } from "../lib/collection";
import type { ReindexProgress } from "./engine";

export async function rebuildIndex(db: Db, batch: number, onProgress: ReindexProgress): Promise<void> {
  const total = (prepared(db, "select count(*) as n from applications").get() as { n: number }).n;
  // Rows added while this runs are indexed by the triggers: stop at today's last one (writers wait: see routes).
  const end = (prepared(db, "select coalesce(max(seq), 0) as m from applications").get() as { m: number }).m;
  onProgress(0, total);
  db.exec("insert into applications_fts (applications_fts) values ('delete-all')");
  const bound = prepared(db, "select max(seq) as hi, count(*) as n from (select seq from applications where seq > ? and seq <= ? order by seq limit ?)");
  const step = prepared(
    db,
    `insert into applications_fts (rowid, title, abstract, claims, specification, ai_text, products_text, tag_tokens, portfolio_token)
     select seq, title, abstract, claims, specification, ai_text, products_text, tag_tokens, portfolio_token
     from applications where seq > ? and seq <= ?`,
  );
  let last = 0;
  let done = 0;
  for (;;) {
    const { hi, n } = bound.get(last, end, batch) as { hi: number | null; n: number };
    if (hi === null || n === 0) break;
    db.transaction(() => step.run(last, hi))();
    last = hi;
    done += n;
    onProgress(Math.min(done, total), total);
    await new Promise((resolve) => setImmediate(resolve));
  }
  db.transaction(() => {
    db.exec("delete from tag_counts");
    db.exec("insert into tag_counts (portfolio_id, name, count) select portfolio_id, name, count(*) from application_tags group by portfolio_id, name");
    db.exec("delete from portfolio_counts");
    db.exec("insert into portfolio_counts (portfolio_id, count) select portfolio_id, count(*) from applications group by portfolio_id");
  })();
  onProgress(total, total);
}
