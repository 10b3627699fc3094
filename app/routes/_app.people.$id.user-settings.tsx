import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import type { UserSetting } from "@contract/settings";
import { can } from "@contract/permissions";
import { requirePermission, requireRoute } from "~/auth/guard.server";
import { failureToast, intentOf, statusOf } from "~/lib/actions.server";
import { toasts } from "~/lib/toast.server";
import { loadUser } from "~/people/load.server";
import {
  MASK,
  emptyRow,
  hasDuplicates,
  hasErrors,
  rowsFromForm,
  stripSettingKey,
  validateRows,
  type RowErrors,
  type SettingRow,
} from "~/people/settings";
import { settings } from "~/people/settings.server";
import { PEOPLE } from "~/people/texts";
import { UserLinks } from "~/people/UserLinks";
import { useHydrated } from "~/ui/hydrated";
import { Icon } from "~/ui/icons";
import { Toast, toastOf, type ToastData } from "~/ui/toast";
import { readForm } from "~/lib/form.server";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "User Settings · Backoffice" }];

const S = PEOPLE.settings;

/** A stored setting as the browser may see it: secured values masked, objects as read-only JSON. */
function toRow(s: UserSetting): SettingRow {
  const object = typeof s.value !== "string";
  return {
    key: s.key,
    value: object ? JSON.stringify(s.value) : s.secured ? MASK : (s.value as string),
    secured: s.secured,
    saved: true,
    object,
  };
}

export async function loader(args: LoaderFunctionArgs) {
  const { api, identity } = await requireRoute(args);
  const user = await loadUser(api, args.params.id ?? "");
  let rows: SettingRow[] = [];
  let toast: ToastData | null = null;
  try {
    rows = (await settings.list(api, user.email)).map(toRow);
  } catch (error) {
    toast = failureToast(S.fetchFailed, error);
  }
  return json({ user: { id: user.id, email: user.email }, rows, toast, canWrite: can(identity.permissions, "users") });
}

type Reply = { rows: SettingRow[]; errors: RowErrors[]; toast: ToastData | null };
const reply = (body: Reply, status = 200) => json(body, { status });

export async function action(args: ActionFunctionArgs) {
  const { api } = await requirePermission(args, "users");
  const user = await loadUser(api, args.params.id ?? "");
  const form = await readForm(args.request);
  const rows = rowsFromForm(form);
  const intent = intentOf(form);

  if (intent === "add") return reply({ rows: [...rows, emptyRow()], errors: [], toast: null });

  if (intent.startsWith("remove.")) {
    const index = Number(intent.slice("remove.".length));
    const row = rows[index];
    if (!row) return reply({ rows, errors: [], toast: null }, 400);
    if (row.saved) {
      // Spec 1 §4: removing a saved row calls delete, then removes it.
      try {
        await settings.remove(api, user.email, row.key);
      } catch (error) {
        return reply({ rows, errors: [], toast: failureToast(S.deleteFailed, error) }, statusOf(error));
      }
    }
    const rest = rows.filter((_, i) => i !== index);
    return reply({ rows: rest, errors: [], toast: row.saved ? { type: "success", message: S.deleted } : null });
  }

  const errors = validateRows(rows);
  if (hasErrors(errors)) return reply({ rows, errors, toast: null }, 400);

  // Secured values left as the mask keep what is stored: read them here, on the server, never in the browser.
  let stored: UserSetting[] = [];
  try {
    stored = await settings.list(api, user.email);
  } catch (error) {
    return reply({ rows, errors, toast: failureToast(S.fetchFailed, error) }, statusOf(error));
  }
  try {
    for (const row of rows) {
      if (row.object) continue;
      const before = stored.find((s) => s.key === row.key);
      const value = row.saved && row.value === MASK && before?.secured ? before.value : row.value;
      await settings.put(api, { key: row.key, value, secured: row.secured, owner: user.email });
    }
  } catch (error) {
    const toast = failureToast(S.updateFailed, error);
    return reply({ rows, errors, toast: { ...toast, description: `${S.storeFailed} ${toast.description ?? ""}`.trim() } }, statusOf(error));
  }
  return toasts(args.context).redirectWithSuccess(`/people/${encodeURIComponent(user.id)}/user-settings`, S.updated);
}

