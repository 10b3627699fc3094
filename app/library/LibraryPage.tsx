import { getFormProps, getInputProps, getTextareaProps, type FieldMetadata } from "@conform-to/react";
import { Form, Link, useNavigation, useSubmit } from "@remix-run/react";
import { Suspense, lazy, useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { LIBRARY_TYPES, type LibraryItem, type LibraryType } from "@contract/library";
import { ConfirmAction } from "~/ui/confirm";
import { useJsonLoad } from "~/ui/fetch-json";
import { CheckboxField, CheckboxGroup, FieldErrors, FormError, SaveButton, TextField } from "~/ui/fields";
import { useHydrated } from "~/ui/hydrated";
import { NothingOnError } from "~/ui/nothing-on-error";
import { useSchemaForm } from "~/ui/schema-form";
import { joinTags } from "~/ui/tag-input";
import { SettingsSchema } from "./schema";
import {
  CATEGORY_SEARCH_DEBOUNCE_MS,
  CATEGORY_SEARCH_MIN,
  FILTER_LISTS,
  FILTER_SHOWN,
  PICK_SHOWN,
  searchRuns,
  editorPath,
  hrefOf,
  type CategoryNode,
  type FilterList,
  type LibraryState,
} from "./state";
import { LIBRARY } from "./texts";


export type LibraryRow = {
  id: string;
  name: string;
  type: LibraryType;
  updatedAt: string;
  updatedBy: string | null;
};
export type LibraryGroupRows = { label: string; rows: LibraryRow[] };
export type Option = { value: string; label: string };

/** The statistics as shown: per dimension its title and its biggest counts, labelled. */
export type StatsView = { total: number; dimensions: { dimension: string; title: string; rows: [string, number][] }[] };

export type LibraryView = {
  state: LibraryState;
  /** The categories shown in the tree: the top level, the branch of the chosen or edited one, or the search's matches. */
  tree: CategoryNode[];
  /** The selected item's category picker: the options of its search (at most 50) and how many matched. */
  categoryPick: { options: Option[]; matched: number };
  /** The selected item's own categories, by path ('Unknown Category' for an id that names none). */
  categoryLabels: Option[];
  stats: StatsView;
  groups: LibraryGroupRows[];
  total: number;
  pages: number;
  organizations: Option[];
  /** Each filter list's values: the first five, or all with `more`, and any chosen. */
  filterOptions: Record<FilterList, Option[]>;
  /** Each filter list's number of values (more/less shows past five). */
  filterCounts: Record<FilterList, number>;
  item: (LibraryItem & { updated: string }) | null;
  canSave: boolean;
  canWrite: boolean;
  confirmCategory: string | null;
};

/** /library (spec 3 §2.7): the category tree and statistics, the controls and items, the selected item's settings. */
export function LibraryPage({ view, actionData }: { view: LibraryView; actionData: unknown }) {
  return (
    <div className="library">
      <div className="page-header">
        <h1>{LIBRARY.title}</h1>
        <NewItemMenu state={view.state} canWrite={view.canWrite} />
      </div>
      <div className="library-panels">
        <aside className="library-categories" aria-labelledby="library-categories-heading">
          <h2 id="library-categories-heading">{LIBRARY.categories}</h2>
          <CategorySearch state={view.state} />
          <CategoryTree view={view} actionData={actionData} />
          {view.canWrite ? <AddCategory view={view} actionData={actionData} /> : null}
          <Stats stats={view.stats} />
        </aside>
        <section className="library-items" aria-labelledby="library-items-heading">
          <h2 id="library-items-heading" className="visually-hidden">
            {LIBRARY.title}
          </h2>
          <Controls view={view} />
          <Items view={view} />
        </section>
        <section className="library-settings" aria-labelledby="library-settings-heading">
          <h2 id="library-settings-heading">{LIBRARY.settings}</h2>
          {view.item ? (
            <Settings key={`${view.item.id}:${view.item.updatedAt}`} view={view} item={view.item} actionData={actionData} />
          ) : (
            <p className="muted">{LIBRARY.nothingSelected}</p>
          )}
        </section>
      </div>
    </div>
  );
}

function NewItemMenu({ state, canWrite }: { state: LibraryState; canWrite: boolean }) {
  if (!canWrite) return null;
  return (
    <details className="library-new">
      <summary className="btn btn-primary">{LIBRARY.newItem}</summary>
      <Form method="post" action={hrefOf(state, { page: state.page })} className="library-new-menu">
        <input type="hidden" name="intent" value="new-item" />
        {LIBRARY_TYPES.map((t) => (
          <button key={t} type="submit" name="libraryType" value={t} className="btn btn-secondary">
            {LIBRARY.types[t]}
          </button>
        ))}
      </Form>
    </details>
  );
}

function CategorySearch({ state }: { state: LibraryState }) {
  const submit = useSubmit();
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);
  return (
    <Form method="get" action="/library" role="search" className="library-category-search">
      <HiddenState state={state} omit={["csearch"]} />
      <label htmlFor="library-csearch" className="visually-hidden">
        {LIBRARY.categorySearch}
      </label>
      <input
        id="library-csearch"
        type="search"
        name="csearch"
        defaultValue={state.csearch}
        placeholder={LIBRARY.categorySearch}
        maxLength={200}
        onChange={(e) => {
          const form = e.currentTarget.form;
          const text = e.currentTarget.value.trim();
          clearTimeout(timer.current);
          if (!searchRuns(text)) return;
          timer.current = setTimeout(() => submit(form, { replace: true, preventScrollReset: true }), CATEGORY_SEARCH_DEBOUNCE_MS);
        }}
      />
      <button type="submit" className="btn btn-secondary">
        {LIBRARY.search}
      </button>
    </Form>
  );
}

