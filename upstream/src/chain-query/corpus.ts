/**
 * The chains' corpus (upstream/contract/chain-query.ts; docs/decisions/chain-query.md): the portfolio's applications
 * as inventions, cut into paragraphs with a full-text index, in a database file of its own that the query sandbox opens
 * read-only. A query link can therefore read inventions and nothing else of the product.
 *
 * Kept up to date from the product's database in steps that never hold the event loop long: `sync()` copies the
 * applications changed since its watermark (`updated_at`, then `seq`), a batch per transaction, and looks for deleted
 * ones a slice of references at a time; `start()` runs it every `everyMs` (and a run may call it before a query).
 */
import Database from "better-sqlite3";
import { CHAIN_QUERY_LIMITS, CORPUS_SECTIONS, type CorpusSection } from "../../contract/chain-query";

const SCHEMA = `
  create table if not exists inventions (
    reference text primary key,
    title text not null,
    portfolio text not null
  ) without rowid;
  create table if not exists paragraphs (
    id integer primary key,
    reference text not null,
    section text not null,
    n integer not null,
    text text not null
  );
  create index if not exists paragraphs_by_reference on paragraphs (reference, section, n);
  create virtual table if not exists paragraphs_fts using fts5(
    text, content = 'paragraphs', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2'
  );
  create trigger if not exists paragraphs_fts_insert after insert on paragraphs begin
    insert into paragraphs_fts (rowid, text) values (new.id, new.text);
  end;
  create trigger if not exists paragraphs_fts_delete after delete on paragraphs begin
    insert into paragraphs_fts (paragraphs_fts, rowid, text) values ('delete', old.id, old.text);
  end;
  create table if not exists corpus_meta (key text primary key, value text not null) without rowid;
`;

/** Applications copied per transaction, and references checked for deletion per sync. */
const BATCH = 200;
const SWEEP = 1_000;

/** The applications changed after a watermark, in order; read through applications_changed (migration 106), so a
 * batch costs its rows, not the table. */
export const CHANGED_SQL = `select seq, id, portfolio_id, updated_at, ${CORPUS_SECTIONS.join(", ")} from applications
  where (updated_at, seq) > (?, ?) order by updated_at, seq limit ${BATCH}`;

type SourceRow = { seq: number; id: string; portfolio_id: string; updated_at: string } & Record<CorpusSection, string>;

/** A section's text cut into paragraphs: at blank lines (claims: at each line), long ones into pieces. */
export function paragraphsOf(section: CorpusSection, text: string): string[] {
  const parts = (section === "claims" ? text.split(/\n+/) : text.split(/\n\s*\n/)).map((p) => p.replace(/\s+/g, " ").trim()).filter(Boolean);
  const out: string[] = [];
  const max = CHAIN_QUERY_LIMITS.paragraphChars;
  for (const part of parts) {
    for (let i = 0; i < part.length; i += max) out.push(part.slice(i, i + max));
  }
  return out;
}

export class ChainCorpus {
  readonly db: Database.Database;
  private timer: NodeJS.Timeout | null = null;
  private syncing: Promise<number> | null = null;

  /** `file`: the corpus's database (made when missing); `source`: the product's database, read only here. */
  constructor(
    readonly file: string,
    private readonly source: Database.Database,
  ) {
    this.db = new Database(file);
    this.db.pragma("journal_mode = WAL");
    this.db.exec(SCHEMA);
  }

  /**
   * Copies what changed in the portfolio since the last sync and drops the inventions whose application is gone;
   * answers how many applications it copied. One sync at a time (a second call shares the running one).
   */
  sync(): Promise<number> {
    this.syncing ??= this.syncSteps().finally(() => (this.syncing = null));
    return this.syncing;
  }

  start(everyMs: number): void {
    if (this.timer) return;
    const tick = () => void this.sync().catch(() => {});
    tick();
    this.timer = setInterval(tick, everyMs);
    this.timer.unref();
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.syncing?.catch(() => {});
    this.db.close();
  }

  private meta(key: string): string | null {
    const row = this.db.prepare("select value from corpus_meta where key = ?").get(key) as { value: string } | undefined;
    return row?.value ?? null;
  }

  private async syncSteps(): Promise<number> {
    const changed = this.source.prepare(CHANGED_SQL);
    const setMeta = this.db.prepare("insert into corpus_meta (key, value) values (?, ?) on conflict (key) do update set value = excluded.value");
    const drop = this.db.prepare("delete from paragraphs where reference = ?");
    const dropInvention = this.db.prepare("delete from inventions where reference = ?");
    const putInvention = this.db.prepare(
      "insert into inventions (reference, title, portfolio) values (?, ?, ?) on conflict (reference) do update set title = excluded.title, portfolio = excluded.portfolio",
    );
    const putParagraph = this.db.prepare("insert into paragraphs (reference, section, n, text) values (?, ?, ?, ?)");
    const copy = this.db.transaction((rows: SourceRow[]) => {
      for (const row of rows) {
        drop.run(row.id);
        putInvention.run(row.id, row.title, row.portfolio_id);
        for (const section of CORPUS_SECTIONS) {
          paragraphsOf(section, row[section]).forEach((text, i) => putParagraph.run(row.id, section, i + 1, text));
        }
      }
      const last = rows[rows.length - 1];
      if (last) setMeta.run("watermark", JSON.stringify([last.updated_at, last.seq]));
    });
    let copied = 0;
    for (;;) {
      const [at, seq] = JSON.parse(this.meta("watermark") ?? '["", 0]') as [string, number];
      const rows = changed.all(at, seq) as SourceRow[];
      if (!rows.length) break;
      copy(rows);
      copied += rows.length;
      await new Promise((resolve) => setImmediate(resolve));
    }
    // Deleted applications: a slice of the corpus's references per sync, checked against the product's database.
    const after = this.meta("sweep") ?? "";
    const slice = (this.db.prepare(`select reference from inventions where reference > ? order by reference limit ${SWEEP}`).all(after) as { reference: string }[]).map(
      (r) => r.reference,
    );
    if (slice.length) {
      const present = new Set(
        (this.source.prepare("select id from applications where id in (select value from json_each(?))").all(JSON.stringify(slice)) as { id: string }[]).map((r) => r.id),
      );
      this.db.transaction(() => {
        for (const reference of slice) {
          if (present.has(reference)) continue;
          drop.run(reference);
          dropInvention.run(reference);
        }
        setMeta.run("sweep", slice.length < SWEEP ? "" : slice[slice.length - 1]);
      })();
    }
    return copied;
  }
}
