import { Form, Link, useLocation, useNavigation, useSearchParams, useSubmit } from "@remix-run/react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import type { Sort } from "../../upstream/contract/common";
import { Icon } from "./icons";

/** List search debounce (spec 1 §9). */
export const SEARCH_DEBOUNCE_MS = 250;

export const SORT_LABELS: Record<Sort, string> = { name: "Name", newest: "Newest", oldest: "Oldest" };

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
  const [text, setText] = useState(q);
  const navigation = useNavigation();
  const searching = navigation.state === "loading" && navigation.location.search !== undefined;

  // Follow the URL (back/forward) unless the user is typing in the box.
  useEffect(() => {
    if (document.activeElement?.id !== "list-search") setText(q);
  }, [q]);
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

  return (
    <Form method="get" role="search" className="list-toolbar" ref={formRef} aria-busy={searching}>
      <div className="search-box">
        <label htmlFor="list-search" className="visually-hidden">
          {searchLabel}
        </label>
        <Icon name="search" className="search-icon" />
        <input
          id="list-search"
          type="search"
          name="q"
          value={text}
          placeholder={searchLabel}
          autoComplete="off"
          onChange={(e) => {
            setText(e.currentTarget.value);
            window.clearTimeout(timer.current);
            timer.current = window.setTimeout(() => submitNow(true), SEARCH_DEBOUNCE_MS);
          }}
        />
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

/** Page links that keep the other search params. Pages are 1-based. */
export function Pagination({ page, pageSize, total }: { page: number; pageSize: number; total: number }) {
  const [params] = useSearchParams();
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1) return null;
  const hrefFor = (p: number) => {
    const next = new URLSearchParams(params);
    if (p === 1) next.delete("page");
    else next.set("page", String(p));
    const s = next.toString();
    return s ? `?${s}` : "?";
  };
  return (
    <nav className="pagination" aria-label="Pagination">
      {page > 1 ? (
        <Link to={hrefFor(page - 1)} rel="prev" className="btn btn-secondary" preventScrollReset>
          Previous
        </Link>
      ) : (
        <span className="btn btn-secondary" aria-disabled="true">
          Previous
        </span>
      )}
      <span className="pagination-status" aria-current="page">
        Page {page} of {pages}
      </span>
      {page < pages ? (
        <Link to={hrefFor(page + 1)} rel="next" className="btn btn-secondary" preventScrollReset>
          Next
        </Link>
      ) : (
        <span className="btn btn-secondary" aria-disabled="true">
          Next
        </span>
      )}
    </nav>
  );
}

export type Column<T> = { header: string; cell: (row: T) => ReactNode; className?: string };

/** A plain, accessible table. `empty` shows in place of the rows when there are none. */
export function DataTable<T>({
  caption,
  columns,
  rows,
  rowKey,
  empty,
}: {
  caption: string;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  empty: ReactNode;
}) {
  if (rows.length === 0) return <div className="empty-state">{empty}</div>;
  return (
    <div className="table-wrap">
      <table className="data-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.header} scope="col" className={c.className}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((c) => (
                <td key={c.header} className={c.className}>
                  {c.cell(row)}
                </td>
              ))}
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
