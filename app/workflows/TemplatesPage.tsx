import { Link, Outlet, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { ConfirmAction } from "~/ui/confirm";
import { isConfirming } from "~/ui/editor";
import { Icon } from "~/ui/icons";
import { Stamp, tagsCell } from "~/ui/list";
import { Toast, toastOf } from "~/ui/toast";
import { DIALOG_PARAMS, pageAddress } from "./addresses";
import { ImportDialog } from "./ImportDialog";
import type { TemplateCardData, templatesAction, templatesLoader } from "./templates.server";
import { TEMPLATES } from "./texts";

const T = TEMPLATES;

/** Whether the confirmed Activate / Suspend of template `id` is in flight (the card is pending until it ends). */
function useTogglePending(id: string): boolean {
  const navigation = useNavigation();
  const form = navigation.formData;
  return navigation.state !== "idle" && form?.get("intent") === "toggle" && form.get("confirmed") === "yes" && form.get("template") === id;
}

/**
 * Activate / Suspend of a template card (spec 3 §4.1): a confirmation first ('Activate template' / 'Deactivate
 * template'); while the confirmed post is in flight the card is pending, and a failure clears it (the navigation ends).
 */
function Toggle({ card, actionData }: { card: TemplateCardData; actionData: unknown }) {
  const pending = useTogglePending(card.id);
  const to = card.active ? "deactivate" : "activate";
  const texts = card.active ? T.confirmDeactivate : T.confirmActivate;
  const action = card.active ? T.suspend : T.activate;
  return (
    <ConfirmAction
      id={`toggle-${card.id}`}
      intent="toggle"
      label={
        <>
          <Icon name={card.active ? "pause" : "play"} /> {pending ? (card.active ? T.suspending : T.activating) : action}
        </>
      }
      title={texts.title}
      message={texts.message(card.title)}
      confirmLabel={texts.confirm}
      confirming={isConfirming(actionData, "toggle") && (actionData as { template?: unknown }).template === card.id}
      danger={false}
      fields={{ template: card.id, to }}
      ariaLabel={T.toggleOn(action, card.title)}
      buttonClassName="btn btn-secondary btn-small"
    />
  );
}

/**
 * One template (spec 3 §2.3): its title linking to the template editor, labels, creation event, uniqueness, tags, last
 * change; the toggle unless a draft.
 */
function TemplateCardView({ card, canWrite, actionData }: { card: TemplateCardData; canWrite: boolean; actionData: unknown }) {
  const pending = useTogglePending(card.id);
  const headingId = `template-${card.id}-title`;
  return (
    <li className={pending ? "template-card pending" : "template-card"} aria-labelledby={headingId} aria-busy={pending || undefined}>
      <div className="template-card-head">
        <h3 id={headingId}>
          <Link to={card.editor}>{card.title}</Link>
        </h3>
        <span className="template-labels">
          {card.isDraft ? <span className="badge badge-draft">{T.draft}</span> : null}
          {card.hasDraft ? <span className="badge badge-pending">{T.pendingChanges}</span> : null}
        </span>
      </div>
      <dl className="template-facts">
        <div>
          <dt>{T.creationEvent}</dt>
          <dd>{card.event ?? T.noEvent}</dd>
        </div>
        <div>
          <dt>{T.uniqueness}</dt>
          <dd>{card.uniqueness}</dd>
        </div>
        <div>
          <dt>{T.updated}</dt>
          <dd>
            <Stamp at={card.updatedAt} by={card.updatedBy} />
          </dd>
        </div>
      </dl>
      {card.tags.length ? tagsCell(card.tags) : null}
      {canWrite && !card.isDraft ? (
        <div className="template-card-actions">
          <Toggle card={card} actionData={actionData} />
        </div>
      ) : null}
    </li>
  );
}

function Group({
  id,
  title,
  cards,
  empty,
  canWrite,
  actionData,
}: {
  id: string;
  title: string;
  cards: TemplateCardData[];
  empty: string;
  canWrite: boolean;
  actionData: unknown;
}) {
  return (
    <section className="template-group" aria-labelledby={id}>
      <h2 id={id}>
        {title} <span className="muted">({cards.length})</span>
      </h2>
      {cards.length ? (
        <ul className="template-cards">
          {cards.map((c) => (
            <TemplateCardView key={c.id} card={c} canWrite={canWrite} actionData={actionData} />
          ))}
        </ul>
      ) : (
        <p className="empty-state">{empty}</p>
      )}
    </section>
  );
}

/**
 * A workflow's milestone templates (spec 3 §2.3), the page of both `/workflows/{id}` and `/workflows/{id}/milestones`:
 * BACK, the title, '+ New' (the creation wizard, a child route shown over this page) and Import, then the templates
 * by title in the active and the inactive group.
 */
export function TemplatesPage() {
  const data = useLoaderData<typeof templatesLoader>();
  const actionData = useActionData<typeof templatesAction>();
  const location = useLocation();
  const canWrite = data.may.write;
  const none = data.active.length === 0 && data.inactive.length === 0;
  const base = `/workflows/${data.workflow.id}`;
  // This page under the wizard (its child route) still links to its own address, not the wizard's.
  const listPath = location.pathname.startsWith(`${base}/milestones`) ? `${base}/milestones` : base;
  const params = new URLSearchParams(location.search);
  const closeTo = pageAddress(listPath, params);
  params.set(DIALOG_PARAMS.import, "1");
  return (
    <>
      <Toast toast={toastOf(actionData)} />
      <p className="back-link">
        <Link to="/workflows">
          <Icon name="chevronLeft" /> {T.back}
        </Link>
      </p>
      <div className="page-header">
        <div>
          <h1>{data.workflow.title}</h1>
          <p className="page-subtitle">{T.listLabel(data.workflow.title)}</p>
        </div>
        {canWrite ? (
          <div className="header-actions">
            <Link id="import-template" to={`${listPath}?${params}`} className="btn btn-secondary" preventScrollReset>
              <Icon name="download" /> {T.import}
            </Link>
            <Link to={`${base}/milestones/new`} className="btn btn-primary">
              {T.addNew}
            </Link>
          </div>
        ) : null}
      </div>
      {none ? (
        <p className="empty-state">{T.noneCreated}</p>
      ) : (
        <div className="template-groups">
          <Group id="active-templates" title={T.active} cards={data.active} empty={T.noActive} canWrite={canWrite} actionData={actionData} />
          <Group id="inactive-templates" title={T.inactive} cards={data.inactive} empty={T.noInactive} canWrite={canWrite} actionData={actionData} />
        </div>
      )}
      {data.importOpen ? (
        <ImportDialog
          id="import-template-dialog"
          title={T.importTitle}
          hint={T.importHint}
          required={T.importRequired}
          closeTo={closeTo}
          openerId="import-template"
          actionData={actionData}
        />
      ) : null}
      <Outlet />
    </>
  );
}
