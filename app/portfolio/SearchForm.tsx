import { Form, Link, useNavigation, useSubmit } from "@remix-run/react";
import { useCallback, useRef } from "react";
import type { OrganizationOption } from "@contract/organizations";
import {
  APPLICATION_LIMITS,
  FACET_VISIBLE_VALUES,
  PORTFOLIO_PAGE_SIZES,
  PUBLIC_PORTFOLIO,
} from "@contract/portfolio-constants";
import { useAutoSubmit } from "~/ui/auto-submit";
import { Icon } from "~/ui/icons";
import { portfolioUrl, searchOnly, type PortfolioParams } from "./params";
import { PORTFOLIO } from "./texts";

const SEARCH_FORM_ID = "portfolio-search";

/**
 * The search bar (spec 2 §2): query box, 'Portfolio:' selector, results per page and Submit, one GET form, so every
 * choice lands in the URL and it all works without JavaScript. With it, the selector and the page size submit on
 * change (the list reloads on an organization change). A new search starts at the first result (no `from`).
 */
export function SearchForm({
  params,
  organizations,
}: {
  params: PortfolioParams;
  organizations: OrganizationOption[];
}) {
  const submit = useSubmit();
  const formRef = useRef<HTMLFormElement>(null);
  const navigation = useNavigation();
  const busy = navigation.state === "loading" && navigation.location.pathname === "/portfolio";
  const auto = useAutoSubmit(useCallback(() => formRef.current && submit(formRef.current, { preventScrollReset: true }), [submit]));
  return (
    <Form method="get" role="search" id={SEARCH_FORM_ID} className="portfolio-search" ref={formRef} aria-busy={busy}>
      <div className="search-box portfolio-query">
        <label htmlFor="portfolio-qs" className="visually-hidden">
          {PORTFOLIO.queryLabel}
        </label>
        <Icon name="search" className="search-icon" />
        <input
          id="portfolio-qs"
          type="search"
          name="qs"
          defaultValue={params.qs}
          key={params.qs}
          placeholder={PORTFOLIO.queryPlaceholder}
          maxLength={APPLICATION_LIMITS.query}
          autoComplete="off"
        />
      </div>
      <label className="sort-select">
        {PORTFOLIO.portfolioLabel}
        <select name="portfolio" defaultValue={params.portfolio} key={params.portfolio} onChange={auto.onChange} onKeyDown={auto.onKeyDown} onBlur={auto.onBlur}>
          <option value={PUBLIC_PORTFOLIO}>{PORTFOLIO.publicPortfolio}</option>
          {organizations.map((o) => (
            <option key={o.id} value={o.id}>
              {o.name}
            </option>
          ))}
        </select>
      </label>
      <label className="sort-select">
        {PORTFOLIO.pageSizeLabel}
        <select name="size" defaultValue={String(params.size)} key={params.size} onChange={auto.onChange} onKeyDown={auto.onKeyDown} onBlur={auto.onBlur}>
          {PORTFOLIO_PAGE_SIZES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </label>
      {params.more ? <input type="hidden" name="more" value="tags" /> : null}
      <button type="submit" className="btn btn-primary">
        {PORTFOLIO.submit}
      </button>
    </Form>
  );
}

/**
 * The tag facet (spec 2 §2: only tags; 10 values, then 'show more'): checkboxes of the search form (the `form`
 * attribute: they sit beside the results but post with it), ticking one submits with JavaScript; without it, Submit.
 * 'show more' is a link (`more=tags`), so it works without JavaScript too. Chosen tags stay listed even when the
 * search no longer returns them, so they can be unticked.
 */
export function TagFacet({
  params,
  buckets,
  sampled,
}: {
  params: PortfolioParams;
  buckets: { key: string; doc_count: number }[];
  /** How many first results the counts come from; null: every match. */
  sampled: number | null;
}) {
  const submit = useSubmit();
  // The boxes post with the search form (their `form` attribute), as it is now, the box already toggled.
  const auto = useAutoSubmit(
    useCallback(() => {
      const form = document.getElementById(SEARCH_FORM_ID);
      if (form instanceof HTMLFormElement) submit(form, { preventScrollReset: true });
    }, [submit]),
  );
  const counted = new Map(buckets.map((b) => [b.key, b.doc_count]));
  const values = [...params.tags.filter((t) => !counted.has(t)).map((key) => ({ key, doc_count: 0 })), ...buckets];
  const shown = params.more ? values : values.slice(0, Math.max(FACET_VISIBLE_VALUES, params.tags.length));
  const hidden = values.length - shown.length;
  const base = searchOnly(params);
  return (
    <fieldset className="facet" aria-describedby={sampled !== null ? "facet-partial" : undefined}>
      <legend>{PORTFOLIO.facetTags}</legend>
      {values.length === 0 ? <p className="muted small">{PORTFOLIO.noTags}</p> : null}
      {/* Uncontrolled boxes, as the kit's ChoiceFilter: a tick shows at once; keyed by the search's choice, so a new
          answer (back button, 'Clear tags') resets them. */}
      <ul className="facet-values" key={params.tags.join(",")}>
        {shown.map((b) => (
          <li key={b.key}>
            <label>
              <input
                type="checkbox"
                name="tags"
                value={b.key}
                form={SEARCH_FORM_ID}
                defaultChecked={params.tags.includes(b.key)}
                onChange={auto.onChange}
              />
              <span className="facet-name">{b.key}</span>
              <span className="facet-count">{b.doc_count.toLocaleString("en-US")}</span>
            </label>
          </li>
        ))}
      </ul>
      {sampled !== null ? (
        <p id="facet-partial" className="muted small">
          {PORTFOLIO.facetSampled(sampled)}
        </p>
      ) : null}
      <p className="facet-links">
        {hidden > 0 ? (
          <Link to={portfolioUrl({ ...base, from: params.from, more: true })} preventScrollReset replace>
            {PORTFOLIO.showMore} ({hidden})
          </Link>
        ) : null}
        {params.more && values.length > FACET_VISIBLE_VALUES ? (
          <Link to={portfolioUrl({ ...base, from: params.from, more: false })} preventScrollReset replace>
            {PORTFOLIO.showLess}
          </Link>
        ) : null}
        {params.tags.length ? (
          <Link to={portfolioUrl({ ...base, tags: [], from: 0 })}>{PORTFOLIO.clearTags}</Link>
        ) : null}
      </p>
    </fieldset>
  );
}
