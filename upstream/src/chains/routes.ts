/**
 * /api/prompts (spec 3 §7 "Prompts and chains"): the resource kit's CRUD on the chains, each save a new version of
 * the versions kit, checked first (validate.ts); the history, the draft, the template check; and at /api/v2/nlp the
 * chat template and the variable selectors. Every endpoint checks prompts.read or prompts (prompts.write).
 */
import { Hono, type MiddlewareHandler } from "hono";
import { z } from "zod";
import {
  CHAIN_MESSAGES as M,
  DOC_CODES,
  SELECTORS,
  VARIABLE_DEFAULT_WHICH,
  problemText,
  type ChainProblem,
} from "../../contract/chains-constants";
import {
  ActivateVersion,
  ChainChat,
  ChainTemplate,
  ChainsResource,
  DraftActivate,
  DraftSave,
  HistoryUpdate,
  ValidateBody,
  type Chain,
  type ChainDocument,
  type ChainDraft,
  type HistoryEntry,
  type HistoryVersion,
  type EditorOptions,
  type ValidateAnswer,
  type VariableSelectors,
} from "../../contract/chains";
import { CONTENT_SOURCES, isVisionCapability } from "../../contract/ai-admin";
import { LIST_LIMITS, TEXT_LIMITS } from "../../contract/limits";
import { HistoryQuery, type RevisionSummary } from "../../contract/versions";
import { MODEL_PROVIDERS } from "../ai-admin/routes";
import type { AiAdmin } from "../ai-admin/service";
import { HttpError, jsonBody, notFound, requirePermission, validate, type AppContext, type AppEnv } from "../lib/http";
import { resourceRoutes, type ResourceStore } from "../lib/resource-routes";
import type { Draft } from "../versions/store";
import { withModelIds } from "./legacy-models";
import { normalizeTemplate, type ChainFilters, type ChainsStore, type StoredChain } from "./store";
import { chainProblems, type ModelRules } from "./validate";

const P = ChainsResource.permissions;

/** `?tags=a,b` / `?organizations=x,y`: absent filters nothing; each value bounded. */
const listParam = (max: number, each: number) =>
  z
    .string()
    .max(max * (each + 1))
    .optional()
    .transform((v) => (v === undefined ? undefined : v.split(",").map((s) => s.trim()).filter(Boolean)))
    .pipe(z.array(z.string().max(each)).max(max).optional());
const TagsParam = listParam(LIST_LIMITS.tags, TEXT_LIMITS.tag);
const OrganizationsParam = listParam(LIST_LIMITS.organizations, TEXT_LIMITS.id);

const VersionParam = z.coerce.number().int().min(1).max(1_000_000_000);

/** The 400 of a document with problems: the first as the message (what a plain client shows), all of them beside. */
function refuse(problems: ChainProblem[], doc: ChainDocument): never {
  const first = problems[0]!;
  const name = first.link === null ? undefined : doc.template.chain[first.link]?.name;
  throw new HttpError(400, `${M.invalid} ${problemText(first, name)}`, {}, { problems });
}

const settingsKeys = ["name", "isPublic", "isGeneric", "organizations", "categories", "tags", "description"] as const;

type Values = Partial<ChainDocument> & { comment?: string; baseVersion?: number };

/**
 * A chain's saves under the chains' rules, for `PATCH /api/prompts/{id}` and for every other screen that changes a
 * chain's fields (the library's settings form): the models the AI administration allows, the check of a document
 * (400 with its problems) and the update that is a new version of the versions kit.
 */
