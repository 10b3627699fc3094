/**
 * The portfolio's calls (spec 2 §7; contract/portfolio.ts documents each): search, advanced search, one application,
 * CSV export (download URL + streamed file), create, add/remove tag and edit fields, CSV import (background job with
 * progress), reindex, the tag counts, and the vectors call that is not there yet. Reading needs `portfolio.read`,
 * changing `portfolio.write` (granted by `portfolio`).
 */
import crypto from "node:crypto";
import { Hono, type MiddlewareHandler } from "hono";
import {
  ApplicationChange,
  ApplicationCreate,
  CSV_DOWNLOAD_SIZE,
  CsvImportBody,
  FACET_MAX_VALUES,
  PORTFOLIO_MESSAGES,
  PUBLIC_PORTFOLIO,
  SearchQuery,
  TEXT_FIELDS,
  applicationNotFound,
  type ImportJob,
  type ReindexJob,
} from "../../contract/portfolio";
import { HttpError, badRequest, isoNow, notFound, readJson, requirePermission, validate, type AppContext, type AppEnv } from "../lib/http";
import type { Db } from "../db";
import type { SearchEngine, SearchScope } from "../search/engine";
import { QueryError } from "../search/ir";
import { csvColumns, csvHeader, csvRows } from "./csv";
import { headOf, readCsvUpload } from "./csv-upload";
import { ImportJobs, type StoredImport } from "./imports";
import { type ApplicationsStore } from "./store";

const READ = "portfolio.read";
const WRITE = "portfolio";
/** How long a CSV download URL works. */
const EXPORT_TTL_MS = 10 * 60_000;
const MAX_PENDING_EXPORTS = 1_000;
const REINDEXING = "The search index is being rebuilt. Try again in a moment.";

export type PortfolioDeps = {
  db: Db;
  store: ApplicationsStore;
  engine: SearchEngine;
  requireAuth: MiddlewareHandler<AppEnv>;
  now: () => number;
  log: (message: string) => void;
};

/** The GET /api/search parameters as a DSL body (the same one an OpenSearch backend would receive). */
function searchBody(q: ReturnType<typeof SearchQuery.parse>, size: number): Record<string, unknown> {
  const filter = q.tags.map((name) => ({ term: { "tags.name": name } }));
  const text = q.query.trim() ? { query_string: { query: q.query, fields: [...TEXT_FIELDS] } } : { match_all: {} };
  const [field, order] = (q.sort ?? (q.query.trim() ? "_score" : "")).split(":");
  return {
    query: filter.length ? { bool: { must: [text], filter } } : text,
    size,
    from: q.from,
    ...(field ? { sort: [{ [field]: order ?? (field === "_score" ? "desc" : "asc") }] } : {}),
  };
}

const queryParams = (c: AppContext) => {
  const url = new URL(c.req.url);
  const raw: Record<string, unknown> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const all = url.searchParams.getAll(key);
    raw[key] = key === "tags" ? all : all[all.length - 1];
  }
  return raw;
};

/** Runs the engine, turning a QueryError into the 400 that names the clause and its path. */
async function engineCall<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof QueryError) throw badRequest(error.message);
    throw error;
  }
}

/** A search's answer: the engine's JSON text (hits written from their rows as read). */
const searchAnswer = async (c: AppContext, engine: SearchEngine, body: unknown, scope: SearchScope) =>
  c.body(await engineCall(() => engine.searchJson(body, scope)), 200, { "content-type": "application/json" });

