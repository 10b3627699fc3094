import { Form, Link, useLocation, useNavigation, useSearchParams, useSubmit } from "@remix-run/react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import type { Sort } from "@contract/common";
import { LIMIT_MESSAGES, TEXT_LIMITS, hasForbiddenCharacters } from "@contract/limits";
import { NO_VALUE } from "./no-value";
import { submitForm, useAutoSubmit } from "./auto-submit";
import { useAdoptEarlyInput } from "./hydrated";
import { Icon } from "./icons";

declare module "react" {
  // An augmentation repeats React's type parameter, used or not.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface TdHTMLAttributes<T> {
    /** Element Timing (Chromium), which React passes through as it is; bench:browser marks the first data row. */
    elementtiming?: string;
  }
}

/** List search debounce (spec 1 §9). */
const SEARCH_DEBOUNCE_MS = 250;

const SORT_LABELS: Record<Sort, string> = { name: "Name", newest: "Newest", oldest: "Oldest" };

/** The texts every list shares (the spec names none for these). */
export const LIST_TEXTS = {
  noMatch: "No results match the search or filters.",
  showAll: "Show all",
  by: (who: string) => `by ${who}`,
  first: "First",
  previous: "Previous",
  next: "Next",
  last: "Last",
  pageOf: (page: number, pages: number) => `Page ${page} of ${pages}`,
  scrollRegion: (caption: string) => `${caption} (scrolls sideways)`,
  /** A sortable header's hint: what a click sorts by. */
  sortBy: (sort: Sort) => `Sort: ${SORT_LABELS[sort]}`,
} as const;

/** Why the search text cannot be used (too long, control characters), or null: the same bounds as the upstream's `q`. */
export function searchProblem(text: string): string | null {
  const q = text.trim();
  if (q.length > TEXT_LIMITS.search) return LIMIT_MESSAGES.tooLong("Search text", TEXT_LIMITS.search);
  if (hasForbiddenCharacters(q)) return LIMIT_MESSAGES.badCharacters("Search text");
  return null;
}

/**
 * The search and sort bar of every list: a GET form (shareable URLs, back button works). With JavaScript the search
 * submits itself 250 ms after typing stops and the sort on change; without it, Enter or the Search button.
 */
export function ListToolbar({
  q,
  sort,
  searchLabel,
  children,
}: {
  q: string;
  sort: Sort;
  searchLabel: string;
  /** Extra filters: inputs inside the same GET form. */
  children?: ReactNode;
}) {
  const submit = useSubmit();
  const formRef = useRef<HTMLFormElement>(null);
  const timer = useRef<number | undefined>(undefined);
  // A search text the loader refused (too long) comes back as q = "": keep showing what the URL holds, with the reason.
  const [params] = useSearchParams();
  const urlQ = params.get("q") ?? "";
  const refusedQ = searchProblem(urlQ) ? urlQ : null;
  const [text, setText] = useState(refusedQ ?? q);
  const problem = searchProblem(text);
  const navigation = useNavigation();
  const searching = navigation.state === "loading" && navigation.location.search !== undefined;

  // Follow the URL (back/forward) unless the user is typing in the box.
  useEffect(() => {
    if (document.activeElement?.id !== "list-search") setText(refusedQ ?? q);
  }, [q, refusedQ]);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  // A pending search must not pull the user back when they have already gone elsewhere (clicked a row, say).
  const location = useLocation();
  const leaving = navigation.state !== "idle" && navigation.location.pathname !== location.pathname;
  useEffect(() => {
    if (leaving) window.clearTimeout(timer.current);
  }, [leaving]);

  const submitNow = (replace: boolean) => {
    window.clearTimeout(timer.current);
    if (formRef.current) submit(formRef.current, { replace, preventScrollReset: true });
  };
  const searchSoon = (value: string) => {
    window.clearTimeout(timer.current);
    // A text the list cannot search for is not sent: the message beside the box says why.
    if (searchProblem(value)) return;
    timer.current = window.setTimeout(() => submitNow(true), SEARCH_DEBOUNCE_MS);
  };
  // Typed before the page hydrated: kept, and searched for as if typed now.
  const inputRef = useRef<HTMLInputElement>(null);
  useAdoptEarlyInput(inputRef, text, (value) => {
    setText(value);
    searchSoon(value);
  });

  return (
    <Form method="get" role="search" className="list-toolbar" ref={formRef} aria-busy={searching}>
      <div className="search-box">
        <label htmlFor="list-search" className="visually-hidden">
          {searchLabel}
        </label>
        <Icon name="search" className="search-icon" />
        <input
          ref={inputRef}
          id="list-search"
          type="search"
          name="q"
          value={text}
          placeholder={searchLabel}
          autoComplete="off"
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? "list-search-error" : undefined}
          onChange={(e) => {
            const value = e.currentTarget.value;
            setText(value);
            searchSoon(value);
          }}
        />
        {problem ? (
          <p id="list-search-error" className="field-error search-error" role="alert">
            {problem}
          </p>
        ) : null}
      </div>
      <label className="sort-select">
        Sort
        <select name="sort" defaultValue={sort} key={sort} onChange={() => submitNow(false)}>
          {(Object.keys(SORT_LABELS) as Sort[]).map((s) => (
            <option key={s} value={s}>
              {SORT_LABELS[s]}
            </option>
          ))}
        </select>
      </label>
      {children}
      <button type="submit" className="btn btn-secondary">
        Search
      </button>
    </Form>
  );
}

