import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { can } from "../../upstream/contract/permissions";
import { SPECIFICATION_TYPES, type SpecificationType } from "../../upstream/contract/specifications";
import { requireRoute } from "~/auth/guard.server";
import { formatDateTime } from "~/lib/format";
import { listQueryOf, loadPage } from "~/lib/list.server";
import { readPrefs, writePrefs } from "~/lib/prefs.server";
import { specifications } from "~/specifications/specifications.server";
import { SPECIFICATIONS } from "~/specifications/texts";
import { Icon } from "~/ui/icons";
import { DataTable, ListHeader, ListToolbar, NoMatch, Pagination, type Column } from "~/ui/list";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "Specifications · Backoffice" }];

const FILTER_KEY = "specifications.types";

/**
 * The type filter (spec 1 §2: all selected by default, remembered). The filter form always sends `filtered=1`, so an
 * empty selection is told apart from "no filter in the URL" (then the remembered one, else all).
 */
async function resolveTypes(args: LoaderFunctionArgs, setCookies: string[]): Promise<SpecificationType[]> {
  const url = new URL(args.request.url);
  const prefs = await readPrefs(args.request, args.context);
  if (url.searchParams.get("filtered") === "1") {
    const chosen = SPECIFICATION_TYPES.filter((t) => url.searchParams.getAll("type").includes(t));
    if (JSON.stringify(prefs.filters[FILTER_KEY]) !== JSON.stringify(chosen)) {
      // Re-read after the sort may have written: keep both changes.
      const latest = await readPrefs(args.request, args.context);
      setCookies.push(await writePrefs({ ...latest, filters: { ...latest.filters, [FILTER_KEY]: chosen } }, args.context));
    }
    return chosen;
  }
  const remembered = prefs.filters[FILTER_KEY];
  return remembered ? SPECIFICATION_TYPES.filter((t) => remembered.includes(t)) : [...SPECIFICATION_TYPES];
}

export async function loader(args: LoaderFunctionArgs) {
  const { api, identity, timeZone } = await requireRoute(args);
  const setCookies: string[] = [];
  const { query: q, setCookie } = await listQueryOf(args.request, args.context, "specifications");
  const sort = q.sort;
  const types = await resolveTypes(args, setCookies);
  const page = await loadPage(q, (query) => specifications.list(api, query, types));
  // Both the sort and the filter live in the one prefs cookie: when both changed, the filter's cookie (written from
  // the request's cookie) must also carry the new sort.
  let cookie = setCookies[0] ?? setCookie;
  if (setCookie && setCookies[0]) {
    const prefs = await readPrefs(args.request, args.context);
    cookie = await writePrefs(
      { ...prefs, sorts: { ...prefs.sorts, specifications: sort }, filters: { ...prefs.filters, [FILTER_KEY]: types } },
      args.context,
    );
  }
  return json(
    {
      q: q.q,
      sort: q.sort,
      types,
      page: page.page,
      pageSize: page.pageSize,
      total: page.total,
      rows: page.items.map((s) => ({
        id: s.id,
        name: s.name,
        description: s.description,
        tags: s.tags,
        type: s.type,
        updatedAt: formatDateTime(s.updatedAt, timeZone),
        updatedBy: s.updatedBy,
        createdBy: s.createdBy,
      })),
      canCreate: can(identity.permissions, "specifications.write"),
    },
    { headers: cookie ? { "Set-Cookie": cookie } : undefined },
  );
}

type Row = ReturnType<typeof useLoaderData<typeof loader>>["rows"][number];
const C = SPECIFICATIONS.columns;

const columns: Column<Row>[] = [
  { header: C.name, cell: (s) => <Link to={`/specifications/${s.id}`}>{s.name}</Link> },
  { header: C.description, cell: (s) => s.description || "—" },
  {
    header: C.tags,
    cell: (s) =>
      s.tags.length ? (
        <ul className="tag-list">
          {s.tags.map((t) => (
            <li key={t} className="tag">
              {t}
            </li>
          ))}
        </ul>
      ) : (
        "—"
      ),
  },
  { header: C.type, cell: (s) => SPECIFICATIONS.types[s.type] },
  {
    header: C.modified,
    cell: (s) => (
      <>
        <span className="nowrap">{s.updatedAt}</span>
        {s.updatedBy || s.createdBy ? (
          <span className="muted small"> {SPECIFICATIONS.by(s.updatedBy ?? s.createdBy)}</span>
        ) : null}
      </>
    ),
  },
  {
    header: "Actions",
    className: "actions",
    cell: (s) => (
      <Link to={`/specifications/${s.id}/edit`} className="icon-button" aria-label={`Edit ${s.name}`} title="Edit">
        <Icon name="pencil" />
      </Link>
    ),
  },
];

export default function Specifications() {
  const data = useLoaderData<typeof loader>();
  return (
    <>
      <ListHeader
        title={SPECIFICATIONS.listTitle}
        total={SPECIFICATIONS.total(data.total)}
        action={
          data.canCreate ? (
            <Link to="/specifications/create" className="btn btn-primary">
              {SPECIFICATIONS.addNew}
            </Link>
          ) : null
        }
      />
      <ListToolbar q={data.q} sort={data.sort} searchLabel={SPECIFICATIONS.searchLabel}>
        <fieldset className="type-filter" key={data.types.join(",")}>
          <legend className="visually-hidden">{SPECIFICATIONS.filterLegend}</legend>
          <input type="hidden" name="filtered" value="1" />
          {SPECIFICATION_TYPES.map((t) => (
            <label key={t}>
              <input
                type="checkbox"
                name="type"
                value={t}
                defaultChecked={data.types.includes(t)}
                onChange={(e) => e.currentTarget.form?.requestSubmit()}
              />
              {SPECIFICATIONS.types[t]}
            </label>
          ))}
        </fieldset>
      </ListToolbar>
      <DataTable
        caption={SPECIFICATIONS.listTitle}
        columns={columns}
        rows={data.rows}
        rowKey={(s) => s.id}
        empty={
          data.q ? (
            <p>
              {SPECIFICATIONS.emptySearch(data.q)} <Link to="?">Clear the search</Link>
            </p>
          ) : data.types.length < SPECIFICATION_TYPES.length ? (
            <NoMatch showAll={`?filtered=1&${SPECIFICATION_TYPES.map((t) => `type=${t}`).join("&")}`} />
          ) : (
            <p>{SPECIFICATIONS.empty}</p>
          )
        }
      />
      <Pagination page={data.page} pageSize={data.pageSize} total={data.total} />
    </>
  );
}
