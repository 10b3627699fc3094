import { createContext, useContext, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from "react";
import type { ContractField } from "@contract/workflow-contracts";
import { FieldErrors } from "~/ui/fields";
import { dateVariables, measuresFor, type DueDraft } from "./model";
import { CONDITION_TEXTS as T } from "./texts";

/**
 * Controlled fields named and identified by their form name: what the editors here render, the same markup with and
 * without JavaScript (the server renders the values; the browser keeps them in state). `errors` holds messages by
 * form name; a field's message is tied to it with aria-describedby.
 */
export type Errors = Readonly<Record<string, string | undefined>>;

/**
 * The form name of the field to start on when the page comes back from the server with messages (no JavaScript: the
 * first invalid field gets `autofocus`). With JavaScript the editor moves focus itself.
 */
export const AutoFocusName = createContext<string | null>(null);

/** A form name as an element id ("predicates.0.1.field" → "wz-predicates-0-1-field"). */
export const idOf = (name: string) => `wz-${name.replace(/[^A-Za-z0-9_-]+/g, "-")}`;

function describedBy(name: string, errors: Errors, hint?: boolean) {
  const ids = [hint ? `${idOf(name)}-hint` : null, errors[name] ? `${idOf(name)}-error` : null].filter(Boolean);
  return ids.length ? ids.join(" ") : undefined;
}

/** What every control here carries, after the caller's own attributes: its id, name, value, change and messages. */
function controlAttributes(name: string, value: string, onValue: (v: string) => void, errors: Errors, hint: boolean) {
  return {
    id: idOf(name),
    name,
    value,
    onChange: (e: { target: { value: string } }) => onValue(e.target.value),
    "aria-invalid": errors[name] ? true : undefined,
    "aria-describedby": describedBy(name, errors, hint),
  };
}

function Shell({ name, label, hint, errors, children, className }: { name: string; label: string; hint?: ReactNode; errors: Errors; children: ReactNode; className?: string }) {
  const message = errors[name];
  return (
    <div className={className ? `field ${className}` : "field"}>
      <label htmlFor={idOf(name)}>{label}</label>
      {children}
      {hint ? (
        <p id={`${idOf(name)}-hint`} className="field-hint">
          {hint}
        </p>
      ) : null}
      <FieldErrors id={`${idOf(name)}-error`} errors={message ? [message] : undefined} />
    </div>
  );
}

export function InputField({
  name,
  label,
  value,
  onValue,
  errors,
  hint,
  className,
  ...rest
}: { name: string; label: string; value: string; onValue: (v: string) => void; errors: Errors; hint?: ReactNode; className?: string } & Omit<
  InputHTMLAttributes<HTMLInputElement>,
  "name" | "value" | "onChange" | "id"
>) {
  return (
    <Shell name={name} label={label} hint={hint} errors={errors} className={className}>
      <input
        autoFocus={useContext(AutoFocusName) === name || undefined}
        {...rest}
        {...controlAttributes(name, value, onValue, errors, Boolean(hint))}
      />
    </Shell>
  );
}

export function SelectInput({
  name,
  label,
  value,
  onValue,
  errors,
  options,
  placeholder,
  hint,
  className,
  ...rest
}: {
  name: string;
  label: string;
  value: string;
  onValue: (v: string) => void;
  errors: Errors;
  options: readonly { value: string; label: string }[];
  placeholder?: string;
  hint?: ReactNode;
  className?: string;
} & Omit<SelectHTMLAttributes<HTMLSelectElement>, "name" | "value" | "onChange" | "id">) {
  // A value the options do not hold (typed before, or from an older contract) stays choosable rather than lost.
  const known = value === "" || options.some((o) => o.value === value);
  return (
    <Shell name={name} label={label} hint={hint} errors={errors} className={className}>
      <select
        autoFocus={useContext(AutoFocusName) === name || undefined}
        {...rest}
        {...controlAttributes(name, value, onValue, errors, Boolean(hint))}
      >
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {known ? null : <option value={value}>{value}</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Shell>
  );
}

/**
 * A due date's base variable (`{{now}}` and the event's date fields), amount and measures (Hours and Minutes only
 * when the base has a time of day). Fields named `${name}.date`, `${name}.amount`, `${name}.measures`.
 */
export function DueDateParts({
  name,
  value,
  onChange,
  fields,
  errors,
}: {
  name: string;
  value: DueDraft;
  onChange: (next: DueDraft) => void;
  fields: readonly ContractField[];
  errors: Errors;
}) {
  const measures = measuresFor(value.date, fields);
  const setDate = (date: string) => {
    const allowed = measuresFor(date, fields);
    onChange({ ...value, date, measures: allowed.includes(value.measures) ? value.measures : "Days" });
  };
  return (
    <div className="due-parts">
      <SelectInput
        name={`${name}.date`}
        label={T.due.date}
        value={value.date}
        onValue={setDate}
        errors={errors}
        options={dateVariables(fields).map((v) => ({ value: v.value, label: v.value }))}
      />
      <InputField
        name={`${name}.amount`}
        label={T.due.amount}
        value={value.amount}
        onValue={(amount) => onChange({ ...value, amount })}
        errors={errors}
        inputMode="numeric"
        autoComplete="off"
      />
      <SelectInput
        name={`${name}.measures`}
        label={T.due.measures}
        value={value.measures}
        onValue={(m) => onChange({ ...value, measures: m })}
        errors={errors}
        options={measures.map((m) => ({ value: m, label: m }))}
      />
    </div>
  );
}
