import { can, type Permission } from "@contract/permissions";
import type { IconName } from "~/ui/icons";

/**
 * Every screen of the back office and the permission it needs (spec 1 §2). The side navigation and the route guards
 * both read this table. A screen is listed here once it exists; entries with `nav` show in the side navigation, in
 * this order, to users holding the permission (null: everyone signed in).
 */
export type RouteEntry = {
  path: `/${string}`;
  /** What showing the screen needs (null: everyone signed in). */
  permission: Permission | null;
  /** What changing it needs (its action's posts): `requireWrite` checks it, `requireRoute` answers `may.write`. */
  write?: Permission;
  /** What adding a record needs (a list's "+ add new" link): `requireRoute` answers `may.create`. */
  create?: Permission;
  nav?: { label: string; icon: IconName };
};

export const ROUTES: readonly RouteEntry[] = [
  { path: "/", permission: null, nav: { label: "Overview", icon: "home" } },
  // Portfolio (spec 2 §2, §6): searching needs portfolio.read; tags, fields, New Application and CSV import
  // need the `portfolio` permission (read and write), which the upstream checks again.
  {
    path: "/portfolio",
    permission: "portfolio.read",
    write: "portfolio",
    create: "portfolio",
    nav: { label: "Portfolio", icon: "portfolio" },
  },
  { path: "/portfolio/add", permission: "portfolio", write: "portfolio" },
  { path: "/portfolio/csv", permission: "portfolio.read" },
  // One application, every field (reached from its result).
  { path: "/portfolio/:id", permission: "portfolio.read" },
  { path: "/portfolio/import", permission: "portfolio", write: "portfolio" },
  { path: "/portfolio/import/sample.csv", permission: "portfolio" },
  { path: "/portfolio/import/:job/rejected.csv", permission: "portfolio" },
  // Categorization (spec 2 §2, §6): viewing and running need portfolio.read; saving, creating, deleting and
  // the tagging jobs need the `portfolio` permission (read and write), which the upstream checks again. Its resource
  // routes (/categorization/csv, /jobs, /suggest) answer a plain 404 without this entry's permission.
  {
    path: "/categorization",
    permission: "portfolio.read",
    write: "portfolio",
    nav: { label: "Categorization", icon: "tag" },
  },

  { path: "/people", permission: "users.read", nav: { label: "People", icon: "people" } },
  { path: "/people/new", permission: "users" },
  { path: "/people/:id", permission: "users.read" },
  { path: "/people/:id/change-password", permission: "users.read" },
  { path: "/people/:id/permissions", permission: "users.read" },
  { path: "/people/:id/authorization", permission: "users.read" },
  { path: "/people/:id/user-settings", permission: "users.read" },
  // Teams: "+ add new" and the edit pencil need users.write (spec 1 §2).
  {
    path: "/teams",
    permission: "users.read",
    write: "users",
    create: "users",
    nav: { label: "Teams", icon: "teams" },
  },
  { path: "/teams/new", permission: "users", write: "users" },
  { path: "/teams/:id", permission: "users.read", write: "users" },
  // Organizations: list and edit with organizations.read (fields and Delete need organizations.write), create with
  // the exact `organizations` permission (upstream/README.md, Organizations).
  {
    path: "/organizations",
    permission: "organizations.read",
    create: "organizations",
    nav: { label: "Organizations", icon: "building" },
  },
  { path: "/organizations/new", permission: "organizations", write: "organizations" },
  { path: "/organizations/:id/edit", permission: "organizations.read", write: "organizations" },
  {
    path: "/specifications",
    permission: "specifications.read",
    create: "specifications",
    nav: { label: "Specifications", icon: "document" },
  },
  { path: "/specifications/create", permission: "specifications", write: "specifications" },
  { path: "/specifications/:id", permission: "specifications.read", write: "specifications" },
  { path: "/specifications/:id/edit", permission: "specifications.read", write: "specifications" },
  // Prompt chains (spec 3 §2.8, §2.9, §6): prompts.read lists and shows them; `prompts` (prompts.write) creates,
  // saves and deletes. Spec 1 §2 lists 'Content Chains' after specifications for everyone; here only for those who
  // may open it (else a 404), as for /applications.
  { path: "/chains", permission: "prompts.read", write: "prompts", create: "prompts", nav: { label: "Content Chains", icon: "play" } },
  { path: "/chains/create", permission: "prompts", write: "prompts" },
  { path: "/chains/:id", permission: "prompts.read", write: "prompts" },
  { path: "/chains/:id/edit", permission: "prompts.read", write: "prompts" },
  // The Context tab's posts: each user keeps their own context of a chain they may open.
  { path: "/chains/:id/context", permission: "prompts.read" },
  // Runs (docs/decisions/chain-runs.md): a reader may run a chain; a run's page, its posts and its events are its starter's.
  { path: "/chains/:id/runs", permission: "prompts.read" },
  { path: "/chains/:id/runs/:run", permission: "prompts.read" },
  { path: "/chains/:id/runs/:run/events", permission: "prompts.read" },
  // A chain's versions (spec 3 §2.9 toolbar, §4.2): export and compare read; import, activate, discard write.
  { path: "/chains/:id/export", permission: "prompts.read" },
  { path: "/chains/:id/export/download", permission: "prompts.read" },
  { path: "/chains/:id/import", permission: "prompts", write: "prompts" },
  { path: "/chains/:id/compare", permission: "prompts.read" },
  { path: "/chains/:id/versions/:version", permission: "prompts.read", write: "prompts" },
  // Rules, messages, applications, e-mail connector (spec 2 §2, §6; nav order of spec 1 §2).
  // Rules (docs/decisions/docketing-rules.md): templates.read lists and shows; `templates` creates, clones, edits
  // and deletes, as for the Word and Visio templates.
  { path: "/rules", permission: "templates.read", write: "templates", create: "templates", nav: { label: "Rules", icon: "calendar" } },
  { path: "/rules/create", permission: "templates", write: "templates" },
  { path: "/rules/:id/edit", permission: "templates.read", write: "templates" },
  // Templates and forms (spec 2 §2, §6; nav in spec 1 §2's order: forms, Word, Visio, shapes, drawings). Their file
  // downloads are resource routes checked with the resource's read permission (fileLoader in
  // kit/resource-routes.server.ts).
  { path: "/forms", permission: "forms.read", create: "forms", nav: { label: "Forms", icon: "form" } },
  { path: "/forms/create", permission: "forms", write: "forms" },
  { path: "/forms/:id/edit", permission: "forms.read", write: "forms" },
  {
    path: "/documents/word",
    permission: "templates.read",
    create: "templates",
    nav: { label: "Word templates", icon: "word" },
  },
  { path: "/documents/word/create", permission: "templates", write: "templates" },
  { path: "/documents/word/:id/edit", permission: "templates.read", write: "templates" },
  {
    path: "/documents/visio",
    permission: "templates.read",
    create: "templates",
    nav: { label: "Visio templates", icon: "visio" },
  },
  { path: "/documents/visio/create", permission: "templates", write: "templates" },
  { path: "/documents/visio/:id/edit", permission: "templates.read", write: "templates" },
  { path: "/shapes", permission: "templates.read", nav: { label: "Shapes", icon: "shapes" } },
  { path: "/shapes/:id/edit", permission: "templates.read", write: "templates" },
  {
    path: "/drawings",
    permission: "templates.read",
    create: "templates",
    nav: { label: "Drawings", icon: "drawing" },
  },
  { path: "/drawings/create", permission: "templates", write: "templates" },
  { path: "/drawings/:id/edit", permission: "templates.read", write: "templates" },
  // Messages: messages.read lists and shows; `messages` creates, clones (the list's action), edits and deletes.
  {
    path: "/messages",
    permission: "messages.read",
    write: "messages",
    create: "messages",
    nav: { label: "Messages", icon: "mail" },
  },
  { path: "/messages/create", permission: "messages", write: "messages" },
  { path: "/messages/:id/edit", permission: "messages.read", write: "messages" },
  // Reports (docs/decisions/reports.md): spec 2 shows no check; forms.read lists and shows, `forms` saves. Built-in
  // records, no create; spec 1 §2's side navigation has no entry for them.
  { path: "/reports", permission: "forms.read" },
  { path: "/reports/:id/edit", permission: "forms.read", write: "forms" },
  // Queue dashboards (spec 1 §2 order: /uspto, /fip, /processing). Writes: spec 2 §6.
  { path: "/uspto", permission: "uspto.read", write: "uspto", nav: { label: "USPTO", icon: "download" } },
  { path: "/uspto/configuration", permission: "uspto.read", write: "uspto" },
  { path: "/fip", permission: "docketing_tasks.read", write: "docketing_tasks", nav: { label: "FIP", icon: "sync" } },
  // The docket (spec 3 §2.1, docs/decisions/docket-screen.md): docketing_tasks.read shows it and lets a task's
  // assignees complete it; the upstream lets a holder of docketing_tasks complete anyone's.
  { path: "/milestones", permission: "docketing_tasks.read", nav: { label: "Milestones", icon: "calendar" } },
  { path: "/milestones/:id", permission: "docketing_tasks.read" },
  { path: "/processing", permission: "portfolio.read", write: "portfolio", nav: { label: "Portfolio dashboard", icon: "chart" } },
  // Applications (spec 2 §2, docs/decisions/application-crawler.md): applications.read shows the Application
  // Crawler's card and downloads its installer; `administration` uploads or removes the installer.
  {
    path: "/applications",
    permission: "applications.read",
    write: "administration",
    nav: { label: "Applications", icon: "desktop" },
  },
  { path: "/applications/installer", permission: "applications.read" },
  // The e-mail connector's maintenance settings: administration.read shows, administration saves (spec 2 §2, §6).
  {
    path: "/emails-connector",
    permission: "administration.read",
    write: "administration",
    nav: { label: "E-mail connector", icon: "inbox" },
  },
  // AI administration (spec 3 §2.1, §2.10, §6; docs/decisions/ai-administration.md), after the e-mail connector as in
  // spec 1 §2: administration.read shows the landing; the model and speech-to-text service pages show their config, so
  // they need `administration` itself.
  {
    path: "/administration",
    permission: "administration.read",
    write: "administration",
    create: "administration",
    nav: { label: "Administration", icon: "settings" },
  },
  { path: "/models", permission: "administration", write: "administration" },
  { path: "/models/:id", permission: "administration", write: "administration" },
  { path: "/sttservices", permission: "administration", write: "administration" },
  { path: "/sttservices/:id", permission: "administration", write: "administration" },
  // The template-storage backup (spec 2 §7): export with administration.read, import with administration.
  {
    path: "/administration/template-storage",
    permission: "administration.read",
    write: "administration",
    nav: { label: "Template backup", icon: "archive" },
  },
  // Workflows (spec 3 §2.1–2.4, §6): workflows.read shows the list, a workflow's templates, its edit page and its export;
  // `workflows` creates, imports, clones, makes default, deletes, saves, activates and deactivates templates and
  // creates them with the wizard (the child of the template list). Spec 1 §2 puts the entry after administration.
  {
    path: "/workflows",
    permission: "workflows.read",
    write: "workflows",
    create: "workflows",
    nav: { label: "Workflows", icon: "workflow" },
  },
  { path: "/workflows/new", permission: "workflows", write: "workflows" },
  { path: "/workflows/:id/edit", permission: "workflows.read", write: "workflows" },
  { path: "/workflows/:id/export", permission: "workflows.read" },
  { path: "/workflows/:id", permission: "workflows.read", write: "workflows", create: "workflows" },
  { path: "/workflows/:id/milestones", permission: "workflows.read", write: "workflows", create: "workflows" },
  { path: "/workflows/:id/milestones/new", permission: "workflows", write: "workflows" },
  // The template editor (spec 3 §2.6): workflows.read shows it (Export too); `workflows` saves, activates, deletes.
  { path: "/workflows/:id/milestones/:milestoneId", permission: "workflows.read", write: "workflows" },
  { path: "/workflows/:id/milestones/:milestoneId/export", permission: "workflows.read" },
  // A template's revision preview (spec 3 §2.6): workflows.read shows it; Activate needs `workflows`.
  { path: "/workflows/:id/milestones/:milestoneId/revisions/:revision", permission: "workflows.read", write: "workflows" },
  // The current template compared with its draft or a revision (spec 3 §2.6 compare mode): a read.
  { path: "/workflows/:id/milestones/:milestoneId/compare", permission: "workflows.read" },
  // The library (spec 3 §2.7, §6): everyone signed in sees it (each item type by its own read permission, upstream);
  // prompts.write edits categories and item settings. A drawing's download needs templates.read.
  { path: "/library", permission: null, write: "prompts", create: "prompts", nav: { label: "Library", icon: "archive" } },
  { path: "/library/drawings/:id/download", permission: "templates.read" },
  { path: "/library/categories", permission: null },
  // Rebuilding the portfolio's search index (spec 2 §7 POST /api/applications/reindex): the `portfolio` permission.
  // Not in the side navigation (spec 1 §2 lists its entries): the portfolio page links it for those who hold it.
  { path: "/portfolio/reindex", permission: "portfolio", write: "portfolio" },
];

type Compiled = { entry: RouteEntry; parts: string[]; statics: number };

const compiled: Compiled[] = ROUTES.map((entry) => {
  const parts = entry.path.split("/").filter(Boolean);
  return { entry, parts, statics: parts.filter((p) => !p.startsWith(":")).length };
}).sort((a, b) => b.statics - a.statics);

/** The table entry serving `pathname`, static segments winning over parameters ("/people/new" over "/people/:id"). */
export function matchRoute(pathname: string): RouteEntry | undefined {
  const segments = pathname.split("/").filter(Boolean);
  return compiled.find(
    ({ parts }) =>
      parts.length === segments.length && parts.every((p, i) => p.startsWith(":") || p === segments[i]),
  )?.entry;
}

export type NavEntry = { path: `/${string}`; label: string; icon: IconName };

/** The side navigation for someone holding `permissions`. */
export function navigationFor(permissions: readonly string[]): NavEntry[] {
  return ROUTES.flatMap((r) =>
    r.nav && (r.permission === null || can(permissions, r.permission))
      ? [{ path: r.path, label: r.nav.label, icon: r.nav.icon }]
      : [],
  );
}
