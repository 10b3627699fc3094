import type { z } from "zod";
import {
  PUBLIC_PORTFOLIO,
  applicationNotFound,
  type Application,
  type ApplicationTag,
  type Product,
  type ProductInput,
  type TagCount,
} from "../../contract/portfolio";
import type { ApplicationCreate as CreateSchema } from "../../contract/portfolio";
import type { Db } from "../db";
import { prepared } from "../lib/collection";
import { HttpError, conflict, isoNow, notFound } from "../lib/http";
import { htmlText, portfolioToken, sanitizeSummary, tagToken } from "../search/tokens";
import { EVENT_CODES } from "../../contract/workflow-contracts";
import { queueWorkflowEvent } from "../workflows/events";

/** A create body once validated by the contract's schema. */
export type ApplicationValues = z.output<typeof CreateSchema>;

/** An application before it is stored (no audit fields). */
export type NewApplication = Omit<Application, "createdAt" | "updatedAt" | "createdBy" | "updatedBy">;

/** The columns of one stored row. */
export type ApplicationRow = {
  seq: number;
  id: string;
  source_id: string;
  portfolio_id: string;
  title: string;
  abstract: string;
  claims: string;
  specification: string;
  ai_summary: string;
  /** The summary's text, as indexed (read with a search's hits: their highlights mark it). */
  ai_text?: string;
  products: string;
  broad_score: number | null;
  detectable_score: number | null;
  tags: string;
  created_at: string;
  created_by: string | null;
  updated_at: string;
  updated_by: string | null;
};

/** The columns a search hit reads, in this order (claims and specification left out: they can be long); then those two. */
const ROW_FIELDS = [
  "seq", "id", "source_id", "portfolio_id", "title", "abstract", "ai_summary", "ai_text", "products", "broad_score", "detectable_score", "tags",
  "created_at", "created_by", "updated_at", "updated_by", "claims", "specification",
] as const satisfies readonly (keyof ApplicationRow)[];
export const HIT_COLUMNS = ROW_FIELDS.slice(0, -2).join(", ");
export const ALL_COLUMNS = ROW_FIELDS.join(", ");

/**
 * The row of HIT_COLUMNS or ALL_COLUMNS read as an array (better-sqlite3's `raw`): a search's 250 hits are read
 * ~1.6× quicker so than as objects, whose keys better-sqlite3 makes anew for every row.
 */
export function rowOfValues(values: readonly unknown[]): ApplicationRow {
  const row: Record<string, unknown> = {};
  for (let i = 0; i < values.length; i++) row[ROW_FIELDS[i]!] = values[i];
  return row as ApplicationRow;
}

export function normalizeProduct(p: ProductInput): Product {
  return {
    name: p.name,
    company: p.company ?? "",
    score: p.score ?? null,
    similarityAssessment: p.similarityAssessment ?? "",
    summary: p.summary ?? "",
    ultimateParentCompany: p.ultimateParentCompany ?? "",
    source: p.source ?? 0,
    isInternal: p.isInternal ?? false,
    isCompetitor: p.isCompetitor ?? false,
  };
}

/** The products' searchable text: names, companies, parents, summaries, assessments. */
function productsText(products: readonly Product[]): string {
  return products
    .map((p) => [p.name, p.company, p.ultimateParentCompany, p.summary, p.similarityAssessment].filter(Boolean).join(" "))
    .join(" \n ");
}

/** The application of a row. `markedFields` holds the same fields in the same order (search-json.test.ts compares them). */
export function rowToApplication(row: Partial<ApplicationRow> & Pick<ApplicationRow, "id">): Application {
  return {
    id: row.id,
    source: { id: row.source_id ?? "" },
    title: row.title ?? "",
    abstract: row.abstract ?? "",
    claims: row.claims ?? "",
    specification: row.specification ?? "",
    aiSummary: row.ai_summary ?? "",
    products: JSON.parse(row.products ?? "[]") as Product[],
    broadScore: row.broad_score ?? null,
    detectableScore: row.detectable_score ?? null,
    tags: JSON.parse(row.tags ?? "[]") as ApplicationTag[],
    portfolioId: row.portfolio_id ?? PUBLIC_PORTFOLIO,
    createdAt: row.created_at ?? "",
    updatedAt: row.updated_at ?? "",
    createdBy: row.created_by ?? null,
    updatedBy: row.updated_by ?? null,
  };
}

