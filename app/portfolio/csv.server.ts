import type { LoaderFunctionArgs } from "@remix-run/node";
import { stringify } from "csv-stringify/sync";
import {
  CSV_COLUMNS,
  CSV_DOWNLOAD_SIZE,
  PUBLIC_PORTFOLIO,
  type ImportJob,
} from "@contract/portfolio";
import { csvRecord, type CsvValue } from "@contract/csv";
import { requireRoute } from "~/auth/guard.server";
import { orNotFound } from "~/lib/resource.server";
import { downloadOrBack } from "~/lib/download.server";
import { parsePortfolioParams, portfolioUrl, searchOnly } from "./params";
import { portfolio } from "./portfolio.server";
import { PORTFOLIO } from "./texts";

/**
 * 'download csv' of /portfolio (spec 2 §7: GET /api/search/csv, size 10000, from 0): the same URL parameters as the
 * page; the upstream's file streamed through (first bytes before the last are built), never buffered here. A refusal
 * goes back to the search it was asked from, with the toast.
 */
export async function exportLoader(args: LoaderFunctionArgs) {
  const { api } = await requireRoute(args);
  const p = parsePortfolioParams(new URL(args.request.url).searchParams);
  // `?export=<token>`: the selection's export, started by the page's action (bulk.server.ts), streamed.
  const token = new URL(args.request.url).searchParams.get("export");
  if (token) return downloadOrBack(args, "/portfolio", PORTFOLIO.toasts.exportFailed, () => portfolio.openExport(api, token));
  return downloadOrBack(args, portfolioUrl(searchOnly(p)), PORTFOLIO.toasts.exportFailed, () =>
    portfolio.exportCsv(api, { query: p.qs, portfolioId: p.portfolio, tags: p.tags }, CSV_DOWNLOAD_SIZE),
  );
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
