import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { PermissionCatalogue, TokenAnswer } from "@contract/auth";
import { can } from "@contract/permissions";
import { requirePermission, requireRoute } from "~/auth/guard.server";
import { commitToken } from "~/auth/session.server";
import { failed, failureToast, statusOf } from "~/lib/actions.server";
import { toasts } from "~/lib/toast.server";
import type { Api } from "~/lib/upstream.server";
import { loadUser } from "~/people/load.server";
import { grantOf, permissionsOf, resolveGrant, toggle, type Grant } from "~/people/permissions";
import { PEOPLE } from "~/people/texts";
import { UserLinks } from "~/people/UserLinks";
import { users } from "~/people/users.server";
import { FormError } from "~/ui/fields";
import { useHydrated } from "~/ui/hydrated";
import { Toast, toastOf } from "~/ui/toast";
import { readForm } from "~/lib/form.server";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export const meta: MetaFunction = () => [{ title: "Permissions · Backoffice" }];

const P = PEOPLE.permissions;
const catalogue = (api: Api) => api.get(PermissionCatalogue, "/api/auth/permissions/list");

export async function loader(args: LoaderFunctionArgs) {
  const { api, identity } = await requireRoute(args);
  const [user, keys] = await Promise.all([loadUser(api, args.params.id ?? ""), catalogue(api)]);
  return json({
    user: { id: user.id, email: user.email },
    grants: keys.map((key) => ({ key, grant: grantOf(user.permissions, key) })),
    canWrite: can(identity.permissions, "users"),
  });
}

export async function action(args: ActionFunctionArgs) {
  const { api, identity, token } = await requirePermission(args, "users");
  const id = args.params.id ?? "";
  const form = await readForm(args.request);
  const keys = await catalogue(api);
  const write = new Set(form.getAll("write").map(String));
  const read = new Set(form.getAll("read").map(String));
  // Every permission's previous state travels with the form; a post without them is not from this form (a stale
  // page, or a forged one) and must not strip permissions by omission.
  const previous = keys.map((key) => form.get(`was.${key}`));
  if (!previous.every((v): v is Grant => v === "none" || v === "read" || v === "write")) {
    return json({ formErrors: [P.incomplete] }, { status: 400 });
  }
  const grants = keys.map((key, i) => [key, resolveGrant(previous[i]!, write.has(key), read.has(key))] as const);
  try {
    await users.update(api, { id, permissions: permissionsOf(grants) });
  } catch (error) {
    return failed({ formErrors: [P.failed] }, failureToast(P.failedTitle, error), statusOf(error));
  }
  const url = `/people/${encodeURIComponent(id)}/permissions`;
  if (id !== identity.id) return toasts(args.context).redirectWithSuccess(url, P.saved);
  // Your own permissions: take effect at once. The session gets a fresh token carrying them (spec 1 §4: saving one's
  // own permissions reloads the page), so the navigation and the guards follow on the very next page.
  const fresh = await api.post(TokenAnswer, "/api/auth/refresh", { token });
  const cookie = await commitToken(args.request, args.context, fresh.token);
  return toasts(args.context).redirectWithSuccess(url, P.saved, { headers: { "Set-Cookie": cookie } });
}

export default function Permissions() {
  const { user, grants, canWrite } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const pending = navigation.state !== "idle";
  const initial = JSON.stringify(grants);
  const [state, setState] = useState<Record<string, Grant>>(() => Object.fromEntries(grants.map((g) => [g.key, g.grant])));
  useEffect(() => {
    const list = JSON.parse(initial) as typeof grants;
    setState(Object.fromEntries(list.map((g) => [g.key, g.grant])));
  }, [initial]);
  const errors = actionData && "formErrors" in actionData ? actionData.formErrors : undefined;

  return (
    <>
      <Toast toast={toastOf(actionData)} />
      <div className="page-header">
        <div>
          <h1>{P.title}</h1>
          <p className="page-subtitle">{user.email}</p>
        </div>
      </div>
      <UserLinks id={user.id} />
      <Form method="post" className="form-card">
        <table className="data-table permissions-table">
          <caption className="visually-hidden">{P.title}</caption>
          <thead>
            <tr>
              <th scope="col">{P.key}</th>
              <th scope="col">{P.write}</th>
              <th scope="col">{P.read}</th>
            </tr>
          </thead>
          <tbody>
            {grants.map(({ key, grant }) => {
              // Without JavaScript, both boxes may be ticked before Save; the action resolves them (resolveGrant).
              const current = state[key] ?? grant;
              const box = (which: "read" | "write") => (
                <input
                  type="checkbox"
                  name={which}
                  value={key}
                  aria-label={`${key}: ${which === "write" ? P.write : P.read}`}
                  disabled={!canWrite}
                  checked={current === which}
                  onChange={() => setState((s) => ({ ...s, [key]: toggle(s[key] ?? "none", which) }))}
                />
              );
              return (
                <tr key={key}>
                  <th scope="row">
                    <code>{key}</code>
                    <input type="hidden" name={`was.${key}`} value={current} />
                  </th>
                  <td>{box("write")}</td>
                  <td>{box("read")}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
        {!canWrite ? <p className="muted">{PEOPLE.readOnlyNote}</p> : null}
        <FormError id="permissions-error" errors={errors} />
        <div className="form-actions">
          <Link to={`/people/${user.id}`} className="btn btn-secondary">
            {PEOPLE.back}
          </Link>
          {canWrite ? (
            <button type="submit" className="btn btn-primary" disabled={hydrated && pending}>
              {P.save}
            </button>
          ) : null}
        </div>
      </Form>
    </>
  );
}