/** The state's values as hidden fields of a GET form (everything stays in the URL). */
function HiddenState({ state, omit }: { state: LibraryState; omit: readonly string[] }) {
  const fields: [string, string][] = [];
  if (state.groupBy !== "category") fields.push(["groupBy", state.groupBy]);
  for (const key of ["name", "tag", "cat", "csearch", "id", "pick"] as const) if (state[key]) fields.push([key, state[key]]);
  for (const f of FILTER_LISTS) for (const v of state.chosen[f]) fields.push([f, v]);
  for (const m of state.more) fields.push(["more", m]);
  return (
    <>
      {fields
        .filter(([k]) => !omit.includes(k))
        .map(([k, v], i) => (
          <input key={`${k}-${i}`} type="hidden" name={k} value={v} />
        ))}
    </>
  );
}

/** The drag-and-drop tree's chunk (dnd-kit): requested only by this route, in the browser, for writers. */
const CategoryTreeDnd = lazy(() => import("./CategoryTreeDnd.client"));

/**
 * The tree: nested lists of links (a category filters the items and opens its branch), edits are forms. With
 * JavaScript a writer drags the categories instead (pointer or keyboard), once the chunk has mounted; not while the
 * tree shows a search's matches, whose siblings are partly hidden (the move forms still work there).
 */
