import { Form, Link, useLocation, useNavigation } from "@remix-run/react";
import { useEffect, useRef, type ReactNode } from "react";
import { useHydrated } from "./hydrated";
import { openModal } from "./modal";

/**
 * A destructive action with a confirmation step (DESIGN.md, Confirmations). The button posts `intent`; without
 * JavaScript the action answers with `confirm: intent` and this renders the inline confirmation step; with
 * JavaScript the button opens a <dialog> holding the same confirmation form. The confirming form posts
 * `intent` plus `confirmed=yes`. Either way focus starts on Cancel, never on the destructive button. A click before
 * the page hydrated gets the inline step from the server, and it stays when the page hydrates.
 */
export function ConfirmAction({
  intent,
  label,
  title,
  message,
  confirmLabel,
  confirming,
  disabled,
  disabledReason,
  danger = true,
  id,
  fields,
  ariaLabel,
  buttonClassName,
  children,
}: {
  intent: string;
  label: ReactNode;
  title: string;
  message: string;
  confirmLabel: string;
  /** True when the action answered with the inline confirmation step for this intent. */
  confirming: boolean;
  disabled?: boolean;
  disabledReason?: string;
  /** False for a confirmed action that destroys nothing (a sync): the buttons are not red. */
  danger?: boolean;
  /** Tells apart several confirmations of one intent on a page (a Delete per row): their ids stay unique. */
  id?: string;
  /** Hidden fields both forms post with the intent (the row's id, the selected rows). */
  fields?: Record<string, string | readonly string[]>;
  /** The button's accessible name when `label` alone is ambiguous (a Delete per row: "Delete Patents US"). */
  ariaLabel?: string;
  /** The button's classes when not the default's (a row's small buttons). */
  buttonClassName?: string;
  /** Fields the confirmation asks for, posted with it (a comment): one step shows at a time, so their ids stay unique. */
  children?: ReactNode;
}) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const location = useLocation();
  const hidden = Object.entries(fields ?? {}).flatMap(([name, v]) =>
    [v].flat().map((value, i) => <input key={`${name}-${i}`} type="hidden" name={name} value={value} />),
  );
  const pending =
    navigation.state !== "idle" &&
    navigation.formData?.get("intent") === intent &&
    Object.entries(fields ?? {}).every(([name, v]) => navigation.formData?.getAll(name).join("\n") === [v].flat().join("\n"));
  useEffect(() => {
    if (navigation.state === "idle") dialogRef.current?.close();
  }, [navigation.state]);

  const titleId = `confirm-${id ?? intent}-title`;
  // The inline step (the server's answer without JavaScript) has a link for Cancel, back to the page; the dialog a
  // button that closes it.
  const body = (inline: boolean) => (
    <>
      <h2 id={titleId}>{title}</h2>
      <p>{message}</p>
      <Form method="post" className="confirm-actions">
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name="confirmed" value="yes" />
        {hidden}
        {children ? <div className="confirm-fields">{children}</div> : null}
        <button type="submit" className={danger ? "btn btn-danger" : "btn btn-primary"} disabled={pending}>
          {pending ? `${confirmLabel}…` : confirmLabel}
        </button>
        {inline ? (
          // Focus on the safe choice: Enter or Space right after the step appears must not delete.
          <Link to={location.pathname + location.search} className="btn btn-secondary" autoFocus>
            Cancel
          </Link>
        ) : (
          <button data-initial-focus type="button" className="btn btn-secondary" onClick={() => dialogRef.current?.close()}>
            Cancel
          </button>
        )}
      </Form>
    </>
  );

  return (
    <>
      <Form
        method="post"
        className="inline-form"
        onSubmit={(e) => {
          if (!dialogRef.current) return;
          e.preventDefault();
          openModal(dialogRef.current);
        }}
      >
        {hidden}
        <button
          type="submit"
          name="intent"
          value={intent}
          className={buttonClassName ?? (danger ? "btn btn-danger" : "btn btn-primary")}
          disabled={disabled}
          title={disabled ? disabledReason : undefined}
          aria-label={ariaLabel}
        >
          {label}
        </button>
      </Form>
      {disabled && disabledReason ? <p className="field-hint">{disabledReason}</p> : null}
      {/* Kept once the page hydrates: a click before the scripts ran got this step from the server, and it must not
          vanish under the user's eyes. Cancel (a link to the page) or the next submission clears it. */}
      {confirming ? (
        <section className="confirm-inline" role="alertdialog" aria-labelledby={titleId}>
          {body(true)}
        </section>
      ) : null}
      {hydrated && !confirming ? (
        <dialog ref={dialogRef} className="confirm-dialog" aria-labelledby={titleId}>
          {body(false)}
        </dialog>
      ) : null}
    </>
  );
}
