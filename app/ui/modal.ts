/**
 * The one way a `<dialog>` opens as a modal in the app. `showModal()` focuses the dialog's first focusable control,
 * which in a confirmation is the destructive button, so Enter right after opening would destroy. React's `autoFocus`
 * does not help there: on the client React focuses the element when it mounts and writes no `autofocus` attribute,
 * so the `showModal()` that follows moves focus away again. Hence: the control to start on carries
 * `data-initial-focus` (a confirmation's Cancel) and focus is put there after the dialog has opened.
 *
 * tests/app/dialogs.test.ts checks that no other module calls `showModal()`.
 */
export function openModal(dialog: HTMLDialogElement | null | undefined): void {
  if (!dialog) return;
  if (!dialog.open) dialog.showModal();
  dialog.querySelector<HTMLElement>("[data-initial-focus]")?.focus();
}