/** Number of pages of a list of `total` rows (at least 1). */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / Math.max(1, pageSize)));
}

/**
 * First, Previous, "Page n of m", Next, Last: links that keep the other search params (pages are 1-based). A page
 * beyond the end is served as the last one by the loader (lib/list.server `loadPage`); shown clamped here too.
 */
export function Pagination({
  page,
  pageSize,
  total,
  href,
}: {
  page: number;
  pageSize: number;
  total: number;
  /** The address of page `p` (1-based), when the list is not paged by `page` (the portfolio pages by `from`). */
  href?: (p: number) => string;
}) {
  const [params] = useSearchParams();
  const pages = pageCount(total, pageSize);
  if (pages <= 1) return null;
  const current = Math.min(Math.max(1, page), pages);
  const hrefFor =
    href ??
    ((p: number) => {
      const next = new URLSearchParams(params);
      if (p === 1) next.delete("page");
      else next.set("page", String(p));
      const s = next.toString();
      return s ? `?${s}` : "?";
    });
  const step = (to: number, label: string, rel: string | undefined, enabled: boolean) =>
    enabled ? (
      <Link to={hrefFor(to)} rel={rel} className="btn btn-secondary" preventScrollReset>
        {label}
      </Link>
    ) : (
      <span className="btn btn-secondary" aria-disabled="true">
        {label}
      </span>
    );
  return (
    <nav className="pagination" aria-label="Pagination">
      {step(1, LIST_TEXTS.first, undefined, current > 1)}
      {step(current - 1, LIST_TEXTS.previous, "prev", current > 1)}
      <span className="pagination-status" aria-current="page">
        {LIST_TEXTS.pageOf(current, pages)}
      </span>
      {step(current + 1, LIST_TEXTS.next, "next", current < pages)}
      {step(pages, LIST_TEXTS.last, undefined, current < pages)}
    </nav>
  );
}

/** "November 22, 2026, 10:30 AM by ada@example.com": a list's timestamp with who (spec 1 §3). */
export function Stamp({ at, by }: { at: string; by?: string | null }) {
  return (
    <>
      {/* The date and time keep together with no-break spaces rather than inside a no-wrap element: one element
          fewer per stamp, two per row. */}
      {at.replace(/ /g, "\u00a0")}
      {/* One text node (not " " and the name: React would write a comment between them on every row). */}
      {by ? <span className="muted small stamp-by">{` ${LIST_TEXTS.by(by)}`}</span> : null}
    </>
  );
}

