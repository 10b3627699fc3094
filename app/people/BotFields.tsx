import { useEffect, useRef, useState } from "react";
import { useJsonLoad } from "~/ui/fetch-json";
import { useAdoptOnMount, useHydrated } from "~/ui/hydrated";
import type { BotChoices } from "./bots";
import { PEOPLE } from "./texts";

const L = PEOPLE.labels;
const B = PEOPLE.bot;

/** Where the browser asks for scripts and versions (a resource route; the browser never calls /api). */
const BOT_SCRIPTS_URL = "/people/bot-scripts";

type Props = {
  /** What the server computed for this form state (loader, or the no-JavaScript round trip). */
  initial: BotChoices & { isBot: boolean };
  mode: "create" | "edit";
  /** The email the candidate script is matched against: fixed on edit, read from the form's field on create. */
  email: string | (() => string);
  disabled?: boolean;
  /** Without JavaScript: the name of the submit button's intent that reloads scripts and versions. */
  refreshIntent: string;
};

/**
 * Is Bot, Script and Version (spec 1 §2, §4 Bot toggle). With JavaScript, switching Is Bot on loads the script list
 * and pre-selects the email's candidate with the hint; choosing a script loads its versions (the first is pre-selected
 * on create); switching off clears all three. Without JavaScript the same happens through the "Load scripts and
 * versions" round trip, the rest of the form kept as typed.
 */
export function BotFields({ initial, mode, email, disabled, refreshIntent }: Props) {
  const hydrated = useHydrated();
  const scripts = useJsonLoad<BotChoices>();
  const [failed, setFailed] = useState(false);
  const [isBot, setIsBot] = useState(initial.isBot);
  const [choices, setChoices] = useState<BotChoices>(initial);
  const asked = useRef<string | null>(null);

  // A new server state (the no-JavaScript round trip, or a reloaded page) replaces ours; the same one again does not.
  const initialKey = JSON.stringify(initial);
  const shownKey = useRef(initialKey);
  useEffect(() => {
    // Not on mount: the state starts from it (and may have adopted what was chosen before hydration).
    if (shownKey.current === initialKey) return;
    shownKey.current = initialKey;
    const next = JSON.parse(initialKey) as BotChoices & { isBot: boolean };
    setIsBot(next.isBot);
    setChoices(next);
  }, [initialKey]);

  // The answer to the latest ask only (switching off, or a newer choice, makes an older one stale).
  const load = async (params: Record<string, string>) => {
    const search = new URLSearchParams({ ...params, preselect: mode === "create" ? "1" : "0" }).toString();
    asked.current = search;
    setFailed(false);
    const next = await scripts.load(`${BOT_SCRIPTS_URL}?${search}`);
    if (asked.current !== search) return;
    asked.current = null;
    if (next) setChoices(next);
    else setFailed(true);
  };
  const currentEmail = () => (typeof email === "string" ? email : email());

  // The three choices, made by the user now or adopted from before hydration (below).
  const switchBot = (on: boolean) => {
    setIsBot(on);
    if (on) void load({ email: currentEmail() });
    else {
      asked.current = null;
      setFailed(false);
      setChoices({ scripts: [], script: "", scriptKey: "", versions: [], candidate: null });
    }
  };
  const chooseScript = (script: string) => {
    setChoices({ ...choices, script, scriptKey: "", versions: [], candidate: null });
    if (script) void load({ email: currentEmail(), script });
  };
  const chooseVersion = (scriptKey: string) => setChoices({ ...choices, scriptKey });

  // What was chosen before the page hydrated (the DOM shows it; the state is still the server's): adopted as if
  // chosen now, loading what that choice loads.
  const isBotRef = useRef<HTMLInputElement>(null);
  const scriptRef = useRef<HTMLSelectElement>(null);
  const versionRef = useRef<HTMLSelectElement>(null);
  useAdoptOnMount(() => {
    const box = isBotRef.current;
    const script = scriptRef.current?.value;
    const scriptKey = versionRef.current?.value;
    if (box && box.checked !== isBot) switchBot(box.checked);
    else if (script !== undefined && script !== choices.script) chooseScript(script);
    else if (scriptKey !== undefined && scriptKey !== choices.scriptKey) chooseVersion(scriptKey);
  });
  const loading = scripts.loading;
  const hint = choices.candidate && choices.script === choices.candidate
    ? (mode === "edit" ? B.hintEdit : B.hint)(choices.candidate)
    : null;

  return (
    <fieldset className="field bot-fields" aria-busy={loading}>
      <legend className="visually-hidden">{L.isBot}</legend>
      <div className="field field-checkbox">
        <label>
          <input
            ref={isBotRef}
            type="checkbox"
            name="isBot"
            value="on"
            checked={isBot}
            disabled={disabled}
            onChange={(e) => switchBot(e.currentTarget.checked)}
          />
          {L.isBot}
        </label>
      </div>
      {isBot && (choices.scripts.length > 0 || !hydrated) ? (
        <div className="field">
          <label htmlFor="bot-script">{L.script}</label>
          <select
            ref={scriptRef}
            id="bot-script"
            name="script"
            value={choices.script}
            disabled={disabled || (hydrated && choices.scripts.length === 0)}
            aria-describedby={hint ? "bot-script-hint" : undefined}
            onChange={(e) => chooseScript(e.currentTarget.value)}
          >
            <option value="">{B.chooseScript}</option>
            {choices.scripts.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
          {hint ? (
            <p id="bot-script-hint" className="field-hint" role="status">
              {hint}
            </p>
          ) : null}
        </div>
      ) : null}
      {isBot && failed ? (
        <p className="field-error" role="alert">
          {B.loadFailed}
        </p>
      ) : null}
      {isBot && hydrated && !loading && !failed && choices.scripts.length === 0 && asked.current === null ? (
        <p className="field-hint">{B.noScripts}</p>
      ) : null}
      {isBot && choices.script ? (
        <div className="field">
          <label htmlFor="bot-version">{L.version}</label>
          <select
            ref={versionRef}
            id="bot-version"
            name="scriptKey"
            value={choices.scriptKey}
            disabled={disabled}
            onChange={(e) => chooseVersion(e.currentTarget.value)}
          >
            <option value="">{B.chooseVersion}</option>
            {choices.versions.map((v) => (
              <option key={v.key} value={v.key}>
                {B.versionLabel(v)}
              </option>
            ))}
          </select>
          {choices.versions.length === 0 && !loading ? <p className="field-hint">{B.noVersions}</p> : null}
        </div>
      ) : null}
      {!hydrated && !disabled ? (
        <button type="submit" name="intent" value={refreshIntent} formNoValidate className="btn btn-secondary">
          {B.refresh}
        </button>
      ) : null}
    </fieldset>
  );
}