export function portfolioRoutes(deps: PortfolioDeps) {
  const { db, store, engine, requireAuth, now, log } = deps;
  const exports = new Map<string, { owner: string; body: unknown; scope: SearchScope; limit: number; expires: number }>();
  const imports = new ImportJobs(db, store, now, log);
  let reindex: (ReindexJob & { done: Promise<void> }) | null = null;

  const prune = () => {
    const t = now();
    for (const [k, v] of exports) if (v.expires < t) exports.delete(k);
  };
  const portfolioOf = (id: string | undefined) => {
    if (id === undefined) return undefined;
    if (!store.portfolioExists(id)) throw notFound("Portfolio not found.");
    return id;
  };
  /** Writers wait while the index is rebuilt (it would miss or double their rows). */
  const notReindexing = () => {
    if (reindex?.status === "running") throw new HttpError(409, REINDEXING);
    // An import being written (or undone) would miss, or undo, the change. (A new import waits its turn instead.)
    const importing = imports.writing();
    if (importing) throw new HttpError(409, importing);
  };
  const exportUrl = (c: AppContext, body: unknown, scope: SearchScope) => {
    prune();
    if (exports.size >= MAX_PENDING_EXPORTS) throw new HttpError(429, "Too many downloads are waiting. Try again in a few minutes.");
    const token = crypto.randomBytes(24).toString("base64url");
    exports.set(token, { owner: c.get("actor").id, body, scope, limit: CSV_DOWNLOAD_SIZE, expires: now() + EXPORT_TTL_MS });
    return { downloadUrl: `/search/exports/${token}` };
  };

  const search = new Hono<AppEnv>({ strict: false });
  search.use("*", requireAuth, requirePermission(READ));

  search.get("/", async (c) => {
    const q = validate(SearchQuery, queryParams(c));
    const portfolioId = portfolioOf(q.portfolioId);
    const body = {
      ...searchBody(q, q.size),
      ...(q.trackTotalHits ? { track_total_hits: true } : {}),
      aggs: { tags: { terms: { field: "tags.name", size: FACET_MAX_VALUES } } },
      highlight: {
        fields: {
          title: { number_of_fragments: 0 },
          abstract: { fragment_size: 200, number_of_fragments: 2 },
          aiSummary: { fragment_size: 200, number_of_fragments: 1 },
        },
      },
    };
    return searchAnswer(c, engine, body, { portfolioId, hitFields: "list", maxSize: 500 });
  });

  search.get("/csv", async (c) => {
    const raw = queryParams(c);
    const params = validate(SearchQuery, { ...raw, size: undefined });
    const size = raw.size === undefined ? CSV_DOWNLOAD_SIZE : Number(raw.size);
    if (!Number.isInteger(size) || size < 1 || size > CSV_DOWNLOAD_SIZE) throw badRequest(`size: must be 1 to ${CSV_DOWNLOAD_SIZE}`);
    const portfolioId = portfolioOf(params.portfolioId);
    const body = searchBody(params, size);
    // Checked now, so a bad query answers 400 here rather than a broken download.
    await engineCall(() => engine.search({ ...body, size: 0 }, { portfolioId, maxSize: CSV_DOWNLOAD_SIZE }));
    return c.json(exportUrl(c, body, { portfolioId, maxSize: CSV_DOWNLOAD_SIZE }));
  });

  search.post("/advanced/csv", async (c) => {
    const body = await readJson(c);
    const portfolioId = portfolioOf(c.req.query("portfolioId") || undefined);
    const withSize = body && typeof body === "object" && !Array.isArray(body) ? { size: CSV_DOWNLOAD_SIZE, ...body, highlight: undefined, aggs: undefined, aggregations: undefined } : body;
    await engineCall(() => engine.search({ ...(withSize as object), size: 0 }, { portfolioId, maxSize: CSV_DOWNLOAD_SIZE }));
    return c.json(exportUrl(c, withSize, { portfolioId, maxSize: CSV_DOWNLOAD_SIZE }));
  });

  search.post("/advanced", async (c) => {
    const body = await readJson(c);
    const portfolioId = portfolioOf(c.req.query("portfolioId") || undefined);
    return searchAnswer(c, engine, body, { portfolioId });
  });

  search.get("/exports/:token", async (c) => {
    prune();
    const job = exports.get(c.req.param("token"));
    if (!job || job.owner !== c.get("actor").id) throw notFound("This download has expired. Ask for a new one.");
    const rows = engine.scan(job.body, job.scope, job.limit);
    const encoder = new TextEncoder();
    let headerSent = false;
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        // The header goes first, before the query runs: the first byte leaves at once.
        if (!headerSent) {
          headerSent = true;
          controller.enqueue(encoder.encode(csvHeader()));
          return;
        }
        try {
          const next = await rows.next();
          if (next.done) controller.close();
          else controller.enqueue(encoder.encode(csvRows(next.value)));
        } catch (error) {
          log(`upstream: CSV export failed: ${(error as Error).stack ?? String(error)}`);
          controller.error(error);
        }
      },
      async cancel() {
        await rows.return(undefined);
      },
    });
    const day = new Date(now()).toISOString().slice(0, 10);
    return new Response(stream, {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="portfolio-${day}.csv"`,
        "cache-control": "no-store",
        // Streamed as it is read: tells @hono/node-server not to read ahead for a content-length (it would wait for
        // the first rows, so the header line would not leave first).
        "transfer-encoding": "chunked",
      },
    });
  });

  search.get("/:id", async (c) => {
    const id = c.req.param("id");
    const app = await engine.get(id);
    if (!app) throw notFound(applicationNotFound(id));
    return c.json(app);
  });

  // ------------------------------------------------------------------------------------------ applications
  const applications = new Hono<AppEnv>({ strict: false });
  applications.use("*", requireAuth);

  applications.post("/", requirePermission(WRITE), async (c) => {
    notReindexing();
    const values = validate(ApplicationCreate, await readJson(c));
    return c.json(store.create(values, c.get("actor").email), 201);
  });

  // The body is read as it arrives (csv-upload.ts) and the file imported by a job kept in the database (imports.ts):
  // all or nothing, even across a stop; the answer is the job at once.
  applications.post("/csv", requirePermission(WRITE), async (c) => {
    if (reindex?.status === "running") throw new HttpError(409, REINDEXING);
    const upload = await readCsvUpload(c.req.raw.body);
    // The file was checked as it was read; the schema sees the other fields (and csvFileData when missing or empty).
    const body = validate(CsvImportBody, { ...upload.fields, csvFileData: upload.csv && upload.bytes ? "-" : (upload.csv ? "" : upload.fields.csvFileData) });
    if (!store.portfolioExists(body.portfolioId)) throw badRequest(`portfolioId: Unknown portfolio "${body.portfolioId}".`);
    const columns = csvColumns(headOf(upload.csv!, 64 * 1024));
    const actor = c.get("actor");
    const job = imports.start(upload.csv!, upload.bytes, columns, { owner: actor.id, actor: actor.email, portfolioId: body.portfolioId });
    if (c.req.query("wait") === "true") {
      await imports.whenDone(job.id);
      return c.json(publicJob(imports.get(job.id)!), 200);
    }
    return c.json(publicJob(job), 202);
  });

  applications.get("/csv/:jobId", requirePermission(WRITE), (c) => {
    const job = imports.get(c.req.param("jobId"));
    if (!job || job.owner !== c.get("actor").id) throw notFound("Import not found.");
    return c.json(publicJob(job));
  });

  applications.post("/reindex", requirePermission(WRITE), async (c) => {
    const importing = imports.writing();
    if (importing) throw new HttpError(409, importing);
    if (reindex?.status !== "running") {
      const job: ReindexJob & { done: Promise<void> } = {
        id: crypto.randomUUID(),
        status: "running",
        processed: 0,
        total: 0,
        error: null,
        startedAt: isoNow(now),
        finishedAt: null,
        done: Promise.resolve(),
      };
      job.done = engine
        .reindex((processed, total) => {
          job.processed = processed;
          job.total = total;
        })
        .then(() => {
          job.status = "completed";
        })
        .catch((error: unknown) => {
          job.status = "failed";
          job.error = error instanceof Error ? error.message : String(error);
          log(`upstream: reindex failed: ${(error as Error).stack ?? String(error)}`);
        })
        .finally(() => {
          job.finishedAt = isoNow(now);
        });
      reindex = job;
    }
    const job = reindex;
    if (c.req.query("wait") === "true") {
      await job.done;
      return c.json(publicReindex(job), 200);
    }
    return c.json(publicReindex(job), job.status === "running" ? 202 : 200);
  });

  applications.get("/reindex", requirePermission(WRITE), (c) => {
    if (!reindex) throw notFound("No reindex has run since the start.");
    return c.json(publicReindex(reindex));
  });

  applications.put("/:id", requirePermission(WRITE), async (c) => {
    notReindexing();
    const id = c.req.param("id");
    const change = validate(ApplicationChange, await readJson(c));
    if (change.applicationId !== id) throw badRequest("applicationId: Must match the application id in the path.");
    const actor = c.get("actor").email;
    switch (change.action) {
      case "addTag":
        return c.json(store.addTag(id, change.tag, change.score, actor));
      case "removeTag":
        return c.json(store.removeTag(id, change.tag, actor));
      case "editFields":
        return c.json(store.editFields(id, change, actor));
    }
  });

  // ------------------------------------------------------------------------------------------ tags, vectors
  const portfolio = new Hono<AppEnv>({ strict: false });
  portfolio.get("/tags", requireAuth, requirePermission(READ), (c) => {
    const portfolioId = portfolioOf(c.req.query("portfolioId") || PUBLIC_PORTFOLIO)!;
    return c.json(store.tagCounts(portfolioId, 1_000));
  });

  const vectors = new Hono<AppEnv>({ strict: false });
  vectors.delete("/applications/vectors", requireAuth, requirePermission(WRITE), (c) =>
    c.json({ message: PORTFOLIO_MESSAGES.vectorsNotImplemented }, 404),
  );

  return { search, applications, portfolio, vectors };
}

function publicJob(job: StoredImport): ImportJob {
  const { owner: _owner, ...rest } = job;
  void _owner;
  return rest;
}

function publicReindex(job: ReindexJob & { done: Promise<void> }): ReindexJob {
  const { done: _done, ...rest } = job;
  void _done;
  return rest;
}