export function chainEdits(deps: { chains: ChainsStore; ai: AiAdmin }) {
  const { chains, ai } = deps;
  const { versions } = chains;
  const models: ModelRules = {
    exists: (id) => ai.models.get(id) !== null,
    allowedFor: (id, organizations) => organizations.length > 0 && organizations.every((o) => ai.permissions.modelsOf(o).includes(id)),
    vision: (id) => isVisionCapability(ai.models.get(id)?.capability ?? ""),
    image: (id) => ai.models.get(id)?.capability === "image-generation",
  };
  /** Refuses (400) a document with problems; answers it with its template normalized. */
  const checked = (doc: ChainDocument, rules: ModelRules = models): ChainDocument => {
    const normalized = { ...doc, template: normalizeTemplate(doc.template) };
    const problems = chainProblems(normalized, rules);
    if (problems.length) refuse(problems, normalized);
    return normalized;
  };
  /** The fields of `changes` as they are stored, once the whole chain they make has passed the checks (else 400). */
  const checkedChanges = (current: StoredChain, changes: Partial<ChainDocument>): Partial<ChainDocument> => {
    const doc = checked({ ...chains.documentOf(current), ...changes });
    return Object.fromEntries(Object.keys(changes).map((k) => [k, doc[k as keyof ChainDocument]]));
  };
  /** A new version with the (checked) fields of `values` changed; the settings among them go into the draft too. */
  const update = (id: string, values: Values, by: string | null): StoredChain | null =>
    chains.transaction(() => {
      const current = chains.get(id);
      if (!current) return null;
      const { comment, baseVersion, ...changes } = values;
      const doc = { ...chains.documentOf(current), ...changes };
      versions.commit(id, doc, { commitMessage: comment ?? "", baseRevision: baseVersion }, by);
      // Spec 3 §4.2: the settings changed here apply to the draft as well.
      const draft = versions.draft(id);
      const settings = Object.fromEntries(settingsKeys.filter((k) => changes[k] !== undefined).map((k) => [k, changes[k]]));
      if (draft && Object.keys(settings).length) versions.saveDraft(id, { ...draft.document, ...settings }, {}, by);
      return chains.get(id);
    });
  /** Checks and saves `values` in one transaction (the check reads the chain the version is made from); null: no chain. */
  const save = (id: string, values: Values, by: string | null): StoredChain | null =>
    chains.transaction(() => {
      const current = chains.get(id);
      if (!current) return null;
      const { comment, baseVersion, ...changes } = values;
      return update(id, { ...checkedChanges(current, changes), comment, baseVersion }, by);
    });
  return { chains, models, checked, checkedChanges, update, save };
}

export type ChainEdits = ReturnType<typeof chainEdits>;