function CategoryTree({ view, actionData }: { view: LibraryView; actionData: unknown }) {
  const { state } = view;
  const hydrated = useHydrated();
  const submit = useSubmit();
  const [ready, setReady] = useState(false);
  const onReady = useCallback(() => setReady(true), []);
  const draggable = hydrated && view.canWrite && state.csearch.length < CATEGORY_SEARCH_MIN && view.tree.length > 0;
  const nodes = new Map(view.tree.map((n) => [n.id, n]));
  const onMove = (id: string, parentId: string | null, order: number | undefined) =>
    submit(
      { intent: "move-category", id, parentId: parentId ?? "", order: order === undefined ? "" : String(order) },
      { method: "post", action: hrefOf(state, { page: state.page }), preventScrollReset: true },
    );
  const children = new Map<string | null, CategoryNode[]>();
  for (const n of view.tree) {
    const list = children.get(n.parentId) ?? [];
    list.push(n);
    children.set(n.parentId, list);
  }
  const branch = (parent: string | null): ReactNode => {
    const list = children.get(parent) ?? [];
    if (!list.length) return null;
    return (
      <ul className="library-tree">
        {list.map((n) => (
          <li key={n.id}>
            <CategoryRow node={n} view={view} actionData={actionData} />
            {branch(n.id)}
          </li>
        ))}
      </ul>
    );
  };
  return (
    <nav aria-label={LIBRARY.categories} className="library-tree-nav">
      {draggable && ready ? null : branch(null)}
      {draggable ? (
        <NothingOnError>
          <Suspense fallback={null}>
            <CategoryTreeDnd
              rows={view.tree}
              onMove={onMove}
              onReady={onReady}
              renderRow={(r) => <CategoryRow node={nodes.get(r.id)!} view={view} actionData={actionData} />}
            />
          </Suspense>
        </NothingOnError>
      ) : null}
      <ul className="library-tree">
        <li>
          <Link to={hrefOf(state, { cat: "other" })} aria-current={state.cat === "other" ? "true" : undefined}>
            {LIBRARY.other}
          </Link>
        </li>
      </ul>
      {state.cat ? (
        <p>
          <Link to={hrefOf(state, { cat: "" })}>{LIBRARY.allCategories}</Link>
        </p>
      ) : null}
    </nav>
  );
}

/**
 * One category: its link (filters the items) and, for writers, an Edit link; the category being edited (`?edit=`)
 * shows its forms — move up/down, rename, re-parent, delete — so a tree of hundreds stays light to send and to read.
 */
function CategoryRow({ node, view, actionData }: { node: CategoryNode; view: LibraryView; actionData: unknown }) {
  const { state } = view;
  const editing = state.edit === node.id;
  return (
    <div className="library-category">
      <Link to={hrefOf(state, { cat: node.id })} aria-current={state.cat === node.id ? "true" : undefined}>
        {node.name}
      </Link>
      {node.children > 0 && !node.open ? <span className="muted"> ({node.children})</span> : null}
      {view.canWrite ? (
        <Link
          to={hrefOf(state, { edit: editing ? "" : node.id, page: state.page })}
          className="btn btn-secondary btn-small"
          aria-label={`${LIBRARY.edit} ${node.name}`}
          aria-expanded={editing}
          preventScrollReset
        >
          {LIBRARY.edit}
        </Link>
      ) : null}
      {editing && view.canWrite ? <CategoryEdit node={node} view={view} actionData={actionData} /> : null}
    </div>
  );
}