/** The empty state when a filter (not the search text, which has its own) hides every row: says so, links to all. */
export function NoMatch({ showAll }: { showAll: string }) {
  return (
    <p>
      {LIST_TEXTS.noMatch} <Link to={showAll}>{LIST_TEXTS.showAll}</Link>
    </p>
  );
}

/**
 * A list filter: inputs of the list's GET form (inside `ListToolbar`) that submit on change with JavaScript.
 * `multiple`: checkboxes (any number chosen) plus `filtered=1`, so the loader tells "none ticked" from "no filter in
 * the URL" (the kit's remembered filters, kit/resource-routes.server `ListFilter`); else radios, one chosen.
 */
export function ChoiceFilter<V extends string>({
  legend,
  param,
  options,
  labels,
  chosen,
  multiple = false,
}: {
  legend: string;
  param: string;
  options: readonly V[];
  labels: Record<V, string>;
  chosen: readonly string[];
  multiple?: boolean;
}) {
  const auto = useAutoSubmit(submitForm);
  return (
    // Keyed by the choice: a new answer (back button, "Show all") resets the inputs' defaults.
    <fieldset
      className={multiple ? "type-filter" : "segmented"}
      key={chosen.join(",")}
      onChange={auto.onChange}
      onKeyDown={auto.onKeyDown}
      onBlur={auto.onBlur}
    >
      <legend className="visually-hidden">{legend}</legend>
      {multiple ? <input type="hidden" name="filtered" value="1" /> : null}
      {options.map((value) => (
        <label key={value}>
          <input
            type={multiple ? "checkbox" : "radio"}
            name={param}
            value={value}
            defaultChecked={chosen.includes(value)}
          />
          {labels[value]}
        </label>
      ))}
    </fieldset>
  );
}

/**
 * A list cell with no value shows NO_VALUE, an em dash. The table writes it as the character reference `&#8212;` (same
 * DOM, same text): a single character outside Latin-1 makes React's whole page a two-byte string on the server, and
 * flattening it, measuring and encoding its UTF-8 and every search over it then cost more. `/people`'s 51 dashes
 * were ~5% of its server CPU (docs/decisions/page-render-cost.md).
 */
export { NO_VALUE };
const NO_VALUE_HTML = { __html: "&#8212;" };

/** A list cell of tags (chips), or NO_VALUE for none. */
export function tagsCell(tags: readonly string[]): ReactNode {
  return tags.length ? <TagsCell tags={tags} /> : NO_VALUE;
}

function TagsCell({ tags }: { tags: readonly string[] }) {
  return (
    <ul className="tag-list">
      {tags.map((t) => (
        <li key={t} className="tag">
          {t}
        </li>
      ))}
    </ul>
  );
}

/**
 * A table column: `cell` answers NO_VALUE when the row has nothing to show there. `sort`: the list sorts the upstream
 * can apply to this column, the first click's first (a second click on the sorted column takes the next: the
 * reverse). Without it the kit's defaults by header apply (`KIT_SORTS`); `[]` keeps a header plain.
 */
export type Column<T> = { header: string; cell: (row: T) => ReactNode; className?: string; sort?: readonly Sort[] };

/** Which way each of the upstream's sorts orders its column (a header's `aria-sort`). */
const SORT_DIRECTION: Record<Sort, "ascending" | "descending"> = {
  name: "ascending",
  newest: "descending",
  oldest: "ascending",
};

/**
 * The columns every collection of the kit sorts by (upstream/src/lib/collection.ts `orderBy`): the name (`sort=name`,
 * its own order; the upstream has no reverse of it, so that header only sorts one way) and the creation time
 * (newest first, then oldest first). Kit lists head them "Name" and "Created At"; other columns (a modification
 * time, tags) are nothing the upstream can sort by, so their headers stay plain.
 */
const KIT_SORTS: Readonly<Record<string, readonly Sort[]>> = {
  Name: ["name"],
  "Created At": ["newest", "oldest"],
};

/** The sorts a click on the header of `column` goes through (none: a plain header). */
function columnSorts(column: { header: string; sort?: readonly Sort[] }): readonly Sort[] {
  return column.sort ?? KIT_SORTS[column.header] ?? [];
}

