import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { stringify } from "csv-stringify/sync";
import {
  CSV_COLUMNS,
  CSV_DOWNLOAD_SIZE,
  PUBLIC_PORTFOLIO,
  type AdvancedSearchBody,
  type ImportJob,
} from "../../upstream/contract/portfolio";
import { csvRecord, type CsvValue } from "../../upstream/contract/csv";
import { requireRoute } from "../auth/guard.server";
import { orNotFound } from "../lib/resource.server";
import { streamDownload } from "../lib/download.server";
import { readForm, textOf } from "../lib/form.server";
import { isUpstreamError } from "../lib/upstream.server";
import { parsePortfolioParams } from "./params";
import { portfolio } from "./portfolio.server";
import { PORTFOLIO } from "./texts";

/** A refused export: a short text answer (the browser shows it in place of a download). */
function exportRefused(error: unknown): Response {
  if (error instanceof Response) throw error;
  const status = isUpstreamError(error) && error.status < 500 ? error.status : 502;
  const message = isUpstreamError(error) && error.status < 500 ? error.message : PORTFOLIO.searchFailed;
  return new Response(`${PORTFOLIO.toasts.exportFailed}: ${message}\n`, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}

/**
 * 'download csv' of /portfolio (spec 2 §7: GET /api/search/csv, size 10000, from 0): the same URL parameters as the
 * page; the upstream's file streamed through (first bytes before the last are built), never buffered here.
 */
export async function exportLoader(args: LoaderFunctionArgs) {
  const { api } = await requireRoute(args);
  const p = parsePortfolioParams(new URL(args.request.url).searchParams);
  try {
    const file = await portfolio.exportCsv(api, { query: p.qs, portfolioId: p.portfolio, tags: p.tags }, CSV_DOWNLOAD_SIZE);
    return streamDownload(file);
  } catch (error) {
    return exportRefused(error);
  }
}

/**
 * The advanced search's export (spec 2 §7: POST /api/search/advanced/csv with the query JSON): a form posting `query`
 * (the JSON body) and optionally `portfolio`, answered with the file (the categorization screen's download CSV).
 */
export async function advancedExportAction(args: ActionFunctionArgs) {
  const { api } = await requireRoute(args);
  const form = await readForm(args.request);
  let body: AdvancedSearchBody;
  try {
    body = JSON.parse(textOf(form, "query")) as AdvancedSearchBody;
  } catch {
    return json({ message: "The query must be valid JSON." }, { status: 400 });
  }
  if (!body || typeof body !== "object" || Array.isArray(body)) {
    return json({ message: "The query must be a JSON object." }, { status: 400 });
  }
  try {
    return streamDownload(await portfolio.exportAdvancedCsv(api, body, textOf(form, "portfolio") || undefined));
  } catch (error) {
    return exportRefused(error);
  }
}

/** A CSV file answer built here (small: a sample, a report); its cells escaped against formula injection. */
function csvFile(name: string, rows: readonly (readonly CsvValue[])[]): Response {
  return new Response(stringify(rows.map(csvRecord)), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

/** The sample file of the Upload CSV page: every column, two applications. */
export async function sampleLoader(args: LoaderFunctionArgs) {
  await requireRoute(args);
  const product = JSON.stringify([
    { name: "PowerCell 5", company: "Volta Labs", score: 0.82, similarityAssessment: "Same cell stack", summary: "Fast-charging pack", ultimateParentCompany: "Volta Group", source: 0, isInternal: false, isCompetitor: true },
  ]);
  const sample: Record<(typeof CSV_COLUMNS)[number], string>[] = [
    {
      id: "US20240123456A1",
      sourceId: "US20240123456",
      portfolioId: PUBLIC_PORTFOLIO,
      title: "Battery pack with adaptive cooling",
      abstract: "A battery pack whose cooling channels open as the cell temperature rises.",
      claims: "1. A battery pack comprising…",
      specification: "",
      aiSummary: "<p>Cooling that adapts to <strong>temperature</strong>.</p>",
      products: product,
      broadScore: "0.7",
      detectableScore: "0.4",
      tags: "battery:1;thermal:0.5",
      createdAt: "",
      updatedAt: "",
    },
    {
      id: "EP4123456A1",
      sourceId: "",
      portfolioId: "",
      title: "Wireless charging coil",
      abstract: "",
      claims: "",
      specification: "",
      aiSummary: "",
      products: "",
      broadScore: "",
      detectableScore: "",
      tags: "wireless",
      createdAt: "",
      updatedAt: "",
    },
  ];
  return csvFile("portfolio-sample.csv", [[...CSV_COLUMNS], ...sample.map((row) => CSV_COLUMNS.map((c) => row[c]))]);
}

/** The rejected rows of an import (line, reason), as CSV. */
export async function rejectedLoader(args: LoaderFunctionArgs) {
  const { api } = await requireRoute(args);
  const job: ImportJob = await orNotFound(portfolio.importJob(api, args.params.job ?? ""));
  return csvFile(`import-${job.id}-rejected.csv`, [["line", "reason"], ...job.rejected.map((r) => [r.line, r.reason])]);
}
