/**
 * The chain page's unsaved changes (spec 3 §2.9, §4.2) and Ctrl+S. Each link's form and the options row hold what is
 * typed until their Save posts it; what they hold is compared with the snapshot taken when the page last loaded what
 * was saved (the save token and other server fields ignored). Leaving with a difference — a link, a tab, the back
 * button — asks first ('Leave anyway'); a reload or closing the tab gets the browser's own question. Ctrl+S (⌘S)
 * submits the form in focus as its Save button does (a code field's Monaco included), else the one form changed.
 */
import { useActionData, useBeforeUnload, useBlocker, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { useCallback, useEffect, useRef } from "react";
import { openModal } from "~/ui/modal";
import { CHAIN_VERSIONS as V } from "../versions/texts";

const TRACKED = "form.chain-link-form, form.chain-options";
/** Fields a form carries for the server, not typed by the user. */
const SERVER_FIELDS = new Set(["draftVersion", "link", "intent"]);
const SAVE = 'button[name="intent"][value="save"]:not([hidden]), button[name="intent"][value="options"]';

const keyOf = (form: HTMLFormElement, i: number) => form.id || `form-${i}`;
function stateOf(form: HTMLFormElement): string {
  const fields: string[] = [];
  for (const [name, value] of new FormData(form)) if (typeof value === "string" && !SERVER_FIELDS.has(name)) fields.push(`${name}=${value}`);
  return fields.join("\n");
}
const forms = () => [...document.querySelectorAll<HTMLFormElement>(TRACKED)];
const snapshot = () => new Map(forms().map((f, i) => [keyOf(f, i), stateOf(f)]));

export function UnsavedChanges() {
  const saved = useRef<Map<string, string>>(new Map());
  const submitting = useRef(false);
  const navigation = useNavigation();
  const location = useLocation();
  const reply = useActionData<{ problems?: unknown[] }>();
  // A revalidation (a fetcher's post, say) brings what is saved without a navigation.
  const loaded = useLoaderData();
  const refused = !!reply && typeof reply === "object" && "problems" in reply;

  const changed = useCallback(() => forms().filter((f, i) => saved.current.has(keyOf(f, i)) && saved.current.get(keyOf(f, i)) !== stateOf(f)), []);

  // What the page shows once a load settles is what is saved — unless the answer was a refusal, whose forms hold
  // what was typed and not saved. Taken a frame later: the code fields take the loaded values in their own effects.
  useEffect(() => {
    if (navigation.state !== "idle") return;
    submitting.current = false;
    if (refused) return;
    const frame = requestAnimationFrame(() => {
      saved.current = snapshot();
    });
    return () => cancelAnimationFrame(frame);
  }, [navigation.state, location.key, refused, loaded]);

  useEffect(() => {
    const onSubmit = () => {
      submitting.current = true;
    };
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || event.key.toLowerCase() !== "s") return;
      event.preventDefault();
      const focused = document.activeElement?.closest<HTMLFormElement>(TRACKED) ?? null;
      const dirty = changed();
      const form = focused ?? (dirty.length === 1 ? dirty[0]! : null);
      form?.requestSubmit(form.querySelector<HTMLButtonElement>(SAVE) ?? undefined);
    };
    document.addEventListener("submit", onSubmit, true);
    // Capture: before the code editor, which would otherwise keep the key.
    window.addEventListener("keydown", onKey, true);
    return () => {
      document.removeEventListener("submit", onSubmit, true);
      window.removeEventListener("keydown", onKey, true);
    };
  }, [changed]);

  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      !submitting.current && (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search) && changed().length > 0,
  );
  useBeforeUnload(
    useCallback(
      (event: BeforeUnloadEvent) => {
        if (submitting.current || !changed().length) return;
        event.preventDefault();
        event.returnValue = "";
      },
      [changed],
    ),
  );
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    if (blocker.state === "blocked") openModal(dialog.current);
    else dialog.current?.close();
  }, [blocker.state]);

  return (
    <dialog ref={dialog} className="confirm-dialog" aria-labelledby="chain-leave-title" onClose={() => blocker.state === "blocked" && blocker.reset()}>
      <h2 id="chain-leave-title">{V.leaveTitle}</h2>
      <p>{V.leaveMessage}</p>
      <div className="confirm-actions">
        <button type="button" className="btn btn-danger" onClick={() => blocker.state === "blocked" && blocker.proceed()}>
          {V.leaveAnyway}
        </button>
        <button type="button" className="btn btn-secondary" data-initial-focus onClick={() => blocker.state === "blocked" && blocker.reset()}>
          {V.stay}
        </button>
      </div>
    </dialog>
  );
}
