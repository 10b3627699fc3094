import { getFormProps, type FieldMetadata } from "@conform-to/react";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import type { FormProperty } from "@contract/milestone-templates";
import { CheckboxField, FormError, FieldErrors, SaveButton, SelectField, TextAreaField, TextField } from "~/ui/fields";
import { FileField } from "~/ui/file-field";
import { usePolling } from "~/ui/poll";
import { useSchemaForm } from "~/ui/schema-form";
import { TagInput, splitTags } from "~/ui/tag-input";
import { Toast, toastOf } from "~/ui/toast";
import { ASSIGNEE_SUGGEST_URL } from "../assignees";
import { Fact, UrgencyBadge } from "./MilestoneList";
import type { milestoneAction, milestoneLoader } from "./milestones.server";
import { useNextKey } from "./next-key";
import { PORT_FIELD, inputName, shownValue, taskFormSchema } from "./task-form";
import { MILESTONES } from "./texts";

const T = MILESTONES;
const P = T.page;
/** How often the page asks again while the engine moves the milestone on. */
const MOVING_POLL_MS = 1_000;

type Data = ReturnType<typeof useLoaderData<typeof milestoneLoader>>;
type TaskData = Data["tasks"][number];

/** A milestone of the docket: its facts, tasks in order (the open ones to complete), history and notes. */
export function MilestonePage() {
  const data = useLoaderData<typeof milestoneLoader>();
  const actionData = useActionData<typeof milestoneAction>();
  const { milestone: m } = data;
  usePolling(data.moving, MOVING_POLL_MS);
  useNextKey(data.next?.href ?? null);
  const action = `/milestones/${encodeURIComponent(m.id)}?from=${encodeURIComponent(data.from)}`;
  const failedTask = actionData && "taskId" in actionData ? actionData.taskId : null;
  return (
    <>
      <Toast toast={toastOf(actionData)} />
      <nav className="docket-page-nav" aria-label={P.details}>
        <Link to={`/milestones?${data.from}`}>{P.back}</Link>
        {data.next ? (
          <Link to={data.next.href} accessKey="n" aria-keyshortcuts="N" title={P.nextHint} className="btn btn-secondary docket-next">
            {P.next}: {data.next.title}
          </Link>
        ) : (
          <span className="muted small">{P.nothingNext}</span>
        )}
      </nav>
      <div className="page-header">
        <div>
          <h1>{m.title}</h1>
          <p className="page-subtitle">
            <span className={`docket-status docket-status-${m.status}`}>{T.status[m.status]}</span> <UrgencyBadge urgency={m.urgency} />
          </p>
        </div>
      </div>
      {data.moving ? (
        <p role="status" className="docket-moving">
          <noscript>
            <meta httpEquiv="refresh" content="2" />
          </noscript>
          {P.moving} <Link to={action}>{P.refresh}</Link>
        </p>
      ) : null}
      <dl className="docket-facts docket-facts-page">
        <Fact label={T.labels.dueAt} value={m.dueAt} />
        <Fact label={T.labels.clientDueDate} value={m.clientDueDate} />
        <Fact label={T.labels.reference} value={m.clientCode ? `${m.reference} (${m.clientCode})` : m.reference} />
        <Fact label={T.labels.workflow} value={m.workflowTitle} />
        <Fact label={T.labels.template} value={m.templateTitle} />
        <Fact label={T.labels.assignees} value={m.assignees.length ? m.assignees.join(", ") : T.unassigned} />
        {m.completedAt ? <Fact label={T.labels.completedAt} value={m.completedAt} /> : null}
      </dl>
      <div className="docket-page">
        <section aria-labelledby="milestone-tasks" className="docket-section">
          <h2 id="milestone-tasks">{P.tasks}</h2>
          {data.tasks.length === 0 ? (
            <p className="muted">{T.empty.tasks}</p>
          ) : (
            <ol className="docket-task-list">
              {data.tasks.map((t) => (
                <TaskItem key={t.id} task={t} action={action} actionData={failedTask === t.id ? actionData : undefined} formOptions={data.formOptions} />
              ))}
            </ol>
          )}
        </section>
        <section aria-labelledby="milestone-history" className="docket-section">
          <h2 id="milestone-history">{P.history}</h2>
          {data.history.length === 0 ? (
            <p className="muted">{T.empty.history}</p>
          ) : (
            <ol className="docket-history">
              {data.history.map((h, i) => (
                <li key={i}>
                  <span className="muted small">{h.at}</span>{" "}
                  <span>{h.event ? `${P.createdByEvent(h.event.code)}: ${h.text}` : h.text}</span>
                  {h.actor ? <span className="muted small">{` ${h.actor}`}</span> : null}
                </li>
              ))}
            </ol>
          )}
        </section>
        <section aria-labelledby="milestone-notes" className="docket-section">
          <h2 id="milestone-notes">{P.notes}</h2>
          {data.notes.length === 0 ? (
            <p className="muted">{T.empty.notes}</p>
          ) : (
            // Sanitized on the server (milestones.server.ts) before it is sent.
            data.notes.map((html, i) => <div key={i} className="docket-note rich-text" dangerouslySetInnerHTML={{ __html: html }} />)
          )}
          {data.variables.length ? (
            <>
              <h3>{P.variables}</h3>
              <dl className="docket-facts">
                {data.variables.map((v) => (
                  <Fact key={v.name} label={v.name} value={v.value} />
                ))}
              </dl>
            </>
          ) : null}
        </section>
      </div>
    </>
  );
}

