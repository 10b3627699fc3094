/**
 * CSV import and export of applications, with csv-parse and csv-stringify. The columns are the contract's
 * CSV_COLUMNS (documented there and in upstream/README.md "Portfolio"). Here: the export's lines, the import's header
 * and row checks; the import itself is a job (imports.ts), its body read by csv-upload.ts.
 */
import { parse as parseSync } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import { type z } from "zod";
import { ApplicationCreate, CSV_COLUMNS, CSV_IMPORT_MESSAGES, type Application, type CsvColumn } from "../../contract/portfolio";
import { csvCellValue, csvRecord, type CsvValue } from "../../contract/csv";
import { badRequest } from "../lib/http";

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

/**
 * The file's columns, from its header line (read from `head`, the file's first 64 KB at most): known names (any
 * case), `id` among them; 400 otherwise. The body itself is read and decoded by csv-upload.ts.
 */
export function csvColumns(head: Buffer): (CsvColumn | null)[] {
  if (!head.length) throw badRequest(CSV_IMPORT_MESSAGES.empty);
  let header: string[];
  try {
    const rows = parseSync(head.subarray(0, 64 * 1024), { to_line: 1, bom: true, relax_column_count: true, relax_quotes: true }) as string[][];
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
  return columns;
}

const RowSchema = ApplicationCreate.partial().extend({ id: ApplicationCreate.shape.id });

/** "name:score;name" → tags (a score after the last colon when it is a number, else 0). */
function parseTags(cell: string): { name: string; score: number }[] | string {
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
