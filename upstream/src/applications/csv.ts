/**
 * CSV import and export of applications (issue 11), with csv-parse and csv-stringify. The columns are the contract's
 * CSV_COLUMNS (documented there and in upstream/README.md "Portfolio").
 */
import { parse } from "csv-parse";
import { parse as parseSync } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import { type z } from "zod";
import {
  ApplicationCreate,
  CSV_COLUMNS,
  CSV_IMPORT_LIMITS,
  type Application,
  type CsvColumn,
  type CsvRejection,
  type ImportJob,
} from "../../contract/portfolio";
import { csvCellValue, csvRecord, type CsvValue } from "../../contract/csv";
import { HttpError, badRequest } from "../lib/http";
import { ApplicationsStore, normalizeProduct, rowToApplication, type ApplicationRow } from "./store";
import type { Db } from "../db";
import { isoNow } from "../lib/http";

// ------------------------------------------------------------------------------------------------------ export

// Every cell through csvRecord (formula injection); the scores as numbers, which stay numbers (contract/csv.ts).
const exportRow = (a: Application): CsvValue[] => [
  a.id,
  a.source.id,
  a.portfolioId,
  a.title,
  a.abstract,
  a.claims,
  a.specification,
  a.aiSummary,
  a.products.length ? JSON.stringify(a.products) : "",
  a.broadScore,
  a.detectableScore,
  a.tags.map((t) => `${t.name}:${t.score}`).join(";"),
  a.createdAt,
  a.updatedAt,
];

/** The header line. */
export const csvHeader = (): string => stringify([csvRecord(CSV_COLUMNS)]);
/** Lines for these applications. */
export const csvRows = (apps: readonly Application[]): string =>
  apps.length ? stringify(apps.map((a) => csvRecord(exportRow(a)))) : "";

// ------------------------------------------------------------------------------------------------------ import

/** The decoded file, checked: base64, size, a header naming known columns including `id`. */
export function decodeCsv(base64: string): { data: Buffer; columns: (CsvColumn | null)[] } {
  const clean = base64.replace(/^data:[^,]*,/, "").replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean) || clean.length % 4 === 1) throw badRequest("csvFileData: The file is not base64.");
  const data = Buffer.from(clean, "base64");
  if (data.length > CSV_IMPORT_LIMITS.bytes) {
    throw new HttpError(413, `The CSV file may be ${CSV_IMPORT_LIMITS.bytes / 1024 / 1024} MB at most.`);
  }
  if (!data.length) throw badRequest("csvFileData: The CSV file is empty.");
  let header: string[];
  try {
    const rows = parseSync(data.subarray(0, 64 * 1024), { to_line: 1, bom: true, relax_column_count: true, relax_quotes: true }) as string[][];
    header = rows[0] ?? [];
  } catch (error) {
    throw badRequest(`The file is not CSV: ${(error as Error).message}`);
  }
  const byName = new Map(CSV_COLUMNS.map((c) => [c.toLowerCase(), c]));
  const columns = header.map((h) => {
    const name = h.trim().toLowerCase();
    if (name === "") return null;
    const column = byName.get(name) ?? (name === "source.id" ? "sourceId" : undefined);
    if (!column) throw badRequest(`Unknown CSV column "${h.trim()}". The columns are: ${CSV_COLUMNS.join(", ")}.`);
    return column;
  });
  if (!columns.includes("id")) throw badRequest('The CSV file needs an "id" column (the first line names the columns).');
  return { data, columns };
}

const RowSchema = ApplicationCreate.partial().extend({ id: ApplicationCreate.shape.id });

/** "name:score;name" → tags (a score after the last colon when it is a number, else 0). */
export function parseTags(cell: string): { name: string; score: number }[] | string {
  const out: { name: string; score: number }[] = [];
  for (const part of cell.split(";")) {
    const item = part.trim();
    if (!item) continue;
    const colon = item.lastIndexOf(":");
    const tail = colon >= 0 ? item.slice(colon + 1).trim() : "";
    if (colon >= 0 && tail !== "" && Number.isFinite(Number(tail))) out.push({ name: item.slice(0, colon).trim(), score: Number(tail) });
    else if (colon >= 0 && tail === "") out.push({ name: item.slice(0, colon).trim(), score: 0 });
    else if (colon >= 0) return `tags: "${item}" has a score that is not a number`;
    else out.push({ name: item, score: 0 });
  }
  return out;
}

function issueMessage(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "Invalid row";
  return issue.path.length ? `${issue.path.join(".")}: ${issue.message}` : issue.message;
}

/** One CSV record → the fields it sets (only its columns), or the reason it is rejected. */
export function rowValues(
  record: string[],
  columns: readonly (CsvColumn | null)[],
): { values: z.output<typeof RowSchema>; given: Set<CsvColumn> } | string {
  const raw: Record<string, unknown> = {};
  const given = new Set<CsvColumn>();
  if (record.length > columns.length && record.slice(columns.length).some((c) => c.trim() !== "")) {
    return `The line has ${record.length} cells, the header ${columns.length}`;
  }
  for (let i = 0; i < columns.length; i++) {
    const column = columns[i];
    if (!column) continue;
    // The export escapes cells against formula injection; the value is the cell without that quote.
    const cell = csvCellValue(record[i] ?? "");
    given.add(column);
    switch (column) {
      case "sourceId":
        raw.source = { id: cell.trim() };
        break;
      case "portfolioId":
        if (cell.trim()) raw.portfolioId = cell.trim();
        else given.delete("portfolioId");
        break;
      case "broadScore":
      case "detectableScore": {
        const t = cell.trim();
        if (t === "") raw[column] = null;
        else if (!Number.isFinite(Number(t))) return `${column}: "${t}" is not a number`;
        else raw[column] = Number(t);
        break;
      }
      case "tags": {
        const tags = parseTags(cell);
        if (typeof tags === "string") return tags;
        raw.tags = tags;
        break;
      }
      case "products": {
        const t = cell.trim();
        if (t === "") raw.products = [];
        else {
          try {
            raw.products = JSON.parse(t) as unknown;
          } catch {
            return "products: must be a JSON array of products";
          }
        }
        break;
      }
      case "createdAt":
      case "updatedAt":
        break; // written by the upstream, ignored on import
      default:
        raw[column] = cell;
    }
  }
  given.delete("createdAt");
  given.delete("updatedAt");
  const parsed = RowSchema.safeParse(raw);
  if (!parsed.success) return issueMessage(parsed.error);
  return { values: parsed.data, given };
}