function CategoryEdit({ node, view, actionData }: { node: CategoryNode; view: LibraryView; actionData: unknown }) {
  const { state } = view;
  const back = hrefOf(state, { page: state.page });
  const reply = replyOf(actionData, "categoryReply");
  const mine = reply?.id === node.id;
  // The categories the tree shows (open a category's branch to move this one under it), not its own branch.
  const parents = view.tree.filter((n) => n.id !== node.id && !n.path.startsWith(`${node.path} > `));
  return (
    <div className="library-category-edit">
      <Form method="post" action={back} className="inline-form">
        <input type="hidden" name="intent" value="move-category" />
        <input type="hidden" name="id" value={node.id} />
        <input type="hidden" name="parentId" value={node.parentId ?? ""} />
        <button
          type="submit"
          name="order"
          value={Math.max(0, node.order - 1)}
          className="btn btn-secondary btn-small"
          disabled={node.order === 0}
          aria-label={`${LIBRARY.moveUp} ${node.name}`}
        >
          ↑
        </button>
        <button
          type="submit"
          name="order"
          value={node.order + 1}
          className="btn btn-secondary btn-small"
          disabled={node.last}
          aria-label={`${LIBRARY.moveDown} ${node.name}`}
        >
          ↓
        </button>
      </Form>
      <Form method="post" action={back} className="field-row">
        <input type="hidden" name="intent" value="rename-category" />
        <input type="hidden" name="id" value={node.id} />
        <label htmlFor={`rename-${node.id}`}>{LIBRARY.categoryName}</label>
        <input
          id={`rename-${node.id}`}
          name="name"
          defaultValue={mine ? reply.name : node.name}
          maxLength={200}
          autoFocus={mine && reply.errors.length > 0}
          aria-invalid={mine && reply.errors.length ? true : undefined}
          aria-describedby={`rename-${node.id}-errors`}
        />
        <button type="submit" className="btn btn-primary btn-small">
          {LIBRARY.save}
        </button>
        <FieldErrors id={`rename-${node.id}-errors`} errors={mine ? reply.errors : undefined} />
      </Form>
      <Form method="post" action={back} className="field-row">
        <input type="hidden" name="intent" value="move-category" />
        <input type="hidden" name="id" value={node.id} />
        <label htmlFor={`parent-${node.id}`}>{LIBRARY.parent}</label>
        <select id={`parent-${node.id}`} name="parentId" defaultValue={node.parentId ?? ""}>
          <option value="">{LIBRARY.topLevel}</option>
          {parents.map((p) => (
            <option key={p.id} value={p.id}>
              {p.path}
            </option>
          ))}
        </select>
        <button type="submit" className="btn btn-secondary btn-small">
          {LIBRARY.move}
        </button>
      </Form>
      <ConfirmAction
        intent="delete-category"
        id={`delete-category-${node.id}`}
        fields={{ id: node.id }}
        label={LIBRARY.delete}
        ariaLabel={`${LIBRARY.delete} ${node.name}`}
        title={LIBRARY.deleteCategoryTitle}
        message={LIBRARY.cantUndo}
        confirmLabel={LIBRARY.delete}
        confirming={view.confirmCategory === node.id}
        buttonClassName="btn btn-danger btn-small"
      />
    </div>
  );
}

/** The category forms' answer: the typed name and its errors (kept on a refusal), for which category ("" = new). */
function replyOf(data: unknown, key: string): { id: string; name: string; errors: string[] } | null {
  if (!data || typeof data !== "object" || !(key in data)) return null;
  return (data as Record<string, { id: string; name: string; errors: string[] }>)[key] ?? null;
}