export default function UserSettings() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const pending = navigation.state !== "idle";
  const serverRows = actionData?.rows ?? data.rows;
  const serverKey = JSON.stringify(serverRows);
  const [rows, setRows] = useState<SettingRow[]>(serverRows);
  const [touched, setTouched] = useState(false);
  useEffect(() => {
    setRows(JSON.parse(serverKey) as SettingRow[]);
    setTouched(false);
  }, [serverKey]);

  const live = validateRows(rows);
  // Server messages until the user edits; with JavaScript, duplicates show at once and the rest after a Save attempt.
  const errors: RowErrors[] = rows.map((_, i) => {
    if (!hydrated) return actionData?.errors[i] ?? {};
    const e = live[i] ?? {};
    const duplicate = e.key && e.key !== S.keyRequired ? { key: e.key } : {};
    return touched ? e : { ...(actionData?.errors[i] ?? {}), ...duplicate };
  });
  const blocked = hydrated && hasDuplicates(rows);
  const set = (i: number, patch: Partial<SettingRow>) => setRows((r) => r.map((row, j) => (j === i ? { ...row, ...patch } : row)));
  const disabled = !data.canWrite;

  return (
    <>
      <Toast toast={toastOf(actionData) ?? data.toast} />
      <div className="page-header">
        <div>
          <h1>{S.title}</h1>
          <p className="page-subtitle">{data.user.email}</p>
        </div>
      </div>
      <UserLinks id={data.user.id} />
      <Form
        method="post"
        className="form-card settings-form"
        onSubmit={(e) => {
          const submitter = (e.nativeEvent as SubmitEvent).submitter;
          const intent = submitter instanceof HTMLButtonElement ? submitter.value : "save";
          if (intent === "save" && hasErrors(validateRows(rows))) {
            e.preventDefault();
            setTouched(true);
          }
        }}
      >
        <input type="hidden" name="rows" value={rows.length} />
        {/* Enter in a field saves. */}
        <button type="submit" name="intent" value="save" className="default-submit" tabIndex={-1} aria-hidden="true" />
        {rows.length === 0 ? <p className="muted">{S.empty}</p> : null}
        <p id="settings-key-hint" className="field-hint">
          {S.keyHint}
        </p>
        <ul className="settings-rows">
          {rows.map((row, i) => {
            const e = errors[i] ?? {};
            const id = `setting-${i}`;
            return (
              <li key={`${i}-${row.saved ? row.key : "new"}`} className="settings-row">
                <input type="hidden" name={`saved.${i}`} value={row.saved ? "1" : ""} />
                <input type="hidden" name={`object.${i}`} value={row.object ? "1" : ""} />
                <div className="field">
                  <label htmlFor={`${id}-key`}>{S.key}</label>
                  <input
                    id={`${id}-key`}
                    name={`key.${i}`}
                    value={row.key}
                    readOnly={row.saved || disabled}
                    aria-readonly={row.saved || undefined}
                    className={row.saved ? "readonly" : undefined}
                    autoComplete="off"
                    spellCheck={false}
                    aria-invalid={e.key ? true : undefined}
                    aria-describedby={`settings-key-hint ${id}-key-errors`}
                    onChange={(ev) => set(i, { key: stripSettingKey(ev.currentTarget.value) })}
                  />
                  <div id={`${id}-key-errors`} className="field-errors" aria-live="polite">
                    {e.key ? <p className="field-error">{e.key}</p> : null}
                  </div>
                </div>
                <div className="field">
                  <label htmlFor={`${id}-value`}>{S.value}</label>
                  <input
                    id={`${id}-value`}
                    name={`value.${i}`}
                    type={row.secured && !row.object ? "password" : "text"}
                    value={row.value}
                    readOnly={row.object || disabled}
                    className={row.object ? "readonly" : undefined}
                    autoComplete={row.secured ? "new-password" : "off"}
                    spellCheck={false}
                    aria-invalid={e.value ? true : undefined}
                    aria-describedby={`${id}-value-errors`}
                    onChange={(ev) => set(i, { value: ev.currentTarget.value })}
                    onFocus={(ev) => {
                      if (row.saved && row.secured && row.value === MASK) ev.currentTarget.select();
                    }}
                  />
                  <div id={`${id}-value-errors`} className="field-errors" aria-live="polite">
                    {e.value ? <p className="field-error">{e.value}</p> : null}
                    {row.object ? <p className="field-hint">{S.objectValue}</p> : null}
                  </div>
                </div>
                <div className="field field-checkbox">
                  <label>
                    <input
                      type="checkbox"
                      name={`secured.${i}`}
                      checked={row.secured}
                      disabled={row.object || disabled}
                      onChange={(ev) => set(i, { secured: ev.currentTarget.checked })}
                    />
                    {S.secure}
                  </label>
                  {row.object && row.secured ? <input type="hidden" name={`secured.${i}`} value="on" /> : null}
                </div>
                {data.canWrite ? (
                  <button
                    type={hydrated && !row.saved ? "button" : "submit"}
                    name="intent"
                    value={`remove.${i}`}
                    formNoValidate
                    className="icon-button settings-remove"
                    aria-label={`${S.removeRow} ${row.key || `row ${i + 1}`}`}
                    title={S.removeRow}
                    onClick={hydrated && !row.saved ? () => setRows((r) => r.filter((_, j) => j !== i)) : undefined}
                  >
                    <Icon name="trash" />
                  </button>
                ) : null}
              </li>
            );
          })}
        </ul>
        <div className="form-actions">
          <Link to={`/people/${data.user.id}`} className="btn btn-secondary">
            {PEOPLE.back}
          </Link>
          {data.canWrite ? (
            <>
              <button
                type={hydrated ? "button" : "submit"}
                name="intent"
                value="add"
                formNoValidate
                className="btn btn-secondary"
                onClick={hydrated ? () => setRows((r) => [...r, emptyRow()]) : undefined}
              >
                <Icon name="plus" /> {S.addRow}
              </button>
              <button type="submit" name="intent" value="save" className="btn btn-primary" disabled={blocked || (hydrated && pending)}>
                {S.save}
              </button>
            </>
          ) : null}
        </div>
      </Form>
    </>
  );
}
