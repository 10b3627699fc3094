import type { Statement } from "better-sqlite3";
import type { ApplicationTag } from "../../contract/portfolio";
import type { Db } from "../db";
import { isoNow } from "../lib/http";
import type { Match } from "../search/engine";
import { tagToken } from "../search/tokens";

type TagRow = { seq: number; tags: string; portfolio_id: string };

/** What one write step went through (the first `processed` of the rows given) and how many of them changed. */
export type Step = { processed: number; changed: number };

/**
 * Writes a categorization's tags to many applications at once, one transaction per batch, with the portfolio's rules
 * (spec 2 §4, as `ApplicationsStore.addTag` / `removeTag`): adding replaces the score of a tag the application has,
 * else appends it; removing drops it. The tag pairs (`application_tags`) change only where they must, so the
 * triggers keep the tag counts right (an insert counts up, a delete down and at zero deletes the entry, a re-score
 * does not count). Only the rows whose tag set changes rewrite `tag_tokens` (and so their full-text row); a score
 * change alone leaves the index alone. An application already as asked is not written at all.
 */
export class Tagger {
  private readonly read: Statement;
  private readonly writeTokens: Statement;
  private readonly writeScores: Statement;
  private readonly addPair: Statement;
  private readonly rescorePair: Statement;
  private readonly removePair: Statement;
  private readonly carriers: Statement;
  private readonly carrierCount: Statement;

  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {
    this.read = db.prepare("select seq, tags, portfolio_id from applications where id = ?");
    this.writeTokens = db.prepare("update applications set tags = ?, tag_tokens = ?, updated_at = ?, updated_by = ? where seq = ?");
    this.writeScores = db.prepare("update applications set tags = ?, updated_at = ?, updated_by = ? where seq = ?");
    this.addPair = db.prepare("insert into application_tags (app_seq, name, portfolio_id, score) values (?, ?, ?, ?)");
    this.rescorePair = db.prepare("update application_tags set score = ? where app_seq = ? and name = ?");
    this.removePair = db.prepare("delete from application_tags where app_seq = ? and name = ?");
    this.carriers = db.prepare(
      "select t.app_seq as seq, a.id as id from application_tags t join applications a on a.seq = t.app_seq where t.name = ? and t.app_seq > ? order by t.app_seq limit ?",
    );
    this.carrierCount = db.prepare("select coalesce(sum(count), 0) as n from tag_counts where name = ?");
  }

  /**
   * Gives each match every tag with the match's relevance as its score (0 when the query does not score), in one
   * transaction that stops once `budgetMs` have passed: answers how many matches it went through and changed.
   */
  apply(matches: readonly Match[], tags: readonly string[], actor: string | null, budgetMs = Infinity): Step {
    const at = isoNow(this.now);
    const until = performance.now() + budgetMs;
    return this.db.transaction(() => {
      let changed = 0;
      let processed = 0;
      for (const match of matches) {
        if (processed > 0 && performance.now() > until) break;
        processed++;
        const row = this.read.get(match.id) as TagRow | undefined;
        if (!row) continue;
        const score = match.score ?? 0;
        const list = JSON.parse(row.tags) as ApplicationTag[];
        let added = false;
        let rescored = false;
        for (const name of tags) {
          const existing = list.findIndex((t) => t.name === name);
          if (existing < 0) {
            list.push({ name, score });
            this.addPair.run(row.seq, name, row.portfolio_id, score);
            added = true;
          } else if (list[existing]!.score !== score) {
            list[existing] = { name, score };
            this.rescorePair.run(score, row.seq, name);
            rescored = true;
          }
        }
        if (added) this.writeTokens.run(JSON.stringify(list), tokensOf(list), at, actor, row.seq);
        else if (rescored) this.writeScores.run(JSON.stringify(list), at, actor, row.seq);
        if (added || rescored) changed++;
      }
      return { processed, changed };
    })();
  }

  /** Removes the tags from each application that has them (one transaction, `budgetMs` as for `apply`). */
  remove(ids: readonly string[], tags: readonly string[], actor: string | null, budgetMs = Infinity): Step {
    const at = isoNow(this.now);
    const names = new Set(tags);
    const until = performance.now() + budgetMs;
    return this.db.transaction(() => {
      let changed = 0;
      let processed = 0;
      for (const id of ids) {
        if (processed > 0 && performance.now() > until) break;
        processed++;
        const row = this.read.get(id) as TagRow | undefined;
        if (!row) continue;
        const list = JSON.parse(row.tags) as ApplicationTag[];
        const kept = list.filter((t) => !names.has(t.name));
        if (kept.length === list.length) continue;
        for (const t of list) if (names.has(t.name)) this.removePair.run(row.seq, t.name);
        this.writeTokens.run(JSON.stringify(kept), tokensOf(kept), at, actor, row.seq);
        changed++;
      }
      return { processed, changed };
    })();
  }

  /** Applications carrying `tag` after `afterSeq`, in seq order (prune walks them in batches). */
  carrying(tag: string, afterSeq: number, limit: number): { seq: number; id: string }[] {
    return this.carriers.all(tag, afterSeq, limit) as { seq: number; id: string }[];
  }

  /** How many applications carry `tag` (the maintained counts, every portfolio). */
  carryingCount(tag: string): number {
    return (this.carrierCount.get(tag) as { n: number }).n;
  }
}

const tokensOf = (tags: readonly ApplicationTag[]) => tags.map((t) => tagToken(t.name)).join(" ");