/** 'Add category': Create is disabled while the name is empty (with JavaScript); without it the server says why. */
function AddCategory({ view, actionData }: { view: LibraryView; actionData: unknown }) {
  const reply = replyOf(actionData, "categoryReply");
  const mine = reply?.id === "";
  const [name, setName] = useState(mine ? reply.name : "");
  const hydrated = useHydrated();
  const busy = useNavigation().formData?.get("intent") === "create-category";
  return (
    <Form method="post" action={hrefOf(view.state, { page: view.state.page })} className="library-add-category">
      <h3>{LIBRARY.addCategory}</h3>
      <input type="hidden" name="intent" value="create-category" />
      <div className="field">
        <label htmlFor="category-name">{LIBRARY.categoryName}</label>
        <input
          id="category-name"
          name="name"
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          maxLength={200}
          autoFocus={mine && reply.errors.length > 0}
          aria-invalid={mine && reply.errors.length ? true : undefined}
          aria-describedby="category-name-errors"
        />
        <FieldErrors id="category-name-errors" errors={mine ? reply.errors : undefined} />
      </div>
      <div className="field">
        <label htmlFor="category-parent">{LIBRARY.parent}</label>
        <select id="category-parent" name="parentId" defaultValue={view.state.cat !== "other" ? view.state.cat : ""}>
          <option value="">{LIBRARY.topLevel}</option>
          {view.tree.map((p) => (
            <option key={p.id} value={p.id}>
              {p.path}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className="btn btn-primary" disabled={(hydrated && !name.trim()) || busy}>
        {LIBRARY.create}
      </button>
    </Form>
  );
}

function Stats({ stats }: { stats: StatsView }) {
  return (
    <section className="library-stats" aria-labelledby="library-stats-heading">
      <h3 id="library-stats-heading">{LIBRARY.stats}</h3>
      <p>
        {LIBRARY.total}: <strong>{stats.total}</strong>
      </p>
      {stats.dimensions.map((d) => (
        <details key={d.dimension}>
          <summary>{d.title}</summary>
          <table className="library-stats-table">
            <tbody>
              {d.rows.map(([label, n], i) => (
                <tr key={`${label}-${i}`}>
                  <th scope="row">{label}</th>
                  <td>{n}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      ))}
    </section>
  );
}

const FILTER_TITLES: Record<FilterList, string> = {
  client: LIBRARY.clients,
  type: LIBRARY.type,
  editor: LIBRARY.lastEditedBy,
  tags: LIBRARY.tags,
};

/** Group-by, the tag filter, the name search and the filter dropdown: one GET form, so the URL holds them all. */
function Controls({ view }: { view: LibraryView }) {
  const { state } = view;
  return (
    <Form method="get" action="/library" className="library-controls" role="search">
      <HiddenState state={state} omit={["groupBy", "name", "tag", ...FILTER_LISTS]} />
      <fieldset className="library-group-by">
        <legend>{LIBRARY.groupBy}</legend>
        <label>
          <input type="radio" name="groupBy" value="category" defaultChecked={state.groupBy === "category"} /> {LIBRARY.byCategory}
        </label>
        <label>
          <input type="radio" name="groupBy" value="date" defaultChecked={state.groupBy === "date"} /> {LIBRARY.byDate}
        </label>
      </fieldset>
      <div className="field">
        <label htmlFor="library-name">{LIBRARY.name}</label>
        <input id="library-name" type="search" name="name" defaultValue={state.name} maxLength={200} />
      </div>
      <div className="field">
        <label htmlFor="library-tag">{LIBRARY.tag}</label>
        <input id="library-tag" type="search" name="tag" defaultValue={state.tag} maxLength={100} />
      </div>
      <details className="library-filters" open={FILTER_LISTS.some((f) => state.chosen[f].length > 0) || state.more.length > 0}>
        <summary className="btn btn-secondary">{LIBRARY.filters}</summary>
        {FILTER_LISTS.map((f) => {
          const expanded = state.more.includes(f);
          return (
            <fieldset key={f} className="library-filter">
              <legend>{FILTER_TITLES[f]}</legend>
              {view.filterOptions[f].map((o) => (
                <label key={o.value}>
                  <input type="checkbox" name={f} value={o.value} defaultChecked={state.chosen[f].includes(o.value)} /> {o.label}
                </label>
              ))}
              {view.filterCounts[f] > FILTER_SHOWN ? (
                <Link
                  to={hrefOf(state, { more: expanded ? state.more.filter((m) => m !== f) : [...state.more, f], page: state.page })}
                  preventScrollReset
                  aria-label={`${expanded ? LIBRARY.less : LIBRARY.more}: ${FILTER_TITLES[f]}`}
                >
                  {expanded ? LIBRARY.less : LIBRARY.more}
                </Link>
              ) : null}
            </fieldset>
          );
        })}
      </details>
      <button type="submit" className="btn btn-primary">
        {LIBRARY.apply}
      </button>
    </Form>
  );
}

function Items({ view }: { view: LibraryView }) {
  const { state } = view;
  if (!view.groups.length) return <p className="muted">{LIBRARY.noItems}</p>;
  return (
    <>
      {view.groups.map((g, i) => (
        <section key={`${g.label}-${i}`} className="library-group" aria-label={g.label}>
          <h3>{g.label}</h3>
          <ul className="library-item-list">
            {g.rows.map((r) => (
              <li key={r.id}>
                <Link to={hrefOf(state, { id: r.id, page: state.page })} aria-current={state.id === r.id ? "true" : undefined}>
                  {r.name}
                </Link>{" "}
                <span className="badge">{LIBRARY.types[r.type]}</span>{" "}
                <span className="muted">
                  {r.updatedAt}
                  {r.updatedBy ? ` · ${r.updatedBy}` : ""}
                </span>
              </li>
            ))}
          </ul>
        </section>
      ))}
      {view.pages > 1 ? (
        <nav aria-label="Pages" className="library-pages">
          {state.page > 1 ? <Link to={hrefOf(state, { page: state.page - 1 })}>{LIBRARY.previous}</Link> : null}
          <span>
            {state.page} / {view.pages}
          </span>
          {state.page < view.pages ? <Link to={hrefOf(state, { page: state.page + 1 })}>{LIBRARY.next}</Link> : null}
        </nav>
      ) : null}
    </>
  );
}

/** The selected item's settings (spec 3 §2.7), saved through its own domain. */
function Settings({ view, item, actionData }: { view: LibraryView; item: LibraryItem & { updated: string }; actionData: unknown }) {
  const orgNames = new Map(view.organizations.map((o) => [o.value, o.label]));
  // Ids the item holds that no longer name anything still show, by the spec's words, so saving keeps or drops them.
  const organizationOptions = [
    ...view.organizations,
    ...item.organizations.filter((id) => !orgNames.has(id)).map((id) => ({ value: id, label: LIBRARY.unknownOrganization })),
  ];
  const [form, fields] = useSchemaForm(SettingsSchema, {
    id: `library-settings-${item.id}`,
    actionData,
    defaultValue: {
      name: item.name,
      isPublic: item.isPublic,
      isGeneric: item.isGeneric,
      organizations: item.organizations,
      description: item.description,
      tags: joinTags(item.tags),
      categories: item.categories,
    },
  });
  const disabled = !view.canSave;
  return (
    <>
      <p>
        <span className="badge">{LIBRARY.types[item.libraryType]}</span> <span className="muted">{item.updated}</span>
      </p>
      <p className="library-item-links">
        <Link to={editorPath(item.libraryType, item.id)}>{LIBRARY.openEditor}</Link>
        {item.libraryType === "drawing" ? (
          <>
            {" · "}
            <a href={`/library/drawings/${encodeURIComponent(item.id)}/download`} download>
              {LIBRARY.download}
            </a>
          </>
        ) : null}
      </p>
      <Form method="post" action={hrefOf(view.state, { page: view.state.page })} {...getFormProps(form)} className="form-card library-settings-form">
        <input type="hidden" name="itemId" value={item.id} />
        <TextField meta={fields.name} label={LIBRARY.name} autoComplete="off" disabled={disabled} />
        <CheckboxField meta={fields.isPublic} label={LIBRARY.isPublic} disabled={disabled} />
        <CheckboxField meta={fields.isGeneric} label={LIBRARY.isGeneric} disabled={disabled} />
        <CheckboxGroup meta={fields.organizations} legend={LIBRARY.organizations} options={organizationOptions} empty="—" disabled={disabled} />
        <div className="field">
          <label htmlFor={fields.description.id}>{LIBRARY.description}</label>
          <textarea {...getTextareaProps(fields.description)} rows={3} disabled={disabled} />
          <FieldErrors id={fields.description.errorId} errors={fields.description.errors} />
        </div>
        <div className="field">
          <label htmlFor={fields.tags.id}>{LIBRARY.tags}</label>
          <input {...getInputProps(fields.tags, { type: "text" })} disabled={disabled} aria-describedby={`${fields.tags.errorId} ${fields.tags.id}-hint`} />
          <p className="field-hint" id={`${fields.tags.id}-hint`}>
            {LIBRARY.tagsHint}
          </p>
          <FieldErrors id={fields.tags.errorId} errors={fields.tags.errors} />
        </div>
        <CategoryPicker view={view} meta={fields.categories} formId={form.id} disabled={disabled} />
        <FormError id={form.errorId} errors={form.errors} />
        {view.canSave ? (
          <div className="form-actions">
            <SaveButton form={form} label={LIBRARY.save} busyLabel="Saving…" intent="save-item" />
          </div>
        ) : null}
      </Form>
      <CategoryPickForm state={view.state} formId={form.id} />
    </>
  );
}

type PickAnswer = { options: Option[]; matched: number };

/**
 * The item's categories (spec 3 §5, §9): checkboxes for the item's own and for at most 50 of a search (empty, or 3
 * characters or more). With JavaScript the search runs 300 ms after typing stops, in place, and what is ticked stays
 * whatever the search shows; without, its field belongs to a GET form of the page beside the settings form (`?pick=`),
 * which shows the search's options.
 */
function CategoryPicker({
  view,
  meta,
  formId,
  disabled,
}: {
  view: LibraryView;
  meta: FieldMetadata<string[] | undefined>;
  formId: string;
  disabled: boolean;
}) {
  const search = useJsonLoad<PickAnswer>();
  const hydrated = useHydrated();
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);
  const initial = [meta.initialValue ?? []].flat().filter((v): v is string => typeof v === "string");
  const [ticked, setTicked] = useState<string[]>(initial);
  const pick = search.data ?? view.categoryPick;
  // Every label seen: the item's own, the page's pick and each search's (a ticked one stays named when it scrolls out).
  const labels = useRef(new Map<string, string>());
  for (const o of [...view.categoryLabels, ...view.categoryPick.options, ...pick.options]) labels.current.set(o.value, o.label);
  const own = [...new Set([...view.categoryLabels.map((o) => o.value), ...initial, ...ticked])];
  const ownSet = new Set(own);
  const options = [
    ...own.map((id) => ({ value: id, label: labels.current.get(id) ?? LIBRARY.unknownCategory })),
    ...pick.options.filter((o) => !ownSet.has(o.value)),
  ];
  const searchForm = `${formId}-pick`;
  return (
    <div
      className="library-category-picker"
      onChange={(e) => {
        const input = e.target as HTMLInputElement;
        if (input.type !== "checkbox" || input.name !== meta.name) return;
        setTicked((list) => (input.checked ? [...new Set([...list, input.value])] : list.filter((v) => v !== input.value)));
      }}
    >
      <div className="library-category-search">
        <label htmlFor={`${searchForm}-text`} className="visually-hidden">
          {LIBRARY.pickSearch}
        </label>
        <input
          id={`${searchForm}-text`}
          type="search"
          name="pick"
          form={searchForm}
          defaultValue={view.state.pick}
          placeholder={LIBRARY.pickSearch}
          maxLength={200}
          disabled={disabled}
          onKeyDown={(e) => {
            // With JavaScript the search is in place: Enter does not leave the page (and what was typed in the form).
            if (hydrated && e.key === "Enter") e.preventDefault();
          }}
          onChange={(e) => {
            const text = e.currentTarget.value;
            clearTimeout(timer.current);
            if (!searchRuns(text)) return;
            timer.current = setTimeout(
              () => void search.load(`/library/categories?${new URLSearchParams({ q: text.trim() }).toString()}`),
              CATEGORY_SEARCH_DEBOUNCE_MS,
            );
          }}
        />
        {hydrated ? null : (
          <button type="submit" form={searchForm} className="btn btn-secondary" disabled={disabled}>
            {LIBRARY.search}
          </button>
        )}
      </div>
      <CheckboxGroup meta={meta} legend={LIBRARY.itemCategories} options={options} empty="—" disabled={disabled} />
      {pick.matched > PICK_SHOWN ? (
        <p className="field-hint" role="status">
          {LIBRARY.pickShown(PICK_SHOWN, pick.matched)}
        </p>
      ) : null}
    </div>
  );
}

/** The category picker's search without JavaScript: a GET of the page (outside the settings form, which it cannot nest in). */
function CategoryPickForm({ state, formId }: { state: LibraryState; formId: string }) {
  return (
    <Form method="get" action="/library" id={`${formId}-pick`} hidden>
      <HiddenState state={state} omit={["pick"]} />
    </Form>
  );
}