/** What `markedFields` holds for products and tags until `withStoredJson` writes their stored texts there. */
const STORED = "\u0000";
const PRODUCTS_MARK = `"products":${JSON.stringify(STORED)}`;
const TAGS_MARK = `"tags":${JSON.stringify(STORED)}`;

/** The fields of `rowToApplication(row)` in its order (without claims and specification when `list`), products and tags marked. */
export type MarkedFields = Record<string, unknown> & { readonly products: typeof STORED; readonly tags: typeof STORED };

/**
 * `rowToApplication(row)`'s fields, for `withStoredJson`: products and tags as a mark instead of parsed from their
 * stored texts (JSON.stringify's, written by this store and the tagger). A search writes its 250 hits in one
 * JSON.stringify so, the stored texts put in after — not parsed into objects to be written again, nor each field
 * written by a call of its own (docs/decisions/search-engine.md "One JSON.stringify per page").
 */
export function markedFields(row: Partial<ApplicationRow> & Pick<ApplicationRow, "id">, list: boolean): MarkedFields {
  // One literal (JSON.stringify leaves out a field that is undefined), not one spread into another: made ~60× quicker.
  return {
    id: row.id,
    source: { id: row.source_id ?? "" },
    title: row.title ?? "",
    abstract: row.abstract ?? "",
    claims: list ? undefined : (row.claims ?? ""),
    specification: list ? undefined : (row.specification ?? ""),
    aiSummary: row.ai_summary ?? "",
    products: STORED,
    broadScore: row.broad_score ?? null,
    detectableScore: row.detectable_score ?? null,
    tags: STORED,
    portfolioId: row.portfolio_id ?? PUBLIC_PORTFOLIO,
    createdAt: row.created_at ?? "",
    updatedAt: row.updated_at ?? "",
    createdBy: row.created_by ?? null,
    updatedBy: row.updated_by ?? null,
  };
}

/**
 * `json` — JSON.stringify's text of a value holding `markedFields(rows[0])`, `markedFields(rows[1])`… in that order —
 * with each row's stored products and tags written where their marks are. A mark cannot be anything else: outside a
 * string a `"` starts or ends one, so `"products":"\u0000"` is a key "products" holding the mark, and only the
 * marked objects hold a key of that name with a string (a highlight's is a list).
 */
export function withStoredJson(json: string, rows: readonly Pick<ApplicationRow, "products" | "tags">[]): string {
  const parts: string[] = [];
  let at = 0;
  for (const row of rows) {
    const p = json.indexOf(PRODUCTS_MARK, at);
    const t = p < 0 ? -1 : json.indexOf(TAGS_MARK, p + PRODUCTS_MARK.length);
    if (t < 0) throw new Error("withStoredJson: a row's marks are missing");
    parts.push(json.slice(at, p), '"products":', row.products ?? "[]", json.slice(p + PRODUCTS_MARK.length, t), '"tags":', row.tags ?? "[]");
    at = t + TAGS_MARK.length;
  }
  parts.push(json.slice(at));
  return parts.join("");
}

/** Everything a row holds besides seq and audit, derived from the application's fields. */
type StoredFields = {
  id: string;
  source_id: string;
  portfolio_id: string;
  title: string;
  abstract: string;
  claims: string;
  specification: string;
  ai_summary: string;
  ai_text: string;
  products: string;
  products_text: string;
  broad_score: number | null;
  detectable_score: number | null;
  tags: string;
  tag_tokens: string;
  portfolio_token: string;
};

/** The stored columns of an application (aiSummary sanitized here: every write path goes through this). */
function storedFields(app: NewApplication, options: { trustedHtml?: boolean } = {}): StoredFields {
  const aiSummary = app.aiSummary && !options.trustedHtml ? sanitizeSummary(app.aiSummary) : app.aiSummary;
  return {
    id: app.id,
    source_id: app.source.id,
    portfolio_id: app.portfolioId,
    title: app.title,
    abstract: app.abstract,
    claims: app.claims,
    specification: app.specification,
    ai_summary: aiSummary,
    ai_text: aiSummary ? htmlText(aiSummary) : "",
    products: JSON.stringify(app.products),
    products_text: productsText(app.products),
    broad_score: app.broadScore,
    detectable_score: app.detectableScore,
    tags: JSON.stringify(app.tags),
    tag_tokens: app.tags.map((t) => tagToken(t.name)).join(" "),
    portfolio_token: portfolioToken(app.portfolioId),
  };
}