/**
 * What a click on a sortable header asks for: the column's first sort, or, on the column the list is sorted by, the
 * next one (the reverse); and how the column is sorted now, for `aria-sort` (undefined: not by this column).
 */
function headerSort(sorts: readonly Sort[], current: Sort): { next: Sort; state: "ascending" | "descending" | undefined } {
  const at = sorts.indexOf(current);
  if (at < 0) return { next: sorts[0]!, state: undefined };
  return { next: sorts[(at + 1) % sorts.length]!, state: SORT_DIRECTION[current] };
}

/** The list's address sorted by `sort`: the other params kept, back to the first page (the old page means nothing). */
function sortHref(params: URLSearchParams, sort: Sort): string {
  const next = new URLSearchParams(params);
  next.delete("page");
  next.set("sort", sort);
  return `?${next.toString()}`;
}

/**
 * A column header: a link that sorts the list by it (a plain GET, so it works without JavaScript and the sort stays in
 * the URL and the prefs cookie, as the Sort select's does), with `aria-sort` on the header of the sorted column.
 */
function HeaderCell({ column, current }: { column: Pick<Column<unknown>, "header" | "className" | "sort">; current: Sort | undefined }) {
  const sorts = current ? columnSorts(column) : [];
  if (!current || sorts.length === 0) {
    return (
      <th scope="col" className={column.className}>
        {column.header}
      </th>
    );
  }
  return <SortableHeaderCell column={column} sorts={sorts} current={current} />;
}

/**
 * A sortable header. Its arrow (▲ ▼) comes from the stylesheet, keyed by `aria-sort`: a character outside Latin-1 in
 * the markup makes the whole page a two-byte string on the server (docs/decisions/page-render-cost.md).
 */
function SortableHeaderCell({
  column,
  sorts,
  current,
}: {
  column: Pick<Column<unknown>, "header" | "className">;
  sorts: readonly Sort[];
  current: Sort;
}) {
  const [params] = useSearchParams();
  const { next, state } = headerSort(sorts, current);
  return (
    <th scope="col" className={column.className} aria-sort={state}>
      <Link to={sortHref(params, next)} className="sort-link" preventScrollReset title={LIST_TEXTS.sortBy(next)}>
        {column.header}
        <span className="sort-mark" aria-hidden="true" />
      </Link>
    </th>
  );
}

/**
 * A plain, accessible table. `empty` shows in place of the rows when there are none. On a narrow screen the table
 * scrolls sideways inside its frame: shadows at the edges show there is more, and the frame is a focusable, named
 * region so the keyboard can scroll it too.
 */
export function DataTable<T>({
  caption,
  columns,
  rows,
  rowKey,
  empty,
  sort,
}: {
  caption: string;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  empty: ReactNode;
  /** The list's sort: given, the headers of the columns it can sort by are links (`Column.sort`). */
  sort?: Sort;
}) {
  if (rows.length === 0) return <div className="empty-state">{empty}</div>;
  return (
    <div className="table-wrap" role="region" aria-label={LIST_TEXTS.scrollRegion(caption)} tabIndex={0}>
      <table className="data-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <HeaderCell key={c.header} column={c} current={sort} />
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <tr key={rowKey(row)}>
              {columns.map((c) => {
                // The first row's cells carry Element Timing (Chromium reports a text paint against its containing
                // block; bench:browser measures when they paint).
                const timing = index === 0 ? "first-row" : undefined;
                const content = c.cell(row);
                return content === NO_VALUE ? (
                  <td key={c.header} className={c.className} elementtiming={timing} dangerouslySetInnerHTML={NO_VALUE_HTML} />
                ) : (
                  <td key={c.header} className={c.className} elementtiming={timing}>
                    {content}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The heading row of a list page: title, total count and the create link. */
export function ListHeader({ title, total, action }: { title: string; total: ReactNode; action?: ReactNode }) {
  return (
    <div className="page-header">
      <div>
        <h1>{title}</h1>
        <p className="page-subtitle" aria-live="polite">
          {total}
        </p>
      </div>
      {action}
    </div>
  );
}
