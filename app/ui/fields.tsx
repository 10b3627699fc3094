import { getCollectionProps, getInputProps, type FieldMetadata } from "@conform-to/react";
import { useNavigation } from "@remix-run/react";
import type { InputHTMLAttributes, ReactNode } from "react";
import { useHydrated } from "./hydrated";

/** The error list of a field, tied to its input with aria-describedby (conform sets that on the input). */
export function FieldErrors({ id, errors }: { id: string; errors: string[] | undefined }) {
  return (
    <div id={id} className="field-errors" aria-live="polite">
      {errors?.map((e) => (
        <p key={e} className="field-error">
          {e}
        </p>
      ))}
    </div>
  );
}

type TextFieldProps = {
  meta: FieldMetadata<string | undefined>;
  label: string;
  type?: "text" | "email" | "search" | "url" | "password";
  hint?: ReactNode;
  /** Put beside the input, inside the same row (e.g. the "Randomize password" button). */
  addon?: ReactNode;
} & Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "name" | "id" | "defaultValue" | "form">;

export function TextField({ meta, label, type = "text", hint, addon, ...rest }: TextFieldProps) {
  const hintId = hint ? `${meta.id}-hint` : undefined;
  const { key, ...props } = getInputProps(meta, { type, ariaDescribedBy: hintId });
  return (
    <div className="field">
      <label htmlFor={meta.id}>{label}</label>
      <div className={addon ? "field-row" : undefined}>
        <input key={key} {...props} {...rest} />
        {addon}
      </div>
      {hint ? (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      ) : null}
      <FieldErrors id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

/** A read-only value shown like a field (e.g. the email on the edit screen). */
export function ReadOnlyField({ id, label, value, name }: { id: string; label: string; value: string; name?: string }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} name={name} value={value} readOnly aria-readonly="true" className="readonly" />
    </div>
  );
}

export function CheckboxField({
  meta,
  label,
  hint,
  disabled,
}: {
  meta: FieldMetadata<boolean | undefined>;
  label: string;
  hint?: ReactNode;
  disabled?: boolean;
}) {
  const { key, ...props } = getInputProps(meta, { type: "checkbox" });
  return (
    <div className="field field-checkbox">
      <label>
        <input key={key} {...props} disabled={disabled} />
        {label}
      </label>
      {hint ? <p className="field-hint">{hint}</p> : null}
      <FieldErrors id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

/**
 * A multi-select as a group of checkboxes: works without JavaScript, one tab stop per option, and a long list
 * scrolls. Spec: default limit 50 options shown (filter to find the rest).
 */
export function CheckboxGroup({
  meta,
  legend,
  options,
  empty,
  disabled,
}: {
  meta: FieldMetadata<string[] | undefined>;
  legend: string;
  options: Array<{ value: string; label: string }>;
  empty: string;
  disabled?: boolean;
}) {
  const items = getCollectionProps(meta, { type: "checkbox", options: options.map((o) => o.value) });
  return (
    <fieldset className="field checkbox-group" aria-describedby={meta.errorId}>
      <legend>{legend}</legend>
      {options.length === 0 ? <p className="field-hint">{empty}</p> : null}
      <div className="checkbox-options">
        {items.map(({ key, ...props }, i) => (
          <label key={key}>
            <input {...props} disabled={disabled} />
            {options[i]?.label}
          </label>
        ))}
      </div>
      <FieldErrors id={meta.errorId} errors={meta.errors} />
    </fieldset>
  );
}

/** The form-level error (e.g. the spec's inline failure text). */
export function FormError({ id, errors }: { id: string; errors: string[] | undefined }) {
  if (!errors?.length) return <div id={id} />;
  return (
    <div id={id} className="form-error" role="alert">
      {errors.map((e) => (
        <p key={e}>{e}</p>
      ))}
    </div>
  );
}

/**
 * The button Enter submits (the first submit button of a form is its default): keeps Enter meaning "save" in forms
 * that have other submit buttons before Save, such as "Randomize password". Invisible and out of the tab order.
 */
export function DefaultSubmit({ value }: { value: string }) {
  return <button type="submit" name="intent" value={value} className="default-submit" tabIndex={-1} aria-hidden="true" />;
}

/**
 * A form's primary submit button (spec 1 §5: disabled while a request is pending or the form is dirty and invalid).
 * The rule applies only once JavaScript runs: the server-rendered button is always enabled, so a form without
 * JavaScript can always be submitted and the server answers with the messages.
 */
export function SaveButton({
  form,
  label,
  busyLabel,
  intent,
}: {
  form: { dirty: boolean; valid: boolean };
  label: string;
  /** Shown while this button's submission is pending ("Saving…"). */
  busyLabel?: string;
  /** Posted as `intent`, when the action tells several buttons apart. */
  intent?: string;
}) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const pending = navigation.state !== "idle";
  const mine = pending && (intent === undefined || navigation.formData?.get("intent") === intent);
  return (
    <button
      type="submit"
      name={intent ? "intent" : undefined}
      value={intent}
      className="btn btn-primary"
      disabled={hydrated && (pending || (form.dirty && !form.valid))}
    >
      {mine && busyLabel ? busyLabel : label}
    </button>
  );
}