/** A running import's state, updated as it goes. */
export type ImportState = ImportJob & { owner: string };

/**
 * Imports the records in chunks of `chunk` rows, one transaction each, yielding to the event loop between chunks
 * (setImmediate), so a 100,000-row file never blocks the server. Idempotent by id: a new id is created; an existing
 * one gets the fields of the columns given (tags added or re-scored, never removed).
 */
export async function runImport(
  db: Db,
  store: ApplicationsStore,
  file: { data: Buffer; columns: (CsvColumn | null)[] },
  options: { portfolioId: string; actor: string | null; now: () => number; job: ImportState; chunk?: number },
): Promise<void> {
  const { job } = options;
  const chunkSize = options.chunk ?? 500;
  const parser = parse({
    bom: true,
    from_line: 2,
    relax_column_count: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    info: true,
    max_record_size: 2 * 1024 * 1024,
  });
  const portfolios = new Map<string, boolean>();
  const updatedIds = new Set<string>();
  const reject = (r: CsvRejection) => {
    job.rejectedTotal++;
    if (job.rejected.length < CSV_IMPORT_LIMITS.reportedRejections) job.rejected.push(r);
  };
  // A line CSV cannot read (an unclosed quote, a record over 2 MB) is reported and skipped.
  parser.on("skip", (error: Error & { lines?: number }) => {
    job.processed++;
    reject({ line: error.lines ?? 0, reason: `Not valid CSV: ${error.message}` });
  });
  const select = db.prepare("select * from applications where id = ?");
  let pending: { line: number; record: string[] }[] = [];
  const flush = () => {
    const batch = pending;
    pending = [];
    db.transaction(() => {
      for (const { line, record } of batch) {
        job.processed++;
        const row = rowValues(record, file.columns);
        if (typeof row === "string") {
          reject({ line, reason: row });
          continue;
        }
        const { values, given } = row;
        const existing = select.get(values.id) as ApplicationRow | undefined;
        const portfolioId = values.portfolioId ?? existing?.portfolio_id ?? options.portfolioId;
        if (!portfolios.has(portfolioId)) portfolios.set(portfolioId, store.portfolioExists(portfolioId));
        if (!portfolios.get(portfolioId)) {
          reject({ line, reason: `portfolioId: Unknown portfolio "${portfolioId}"` });
          continue;
        }
        if (existing) {
          const app = rowToApplication(existing);
          const tags = new Map(app.tags.map((t) => [t.name, t.score]));
          for (const t of values.tags ?? []) tags.set(t.name, t.score);
          const next: Application = {
            ...app,
            ...(given.has("sourceId") && values.source ? { source: values.source } : {}),
            ...(given.has("title") ? { title: values.title ?? "" } : {}),
            ...(given.has("abstract") ? { abstract: values.abstract ?? "" } : {}),
            ...(given.has("claims") ? { claims: values.claims ?? "" } : {}),
            ...(given.has("specification") ? { specification: values.specification ?? "" } : {}),
            ...(given.has("aiSummary") ? { aiSummary: values.aiSummary ?? "" } : {}),
            ...(given.has("products") ? { products: (values.products ?? []).map(normalizeProduct) } : {}),
            ...(given.has("broadScore") ? { broadScore: values.broadScore ?? null } : {}),
            ...(given.has("detectableScore") ? { detectableScore: values.detectableScore ?? null } : {}),
            tags: [...tags].map(([name, score]) => ({ name, score })),
            portfolioId,
          };
          store.replace(existing, next, options.actor);
        } else {
          const full = ApplicationCreate.parse({ ...values, portfolioId });
          const at = isoNow(options.now);
          store.insert(ApplicationsStore.fromValues(full), { createdAt: at, updatedAt: at, createdBy: options.actor, updatedBy: options.actor });
        }
        if (!updatedIds.has(values.id)) {
          updatedIds.add(values.id);
          job.updated++;
          if (job.updatedIds.length < 1000) job.updatedIds.push(values.id);
        }
      }
    })();
  };
  const feeding = (async () => {
    const slice = 256 * 1024;
    for (let at = 0; at < file.data.length; at += slice) {
      if (!parser.write(file.data.subarray(at, at + slice))) await new Promise((resolve) => parser.once("drain", resolve));
      await new Promise((resolve) => setImmediate(resolve));
    }
    parser.end();
  })();
  let rows = 0;
  for await (const item of parser as AsyncIterable<{ record: string[]; info: { lines: number; bytes: number } }>) {
    rows++;
    job.progress = Math.min(1, item.info.bytes / file.data.length);
    if (rows > CSV_IMPORT_LIMITS.rows) throw new Error(`The file has more than ${CSV_IMPORT_LIMITS.rows.toLocaleString("en-US")} rows.`);
    pending.push({ line: item.info.lines, record: item.record });
    if (pending.length >= chunkSize) {
      flush();
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  await feeding;
  flush();
  job.total = job.processed;
  job.progress = 1;
}
