/**
 * What every table-editor form shares: a server form posting one graph edit (`intent=edit`, its `op`, its `form` id
 * for the answer to come back to), the model's refusal beside it, and what was typed kept on a refusal. B's canvas
 * opens the same forms in a modal; the `onDone` of a form there is the canvas's, here the page reloads.
 */
import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { EDITOR } from "../texts";
import type { EditOp } from "./parse";

/** The answer of a refused post, as the editor's action gives it. */
export type FormReply = { form?: string; message?: string; values?: Record<string, string> } | null | undefined;

/** What a form typed before a refusal (its own only), else the current value. */
export function valueOf(reply: FormReply, formId: string, name: string, current: string | number | undefined | null): string {
  if (reply?.form === formId && reply.values && name in reply.values) return reply.values[name] ?? "";
  return current === undefined || current === null ? "" : String(current);
}
export function checkedOf(reply: FormReply, formId: string, name: string, current: boolean): boolean {
  if (reply?.form === formId && reply.values) return reply.values[name] === "on";
  return current;
}

export function EditForm({
  id,
  op,
  reply,
  label,
  submit,
  hidden,
  children,
  className,
}: {
  /** Unique on the page: the anchor the page returns to and the id the refusal names. */
  id: string;
  op: EditOp;
  reply: FormReply;
  /** The form's accessible name. */
  label: string;
  submit: string;
  hidden?: Record<string, string>;
  children?: ReactNode;
  className?: string;
}) {
  const error = reply?.form === id ? reply.message : undefined;
  const errorId = `${id}-error`;
  return (
    <Form method="post" id={id} aria-label={label} className={className ?? "editor-form"} aria-describedby={error ? errorId : undefined} preventScrollReset>
      <input type="hidden" name="intent" value="edit" />
      <input type="hidden" name="op" value={op} />
      <input type="hidden" name="form" value={id} />
      {Object.entries(hidden ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {children}
      {error ? (
        <p id={errorId} className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      <button type="submit" className="btn btn-secondary btn-small">
        {submit}
      </button>
    </Form>
  );
}

/** A labelled input of an editing form (ids are the form's id and the field's name, so each is unique). */
export function Input({
  formId,
  name,
  label,
  reply,
  value,
  type = "text",
  hint,
  ...rest
}: {
  formId: string;
  name: string;
  label: string;
  reply: FormReply;
  value: string | number | undefined | null;
  type?: string;
  hint?: string;
  required?: boolean;
  min?: number;
  step?: string;
  inputMode?: "decimal" | "numeric" | "text" | "email";
}) {
  const id = `${formId}-${name}`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} name={name} type={type} defaultValue={valueOf(reply, formId, name, value)} aria-describedby={hint ? `${id}-hint` : undefined} {...rest} />
      {hint ? (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

export function Select({
  formId,
  name,
  label,
  reply,
  value,
  options,
}: {
  formId: string;
  name: string;
  label: string;
  reply: FormReply;
  value: string | undefined | null;
  options: readonly { value: string; label: string }[];
}) {
  const id = `${formId}-${name}`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} defaultValue={valueOf(reply, formId, name, value)}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

export function Checkbox({ formId, name, label, reply, checked }: { formId: string; name: string; label: string; reply: FormReply; checked: boolean }) {
  const id = `${formId}-${name}`;
  return (
    <div className="field field-checkbox">
      <input id={id} name={name} type="checkbox" defaultChecked={checkedOf(reply, formId, name, checked)} />
      <label htmlFor={id}>{label}</label>
    </div>
  );
}

/** A row's delete: one button posting its edit (the model refuses what it must, a step with open tasks). */
export function DeleteButton({ id, op, label, hidden }: { id: string; op: EditOp; label: string; hidden: Record<string, string> }) {
  return (
    <Form method="post" className="inline-form" preventScrollReset>
      <input type="hidden" name="intent" value="edit" />
      <input type="hidden" name="op" value={op} />
      <input type="hidden" name="form" value={id} />
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" className="btn btn-ghost btn-small" aria-label={label}>
        {EDITOR.delete}
      </button>
    </Form>
  );
}