export function chainRoutes(deps: {
  edits: ChainEdits;
  ai: AiAdmin;
  requireAuth: MiddlewareHandler<AppEnv>;
  /** The model ids by deployment name (legacy-models.ts), read lazily: a new lookup per answer. */
  deployments: () => () => ReadonlyMap<string, string>;
}) {
  const { edits, ai, requireAuth, deployments } = deps;
  const { chains, models, checked, checkedChanges } = edits;
  const { versions } = chains;
  /** A document as answered: old links' deployment names read as model ids (spec 3 §4.2). */
  const readable = <D extends { template: ChainTemplate }>(doc: D): D => {
    const template = withModelIds(doc.template, models.exists, deployments());
    return template === doc.template ? doc : { ...doc, template };
  };
  const actor = (c: AppContext) => c.get("actor").email;
  const can = (permission: typeof P.read | typeof P.write) => [requireAuth, requirePermission(permission)] as const;
  const existing = (id: string): StoredChain => {
    const c = chains.get(id);
    if (!c) throw notFound(M.notFound);
    return c;
  };
  const answer = (c: StoredChain): Chain => {
    const { revision, ...rest } = c;
    return readable({ ...rest, version: revision, isActive: true, hasDraft: versions.draft(c.id) !== null });
  };
  const historyEntry = (id: string, r: RevisionSummary): HistoryEntry => ({
    id: String(r.revision),
    libraryItemId: id,
    version: r.revision,
    comment: r.commitMessage,
    isActive: r.current,
    author: r.author,
    createdAt: r.createdAt,
    updatedAt: r.createdAt,
    activatedFrom: r.activatedFrom,
  });
  const draftAnswer = (d: Draft<ChainDocument>): ChainDraft => ({
    id: d.id,
    libraryItemId: d.documentId,
    version: d.version,
    baseVersion: d.baseRevision,
    data: readable(d.document),
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
    createdBy: d.createdBy,
    updatedBy: d.updatedBy,
  });

  /** The kit's verbs on the versioned store: a create is version 1, an update a new version, a delete forgets them. */
  const store: ResourceStore<StoredChain, Values, ChainFilters> = {
    list: (query, filters) => chains.list(query, filters),
    get: (id) => chains.get(id),
    create: (values, by) => {
      const { comment, baseVersion: _b, ...doc } = values;
      return chains.createVersioned(doc as ChainDocument, comment ?? "", by);
    },
    update: edits.update,
    remove: (id) => chains.removeVersioned(id),
  };

  return resourceRoutes(ChainsResource, store, {
    requireAuth,
    hooks: {
      toItem: answer,
      filters: (c) => ({ tags: validate(TagsParam, c.req.query("tags")), organizations: validate(OrganizationsParam, c.req.query("organizations")) }),
      beforeCreate: (input) => {
        const { comment, ...doc } = input;
        return { ...checked(doc), comment };
      },
      beforeUpdate: (input, _c, current) => {
        const { comment, baseVersion, ...changes } = input;
        return { ...checkedChanges(current, changes), comment, baseVersion };
      },
      routes: (app) => {
        app.get("/tags", ...can(P.read), (c) => c.json(chains.tagsInUse()));
        // The chain editor's choices (spec 3 §2.9): the models every organization given allows (none without an
        // organization, as a save checks), and the content sources of the configuration lists.
        app.get("/editor-options", ...can(P.read), (c) => {
          const organizations = validate(OrganizationsParam, c.req.query("organizations")) ?? [];
          const allowed = organizations.length ? ai.permissions.modelsOf(organizations[0]!).filter((id) => models.allowedFor(id, organizations)) : [];
          const choices = allowed.flatMap((id) => {
            const m = ai.models.get(id);
            if (!m) return [];
            const functions = MODEL_PROVIDERS.find((p) => p.name === m.provider)?.functions.map((f) => f.name) ?? [];
            const params = m.params.map((p) => ({ name: p.name, default: p.default, options: p.options }));
            return [{ id: m.id, name: m.name, vision: isVisionCapability(m.capability), image: m.capability === "image-generation", params, functions }];
          });
          return c.json({ models: choices.sort((a, b) => a.name.localeCompare(b.name)), contentSources: [...CONTENT_SOURCES] } satisfies EditorOptions);
        });
        // Import (spec 3 §5): every problem of a pasted template as one message; models are checked on save, when
        // the chain's organizations are known.
        app.post("/template/validate", ...can(P.read), async (c) => {
          const { template } = await jsonBody(c, ValidateBody);
          const parsed = ChainTemplate.safeParse(template);
          if (!parsed.success) {
            const messages = parsed.error.issues.slice(0, 50).map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message));
            return c.json({ messages } satisfies ValidateAnswer);
          }
          const doc: ChainDocument = { name: "import", isPublic: false, isGeneric: false, organizations: [], categories: [], tags: [], description: "", template: normalizeTemplate(parsed.data) };
          const problems = chainProblems(doc, { ...models, allowedFor: () => true });
          const messages = problems.map((p) => problemText(p, p.link === null ? undefined : doc.template.chain[p.link]?.name));
          return c.json({ messages } satisfies ValidateAnswer);
        });
        app.get("/:id/history", ...can(P.read), (c) => {
          const id = c.req.param("id");
          existing(id);
          const query = validate(HistoryQuery, c.req.query());
          return c.json(versions.history(id, query).map((r) => historyEntry(id, r)));
        });
        app.post("/:id/history/activate", ...can(P.write), async (c) => {
          const id = c.req.param("id");
          const body = await jsonBody(c, ActivateVersion);
          const current = existing(id);
          if (body.version === current.revision) throw new HttpError(409, M.alreadyActive);
          const old = versions.revision(id, body.version);
          if (!old) throw notFound(M.historyNotFound);
          checked(old.document);
          versions.activateRevision(id, body.version, { baseRevision: body.baseVersion, commitMessage: body.comment }, actor(c));
          return c.json(answer(existing(id)));
        });
        app.get("/:id/history/:version", ...can(P.read), (c) => {
          const id = c.req.param("id");
          existing(id);
          const n = validate(VersionParam, c.req.param("version"));
          const r = versions.revision(id, n);
          if (!r) throw notFound(M.historyNotFound);
          const current = chains.get(id)?.revision ?? 0;
          return c.json({ ...historyEntry(id, { ...r, current: r.revision === current }), data: readable(r.document) } satisfies HistoryVersion);
        });
        // Spec 3 §7 PATCH/DELETE /history/{id}: a version's comment is metadata and may change; its content never
        // does. A version other than the active one may be deleted (the versions kit refuses the active one, 409).
        app.patch("/:id/history/:version", ...can(P.write), async (c) => {
          const id = c.req.param("id");
          existing(id);
          const n = validate(VersionParam, c.req.param("version"));
          const { comment } = await jsonBody(c, HistoryUpdate);
          const r = versions.editMessage(id, n, comment);
          if (!r) throw notFound(M.historyNotFound);
          return c.json(historyEntry(id, { ...r, current: r.revision === existing(id).revision }));
        });
        app.delete("/:id/history/:version", ...can(P.write), (c) => {
          const id = c.req.param("id");
          existing(id);
          if (!versions.removeRevision(id, validate(VersionParam, c.req.param("version")))) throw notFound(M.historyNotFound);
          return c.body(null, 204);
        });
        app.get("/:id/draft", ...can(P.read), (c) => {
          const id = c.req.param("id");
          existing(id);
          const d = versions.draft(id);
          if (!d) throw notFound(M.draftNotFound);
          return c.json(draftAnswer(d));
        });
        app.patch("/:id/draft", ...can(P.write), async (c) => {
          const id = c.req.param("id");
          const body = await jsonBody(c, DraftSave);
          existing(id);
          const d = versions.saveDraft(id, checked(body.data), { baseVersion: body.baseVersion }, actor(c));
          return c.json(draftAnswer(d));
        });
        app.delete("/:id/draft", ...can(P.write), (c) => {
          const id = c.req.param("id");
          existing(id);
          const base = c.req.query("baseVersion");
          if (!versions.discardDraft(id, { baseVersion: base === undefined ? undefined : validate(z.coerce.number().int().min(0), base) })) {
            throw notFound(M.draftNotFound);
          }
          return c.body(null, 204);
        });
        app.post("/:id/draft/activate", ...can(P.write), async (c) => {
          const id = c.req.param("id");
          const body = await jsonBody(c, DraftActivate);
          existing(id);
          const d = versions.draft(id);
          if (!d) throw notFound(M.draftNotFound);
          const doc = checked(d.document);
          versions.commit(id, doc, { commitMessage: body.comment ?? "", baseRevision: body.baseVersion, draftVersion: body.draftVersion ?? d.version }, actor(c));
          return c.json(answer(existing(id)));
        });
      },
    },
  });
}

/** A chain's chat, or a new one (spec 3 §3 Chat defaults) for id 'unset' or a chain without a chat. */
const NEW_CHAT = ChainChat.parse({ type: "chat", messages: [] });

/** /api/v2/nlp: the chat template of a chain and the form variables' selectors (spec 3 §7). */
export function chainNlpRoutes(deps: { chains: ChainsStore; requireAuth: MiddlewareHandler<AppEnv> }) {
  const { chains, requireAuth } = deps;
  const app = new Hono<AppEnv>();
  app.get("/chat/template/:id", requireAuth, requirePermission(P.read), (c) => {
    const id = c.req.param("id");
    if (id === "unset") return c.json(NEW_CHAT);
    const chain = chains.get(id);
    if (!chain) throw notFound(M.notFound);
    return c.json(chain.template.chat ?? NEW_CHAT);
  });
  app.get("/chains/variables/selectors", requireAuth, requirePermission(P.read), (c) =>
    c.json({ docCodes: [...DOC_CODES], selectors: [...SELECTORS], defaults: [...VARIABLE_DEFAULT_WHICH] } satisfies VariableSelectors),
  );
  return app;
}