function TaskItem({
  task,
  action,
  actionData,
  formOptions,
}: {
  task: TaskData;
  action: string;
  actionData: unknown;
  formOptions: Data["formOptions"];
}) {
  return (
    <li className={`docket-task docket-task-${task.status}`} aria-labelledby={`task-${task.id}-title`}>
      <div className="docket-card-head">
        <h3 id={`task-${task.id}-title`} className="docket-title">
          {task.title}
        </h3>
        <span className={`docket-status docket-status-${task.status}`}>{T.taskStatus[task.status]}</span>
        <UrgencyBadge urgency={task.urgency} />
        {task.critical ? <span className="docket-badge docket-critical">{T.badges.critical}</span> : null}
      </div>
      <p className="muted small">
        {task.assignees.length ? task.assignees.join(", ") : T.unassigned} · {T.labels.dueAt} {task.dueAt}
      </p>
      {task.notes.map((html, i) => (
        <div key={i} className="docket-note rich-text" dangerouslySetInnerHTML={{ __html: html }} />
      ))}
      {task.completedAt ? <p className="small">{P.completedBy(task.completedBy ?? T.unassigned, task.completedAt)}</p> : null}
      {task.values.length ? (
        <dl className="docket-facts">
          {task.values.map((v) => (
            <Fact key={v.label} label={v.label} value={v.value} />
          ))}
        </dl>
      ) : null}
      {task.status === "open" ? (
        task.mayComplete ? (
          <TaskForm task={task} action={action} actionData={actionData} formOptions={formOptions} />
        ) : (
          <p className="muted small">{T.form.notAllowed}</p>
        )
      ) : null}
    </li>
  );
}

const defaultOf = (p: FormProperty): string => (p.type === "boolean" ? (p.value === true ? "on" : "") : shownValue(p, p.value));

/**
 * A task's completion form: one input per property of the form its path defines, each with the field widget of its
 * type, the port when it leaves by several, and 'Complete task'. A refusal keeps everything typed (the action's reply
 * names this task).
 */
function TaskForm({ task, action, actionData, formOptions }: { task: TaskData; action: string; actionData: unknown; formOptions: Data["formOptions"] }) {
  const properties = useMemo(() => task.form?.properties ?? [], [task.form]);
  const schema = useMemo(() => taskFormSchema(task.form, task.ports), [task.form, task.ports]);
  const defaultValue = useMemo(() => Object.fromEntries(properties.map((p, i) => [inputName(i), defaultOf(p)])), [properties]);
  const [form, fields] = useSchemaForm(schema, { id: `task-${task.id}`, actionData, defaultValue });
  const hasFile = properties.some((p) => p.type === "file");
  const port = fields[PORT_FIELD] as FieldMetadata<string | undefined> | undefined;
  return (
    <Form method="post" action={action} encType={hasFile ? "multipart/form-data" : undefined} {...getFormProps(form)} className="task-form" aria-label={T.form.completeLegend(task.title)}>
      <input type="hidden" name="taskId" value={task.id} />
      {properties.map((p, i) => (
        <PropertyField key={i} p={p} meta={fields[inputName(i)] as FieldMetadata<string | undefined>} formOptions={formOptions} />
      ))}
      {port && task.ports.length > 1 ? (
        <fieldset className="field docket-ports" aria-describedby={port.errorId}>
          <legend>{T.form.port}</legend>
          {task.ports.map((name) => (
            <label key={name} className="docket-check">
              <input type="radio" name={port.name} value={name} defaultChecked={port.initialValue === name} aria-invalid={port.errors?.length ? true : undefined} />
              {name}
            </label>
          ))}
          <FieldErrors id={port.errorId} errors={port.errors} />
        </fieldset>
      ) : port && task.ports.length === 1 ? (
        <input type="hidden" name={port.name} value={task.ports[0]} />
      ) : null}
      <FormError id={form.errorId} errors={form.errors} />
      <div className="form-actions">
        <SaveButton form={form} label={T.form.complete} busyLabel={T.form.completing} intent="complete" />
      </div>
    </Form>
  );
}

function PropertyField({ p, meta, formOptions }: { p: FormProperty; meta: FieldMetadata<string | undefined>; formOptions: Data["formOptions"] }) {
  const label = p.required && p.type !== "boolean" ? `${p.name} *` : p.name;
  const hint = p.description || undefined;
  switch (p.type) {
    case "number":
      return <TextField meta={meta} label={label} type="number" hint={hint} step="any" />;
    case "date":
      return <TextField meta={meta} label={label} type="date" hint={hint} />;
    case "datetime":
      return <TextField meta={meta} label={label} type="datetime-local" hint={hint} />;
    case "email":
      return <TextField meta={meta} label={label} type="email" hint={hint} autoComplete="off" />;
    case "boolean":
      return <CheckboxField meta={meta as unknown as FieldMetadata<boolean | undefined>} label={label} hint={hint} />;
    case "file":
      return <FileField meta={meta as unknown as FieldMetadata<File | undefined>} label={label} accept={p.ext.map((e) => (e.startsWith(".") ? e : `.${e}`)).join(",")} hint={hint} />;
    case "people":
      return (
        <TagInput
          id={meta.id}
          name={meta.name}
          label={label}
          defaultValue={splitTags(typeof meta.initialValue === "string" ? meta.initialValue : "")}
          suggestUrl={ASSIGNEE_SUGGEST_URL}
          errors={meta.errors}
          errorId={meta.errorId}
          hint={hint ?? T.form.peopleHint}
        />
      );
    case "formPicker":
      return formOptions ? (
        <SelectField meta={meta} label={label} options={formOptions} placeholder={T.form.chooseForm} />
      ) : (
        <TextField meta={meta} label={label} hint={hint ?? T.form.formPickerHint} autoComplete="off" />
      );
    case "string":
      return p.isRichText ? <TextAreaField meta={meta} label={label} hint={hint} rows={2} /> : <TextField meta={meta} label={label} hint={hint} autoComplete="off" />;
  }
}
