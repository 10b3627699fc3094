import { getCollectionProps, getInputProps, getSelectProps, getTextareaProps, type FieldMetadata } from "@conform-to/react";
import { useNavigation } from "@remix-run/react";
import {
  type InputHTMLAttributes,
  type MouseEvent,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from "react";
import { useFirstError } from "./first-error";
import { useHydrated } from "./hydrated";

// The first-invalid-field claim lives in first-error.tsx (no conform there: root.tsx wraps every page in its scope, and
// importing this file would put conform in every page's JavaScript).
export { FirstErrorFocus,  useFirstError } from "./first-error";

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
  /** `number`, `date` and `datetime-local` for typed values (a docket task's form); the browser's own pickers. */
  type?: "text" | "email" | "search" | "url" | "password" | "number" | "date" | "datetime-local";
  hint?: ReactNode;
  /** Put beside the input, inside the same row (e.g. the "Randomize password" button). */
  addon?: ReactNode;
} & Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "name" | "id" | "defaultValue" | "form">;

export function TextField({ meta, label, type = "text", hint, addon, ...rest }: TextFieldProps) {
  const hintId = hint ? `${meta.id}-hint` : undefined;
  const { key, ...props } = getInputProps(meta, { type, ariaDescribedBy: hintId });
  const first = useFirstError(meta.id, meta.errors);
  return (
    <div className="field">
      <label htmlFor={meta.id}>{label}</label>
      <div className={addon ? "field-row" : undefined}>
        <input key={key} {...props} {...rest} autoFocus={first || rest.autoFocus} />
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

type TextAreaFieldProps = {
  meta: FieldMetadata<string | undefined>;
  label: string;
  hint?: ReactNode;
} & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "name" | "id" | "defaultValue" | "form">;

/** A labelled textarea (a description, notes) with its hint and errors; 3 rows unless told. */
export function TextAreaField({ meta, label, hint, rows = 3, ...rest }: TextAreaFieldProps) {
  const hintId = hint ? `${meta.id}-hint` : undefined;
  const { key, ...props } = getTextareaProps(meta, { ariaDescribedBy: hintId });
  const first = useFirstError(meta.id, meta.errors);
  return (
    <div className="field">
      <label htmlFor={meta.id}>{label}</label>
      <textarea key={key} {...props} rows={rows} {...rest} autoFocus={first || rest.autoFocus} />
      {hint ? (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      ) : null}
      <FieldErrors id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

type SelectFieldProps = {
  meta: FieldMetadata<string | undefined>;
  label: string;
  options: readonly { value: string; label: string }[];
  /** The first, empty choice ("Choose a type"), when the field may start unset. */
  placeholder?: string;
} & Omit<SelectHTMLAttributes<HTMLSelectElement>, "name" | "id" | "defaultValue" | "form">;

/** A labelled select of `options` with its errors. */
export function SelectField({ meta, label, options, placeholder, ...rest }: SelectFieldProps) {
  const { key, ...props } = getSelectProps(meta);
  const first = useFirstError(meta.id, meta.errors);
  return (
    <div className="field">
      <label htmlFor={meta.id}>{label}</label>
      <select
        key={key}
        {...props}
        {...rest}
        autoFocus={first || rest.autoFocus}
      >
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
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
  const first = useFirstError(meta.id, meta.errors);
  return (
    <div className="field field-checkbox">
      <label>
        <input key={key} {...props} disabled={disabled} autoFocus={first} />
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
  const first = useFirstError(meta.id, meta.errors);
  return (
    <fieldset className="field checkbox-group" aria-describedby={meta.errorId}>
      <legend>{legend}</legend>
      {options.length === 0 ? <p className="field-hint">{empty}</p> : null}
      <div className="checkbox-options">
        {items.map(({ key, ...props }, i) => (
          <label key={key}>
            <input {...props} disabled={disabled} autoFocus={first && i === 0} />
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

/** Stops a second submission while one is pending (the button stays focusable: `aria-disabled`, not `disabled`). */
function usePendingGuard() {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const pending = hydrated && navigation.state !== "idle";
  return {
    pending,
    onClick: (e: MouseEvent<HTMLButtonElement>) => {
      if (pending) e.preventDefault();
    },
  };
}

/**
 * The button Enter submits (the first submit button of a form is its default): keeps Enter meaning "save" in forms
 * that have other submit buttons before Save, such as "Randomize password". Invisible and out of the tab order.
 */
export function DefaultSubmit({ value }: { value: string }) {
  const { onClick } = usePendingGuard();
  return (
    <button
      type="submit"
      name="intent"
      value={value}
      className="default-submit"
      tabIndex={-1}
      aria-hidden="true"
      onClick={onClick}
    />
  );
}

/** The metadata SaveButton reads: conform's form metadata (`form` from `useForm`) fits. */
export type SaveButtonForm = { dirty: boolean; valid: boolean; allErrors?: Record<string, string[] | undefined> };

/** True when a field (not the form as a whole: a server failure's inline text is a form error) has an error. */
export function hasFieldErrors(form: SaveButtonForm): boolean {
  if (!form.allErrors) return !form.valid;
  return Object.entries(form.allErrors).some(([name, errors]) => name !== "" && (errors?.length ?? 0) > 0);
}

/**
 * A form's primary submit button (spec 1 §5: refuses while a request is pending or the form is dirty and invalid).
 * Never a silent refusal (DESIGN.md, Refusing input): the button is `aria-disabled`, never `disabled`, so a click
 * still reaches the form, where conform validates every field, shows every message and focuses the first invalid
 * field instead of posting. A server failure (409, 5xx) is a form-level error: the button is usable again at once.
 * The rule applies only once JavaScript runs: the server-rendered button is plain, so a form without JavaScript can
 * always be submitted and the server answers with the messages (focus on the first, see `useFirstError`).
 */
export function SaveButton({
  form,
  label,
  busyLabel,
  intent,
}: {
  form: SaveButtonForm;
  label: string;
  /** Shown while this button's submission is pending ("Saving…"). */
  busyLabel?: string;
  /** Posted as `intent`, when the action tells several buttons apart. */
  intent?: string;
}) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const { pending, onClick } = usePendingGuard();
  const mine = pending && (intent === undefined || navigation.formData?.get("intent") === intent);
  const refusing = hydrated && (pending || (form.dirty && hasFieldErrors(form)));
  return (
    <button
      type="submit"
      name={intent ? "intent" : undefined}
      value={intent}
      className="btn btn-primary"
      aria-disabled={refusing ? "true" : undefined}
      onClick={onClick}
      // Keeps focus (and the field being typed in) where it is until the click: a blur here would validate that
      // field, its message would push this button down, and the mouseup would land beside it (no click at all).
      // The submit validates every field and focuses the first invalid one anyway.
      onMouseDown={hydrated ? (e) => e.preventDefault() : undefined}
    >
      {mine && busyLabel ? busyLabel : label}
    </button>
  );
}
