import { json, type LoaderFunctionArgs } from "@remix-run/node";
import sanitizeHtml from "sanitize-html";
import type { OrganizationOption } from "@contract/organizations";
import { PUBLIC_PORTFOLIO, SearchQuery, type Product, type SearchHit } from "@contract/portfolio";
import { requireRoute } from "~/auth/guard.server";
import { rethrowResponse } from "~/lib/actions.server";
import { isUpstreamError } from "~/lib/upstream.server";
import { parsePortfolioParams } from "./params";
import { portfolio } from "./portfolio.server";
import { PORTFOLIO } from "./texts";

/**
 * The AI summary is HTML (spec 2 §3). The upstream sanitizes it when written; it is sanitized again here, before any
 * of it reaches a page: headings, lists, tables and inline formatting kept, links only to http(s)/mailto, no
 * scripts, styles, event handlers, images or frames. Headings drop two levels (h1 → h3) so a summary never outranks
 * the page's own headings.
 */
const SUMMARY_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: sanitizeHtml.defaults.allowedTags.filter((t) => !["main", "nav", "header", "footer"].includes(t)),
  allowedAttributes: { a: ["href", "title"], td: ["colspan", "rowspan"], th: ["colspan", "rowspan", "scope"] },
  allowedSchemes: ["http", "https", "mailto"],
  transformTags: {
    h1: "h3",
    h2: "h4",
    h3: "h5",
    h4: "h6",
    a: sanitizeHtml.simpleTransform("a", { rel: "noopener noreferrer nofollow", target: "_blank" }),
  },
};

export const sanitizeSummary = (html: string) => sanitizeHtml(html, SUMMARY_OPTIONS);

/** A highlight fragment (escaped text with `<em>` around matches) as HTML with `<mark>` and nothing else. */
export const sanitizeFragment = (html: string) =>
  sanitizeHtml(html, { allowedTags: ["mark"], allowedAttributes: {}, transformTags: { em: "mark" } });

/** The abstract shown when the search did not match in it: its first characters. */
const ABSTRACT_PREVIEW = 400;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

const preview = (text: string) =>
  escapeHtml(text.length > ABSTRACT_PREVIEW ? `${text.slice(0, ABSTRACT_PREVIEW).trimEnd()}…` : text);

export type ResultRow = {
  id: string;
  sourceId: string;
  /** HTML: escaped text with <mark> around matches. */
  titleHtml: string;
  abstractHtml: string;
  summaryHtml: string;
  /** The raw AI summary, for the edit-fields form (as text in a textarea). */
  aiSummary: string;
  products: Product[];
  broadScore: number | null;
  detectableScore: number | null;
  score: number | null;
  tags: { name: string; score: number }[];
};

function rowOf(hit: SearchHit): ResultRow {
  const title = hit.highlight.title?.[0];
  const abstract = hit.highlight.abstract;
  return {
    id: hit.id,
    sourceId: hit.source?.id ?? "",
    titleHtml: title ? sanitizeFragment(title) : escapeHtml(hit.title),
    abstractHtml: abstract?.length ? abstract.map(sanitizeFragment).join(" … ") : preview(hit.abstract),
    summaryHtml: hit.aiSummary ? sanitizeSummary(hit.aiSummary) : "",
    aiSummary: hit.aiSummary,
    products: hit.products,
    broadScore: hit.broadScore,
    detectableScore: hit.detectableScore,
    score: hit.score,
    tags: hit.tags,
  };
}

/** `sampled`: how many first results the counts come from (a broad search), null when from every match. */
type Facet = { buckets: { key: string; doc_count: number }[]; sampled: number | null };

/** The organizations of the selector; null when they could not be loaded (then only Public is offered, spec 2 §2). */
async function organizationsOf(api: Parameters<typeof portfolio.organizations>[0]): Promise<OrganizationOption[] | null> {
  try {
    return await portfolio.organizations(api);
  } catch (error) {
    rethrowResponse(error);
    return null;
  }
}

const NO_FACET: Facet = { buckets: [], sampled: null };

/**
 * The upstream's reason for refusing the search, without the JSON path of the clause it names (" at query.…"): the
 * page's only clause is its search box, and the path is the API's, not the user's.
 */
const reasonOf = (message: string) => message.replace(/ at query[\w.[\]]*$/, "");

/** /portfolio's loader: the search the URL describes, the facet, the selector's portfolios. */
export async function portfolioLoader(args: LoaderFunctionArgs) {
  const { api, may } = await requireRoute(args);
  const params = parsePortfolioParams(new URL(args.request.url).searchParams);
  const organizations = await organizationsOf(api);
  // An organization the selector does not offer (or none offered): the Public portfolio is searched and selected.
  if (!organizations?.some((o) => o.id === params.portfolio)) params.portfolio = PUBLIC_PORTFOLIO;
  const base = { params, organizations: organizations ?? [], organizationsFailed: organizations === null, may };
  /** No results: the search failed, or refused the query (`detail`, a 400). */
  const failed = (detail: string | null, status: number) =>
    json(
      { ...base, rows: [] as ResultRow[], total: 0, totalIsMore: false, facet: NO_FACET, error: { message: PORTFOLIO.searchFailed, detail } },
      { status },
    );
  // The query's bounds (length, control characters) are the contract's: a query past them is not sent at all.
  const checked = SearchQuery.shape.query.safeParse(params.qs);
  if (!checked.success) return failed(checked.error.issues[0]!.message, 400);
  try {
    const result = await portfolio.search(api, {
      query: params.qs,
      size: params.size,
      from: params.from,
      portfolioId: params.portfolio,
      tags: params.tags,
      countAll: params.countAll,
    });
    const tags = result.aggs.tags;
    return json({
      ...base,
      rows: result.data.map(rowOf),
      total: result.total,
      /** More than `total` match (counted up to there; 'Count all' counts the rest). */
      totalIsMore: result.totalRelation === "gte",
      facet: { buckets: tags?.buckets ?? [], sampled: tags?.partial ? (tags.sampled ?? null) : null } satisfies Facet as Facet,
      error: null,
    });
  } catch (error) {
    rethrowResponse(error);
    return isUpstreamError(error, 400) ? failed(reasonOf(error.message), 400) : failed(null, 502);
  }
}