const FIELD_COLUMNS = [
  "id",
  "source_id",
  "portfolio_id",
  "title",
  "abstract",
  "claims",
  "specification",
  "ai_summary",
  "ai_text",
  "products",
  "products_text",
  "broad_score",
  "detectable_score",
  "tags",
  "tag_tokens",
  "portfolio_token",
] as const;

const INSERT_SQL = `insert into applications (${FIELD_COLUMNS.join(", ")}, created_at, created_by, updated_at, updated_by)
  values (${FIELD_COLUMNS.map((c) => `@${c}`).join(", ")}, @created_at, @created_by, @updated_at, @updated_by)`;
const UPDATE_SQL = `update applications set ${FIELD_COLUMNS.filter((c) => c !== "id")
  .map((c) => `${c} = @${c}`)
  .join(", ")}, updated_at = @updated_at, updated_by = @updated_by where seq = @seq`;

export class ApplicationsStore {
  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {}

  /** 'public' or an existing organization id. */
  portfolioExists(id: string): boolean {
    if (id === PUBLIC_PORTFOLIO) return true;
    return prepared(this.db, "select 1 from organizations where id = ?").get(id) !== undefined;
  }

  requirePortfolio(id: string): void {
    if (!this.portfolioExists(id)) throw new HttpError(400, `portfolioId: Unknown portfolio "${id}".`);
  }

  row(id: string): ApplicationRow | undefined {
    return prepared(this.db, `select ${ALL_COLUMNS} from applications where id = ?`).get(id) as ApplicationRow | undefined;
  }

  get(id: string): Application | null {
    const row = this.row(id);
    return row ? rowToApplication(row) : null;
  }

  require(id: string): ApplicationRow {
    const row = this.row(id);
    if (!row) throw notFound(applicationNotFound(id));
    return row;
  }

  count(): number {
    return (prepared(this.db, "select count(*) as n from applications").get() as { n: number }).n;
  }

  /** Creates the application; 409 when the id exists. */
  create(values: ApplicationValues, actor: string | null): Application {
    this.requirePortfolio(values.portfolioId);
    return this.db.transaction(() => {
      if (prepared(this.db, "select 1 from applications where id = ?").get(values.id)) {
        throw conflict(`An application with id ${values.id} already exists.`);
      }
      const at = isoNow(this.now);
      this.insert(ApplicationsStore.fromValues(values), { createdAt: at, updatedAt: at, createdBy: actor, updatedBy: actor });
      const created = this.get(values.id)!;
      this.emit(created, EVENT_CODES.applicationCreated);
      return created;
    })();
  }

  /** Inserts one row and its tag pairs (no checks: callers validated). Returns the new seq. */
  insert(
    app: NewApplication,
    audit: { createdAt: string; updatedAt: string; createdBy: string | null; updatedBy: string | null },
    options: { trustedHtml?: boolean } = {},
  ): number {
    const fields = storedFields(app, options);
    const info = prepared(this.db, INSERT_SQL).run({
      ...fields,
      created_at: audit.createdAt,
      created_by: audit.createdBy,
      updated_at: audit.updatedAt,
      updated_by: audit.updatedBy,
    });
    const seq = Number(info.lastInsertRowid);
    const addTag = prepared(this.db, "insert into application_tags (app_seq, name, portfolio_id, score) values (?, ?, ?, ?)");
    for (const tag of app.tags) addTag.run(seq, tag.name, app.portfolioId, tag.score);
    return seq;
  }

  /**
   * Writes `next` over the stored row `row`: the row, and the tag pairs that changed (so the counts move by the
   * difference only). A portfolio change moves every pair (their counts move with them).
   */
  replace(row: ApplicationRow, next: Application, actor: string | null): Application {
    const fields = storedFields(next);
    const at = isoNow(this.now);
    prepared(this.db, UPDATE_SQL).run({ ...fields, seq: row.seq, updated_at: at, updated_by: actor });
    const before = new Map((JSON.parse(row.tags) as ApplicationTag[]).map((t) => [t.name, t.score]));
    const after = new Map(next.tags.map((t) => [t.name, t.score]));
    const moved = row.portfolio_id !== next.portfolioId;
    const remove = prepared(this.db, "delete from application_tags where app_seq = ? and name = ?");
    const add = prepared(this.db, "insert into application_tags (app_seq, name, portfolio_id, score) values (?, ?, ?, ?)");
    const rescore = prepared(this.db, "update application_tags set score = ? where app_seq = ? and name = ?");
    for (const name of before.keys()) if (moved || !after.has(name)) remove.run(row.seq, name);
    for (const [name, score] of after) {
      if (moved || !before.has(name)) add.run(row.seq, name, next.portfolioId, score);
      else if (before.get(name) !== score) rescore.run(score, row.seq, name);
    }
    const updated = { ...next, updatedAt: at, updatedBy: actor };
    this.emit(updated, EVENT_CODES.applicationUpdated);
    return updated;
  }

