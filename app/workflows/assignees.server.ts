import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { can } from "@contract/permissions";
import { ASSIGNEE_SUGGEST_PERMISSIONS, AssigneeSuggestions } from "@contract/people";
import { notFound, requireUser } from "~/auth/guard.server";
import type { Api } from "~/lib/upstream.server";

/** GET /api/user-suggest/assignees?q= (spec 3 §7): the people whose e-mail or name contains q, name and e-mail. */
export const suggestAssignees = (api: Api, q: string) => api.get(AssigneeSuggestions, "/api/user-suggest/assignees", { q });

/**
 * GET /workflows/assignees?q= — the people an assignee field may name, each `{ value: e-mail, label: name }` as
 * suggestion fields read it (app/ui/suggestions.ts; [] for empty text): the wizard's assignees, a task form's people
 * fields and the docket's assignee filter.
 * Whoever assigns docket work may ask (ASSIGNEE_SUGGEST_PERMISSIONS); anyone else gets the not-found answer, as for
 * every route they may not use.
 */
export async function assigneeSuggestLoader(args: LoaderFunctionArgs) {
  const { api, identity } = await requireUser(args);
  if (!ASSIGNEE_SUGGEST_PERMISSIONS.some((p) => can(identity.permissions, p))) throw notFound();
  const q = (new URL(args.request.url).searchParams.get("q") ?? "").trim();
  const people = q ? await suggestAssignees(api, q) : [];
  return json(
    people.map((p) => ({ value: p.email, label: p.name.trim() || p.email })),
    { headers: { "Cache-Control": "no-store" } },
  );
}
