import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { requireRoute } from "~/auth/guard.server";
import { formatDateTime } from "~/lib/format";
import { orNotFound } from "~/lib/resource.server";
import { parsePortfolioParams, portfolioUrl, searchOnly } from "./params";
import { portfolio } from "./portfolio.server";
import { sanitizeSummary } from "./search.server";

/**
 * /portfolio/{id}: one application, every field (GET /api/search/{id}); the not-found view when there is none. The
 * URL's search params are the results' search it was opened from, so 'Back to the results' returns to that search.
 */
export async function applicationLoader(args: LoaderFunctionArgs) {
  const { api, timeZone } = await requireRoute(args);
  const id = args.params.id ?? "";
  const a = await orNotFound(portfolio.get(api, id));
  const back = portfolioUrl(searchOnly(parsePortfolioParams(new URL(args.request.url).searchParams)));
  return json({
    back,
    application: {
      id: a.id,
      sourceId: a.source?.id ?? "",
      portfolioId: a.portfolioId,
      title: a.title,
      abstract: a.abstract,
      claims: a.claims,
      specification: a.specification,
      summaryHtml: a.aiSummary ? sanitizeSummary(a.aiSummary) : "",
      products: a.products,
      broadScore: a.broadScore,
      detectableScore: a.detectableScore,
      tags: a.tags,
      created: formatDateTime(a.createdAt, timeZone),
      createdBy: a.createdBy,
      updated: formatDateTime(a.updatedAt, timeZone),
      updatedBy: a.updatedBy,
    },
  });
}