  /**
   * The docket's event for a created or changed application, queued in the write's transaction (the event exists
   * exactly when the write does). The matter is the application id; its client code the portfolio's organization.
   */
  emit(app: Application, code: string): void {
    queueWorkflowEvent(
      this.db,
      {
        // A creation happens once per application; every change is its own event.
        id: code === EVENT_CODES.applicationCreated ? `application.created:${app.id}` : undefined,
        code,
        reference: app.id,
        clientCode: app.portfolioId === PUBLIC_PORTFOLIO ? null : app.portfolioId,
        source: "portfolio",
        actor: app.updatedBy,
        data: {
          title: app.title,
          portfolioId: app.portfolioId,
          tags: app.tags.map((t) => t.name),
          broadScore: app.broadScore,
          detectableScore: app.detectableScore,
          createdAt: app.createdAt,
          updatedAt: app.updatedAt,
          createdBy: app.createdBy,
          updatedBy: app.updatedBy,
        },
      },
      this.now,
    );
  }

  /** Adds a tag, or replaces its score when the application has it (spec 2 §4). */
  addTag(id: string, name: string, score: number, actor: string | null): Application {
    return this.db.transaction(() => {
      const row = this.require(id);
      const app = rowToApplication(row);
      const existing = app.tags.find((t) => t.name === name);
      const tags = existing
        ? app.tags.map((t) => (t.name === name ? { name, score } : t))
        : [...app.tags, { name, score }];
      return this.replace(row, { ...app, tags }, actor);
    })();
  }

  /** Removes a tag (404 when the application does not have it). */
  removeTag(id: string, name: string, actor: string | null): Application {
    return this.db.transaction(() => {
      const row = this.require(id);
      const app = rowToApplication(row);
      if (!app.tags.some((t) => t.name === name)) throw notFound(`The application has no tag ${name}.`);
      return this.replace(row, { ...app, tags: app.tags.filter((t) => t.name !== name) }, actor);
    })();
  }

  /** Changes the fields given (spec 2 §7 "Edit summary"). */
  editFields(
    id: string,
    fields: { aiSummary?: string; broadScore?: number | null; detectableScore?: number | null; products?: Product[] },
    actor: string | null,
  ): Application {
    return this.db.transaction(() => {
      const row = this.require(id);
      const app = rowToApplication(row);
      const next: Application = {
        ...app,
        ...(fields.aiSummary !== undefined ? { aiSummary: fields.aiSummary } : {}),
        ...(fields.broadScore !== undefined ? { broadScore: fields.broadScore } : {}),
        ...(fields.detectableScore !== undefined ? { detectableScore: fields.detectableScore } : {}),
        ...(fields.products !== undefined ? { products: fields.products } : {}),
      };
      return this.replace(row, next, actor);
    })();
  }

  /** The patent office's title, abstract and claims written over the application's (processing, USPTO downloads). */
  updateFromOffice(id: string, fields: { title: string; abstract: string; claims: string }, actor: string | null): Application {
    return this.db.transaction(() => {
      const row = this.require(id);
      return this.replace(row, { ...rowToApplication(row), ...fields }, actor);
    })();
  }

  /** The portfolio's tag counts (spec 2 §3 tag aggregate), most frequent first. */
  tagCounts(portfolioId: string, limit: number): TagCount[] {
    return prepared(
      this.db,
      "select name, count from tag_counts where portfolio_id = ? order by count desc, name limit ?",
    ).all(portfolioId, limit) as TagCount[];
  }

  /** The create body's values as an application (for inserts outside `create`). */
  static fromValues(values: ApplicationValues): NewApplication {
    return {
      id: values.id,
      source: values.source,
      title: values.title,
      abstract: values.abstract,
      claims: values.claims,
      specification: values.specification,
      aiSummary: values.aiSummary,
      products: values.products.map(normalizeProduct),
      broadScore: values.broadScore,
      detectableScore: values.detectableScore,
      tags: values.tags,
      portfolioId: values.portfolioId,
    };
  }
}
