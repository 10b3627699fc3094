import { useFetcher, useLocation } from "@remix-run/react";
import { useEffect, useId, useState, type ChangeEvent } from "react";
import { CONVERTER_MESSAGES, OCR_POLL, UPLOAD_ACCEPT, accepts } from "@contract/converters";
import { useHydrated } from "./hydrated";

/** The widget's form names and URL parameters, shared with its server half (text-from-file.server.ts). */
export const TEXT_FROM_FILE = {
  intent: "text-from-file",
  /** The intent of "Use this text" (posted with the host's form) and the field carrying the text. */
  useIntent: "use-text",
  textField: "loadedText",
  field: "textFile",
  jobParam: "ocrJob",
  tryParam: "ocrTry",
  nameParam: "ocrName",
} as const;

export type TextFromFileState =
  | { status: "done"; name: string; text: string }
  | { status: "ocr"; jobId: string; name: string; tries: number }
  | { status: "error"; message: string };

const TEXTS = {
  label: "Load text from a file",
  load: "Load text",
  review: (name: string) => `Text from ${name}`,
  use: "Use this text",
  reading: (tries: number) => `Reading the scanned pages… (check ${tries} of ${OCR_POLL.tries})`,
} as const;

const ACCEPT = UPLOAD_ACCEPT.text.join(",");
const NO_CARRY: Readonly<Record<string, string>> = {};

const pollUrl = (path: string, state: { jobId: string; name: string }, tries: number, carry: Readonly<Record<string, string>>) => {
  const search = new URLSearchParams({
    ...carry,
    [TEXT_FROM_FILE.jobParam]: state.jobId,
    [TEXT_FROM_FILE.tryParam]: String(tries),
    [TEXT_FROM_FILE.nameParam]: state.name,
  });
  return `${path}?${search}`;
};

/**
 * "Load text from a file" (spec 3 §5): a file of the text upload list (.docx .pptx .pptm .pdf .txt .eml) is posted
 * to the page, whose action converts it (`textFromFileAction`); the text is shown for review before it is used.
 * Another file type is refused with the spec's warning (at once with JavaScript, by the server without).
 * A scanned PDF is read by OCR: with JavaScript the widget asks the page's loader every 2 s, at most 60 times, and
 * shows how far it is; without JavaScript the page refreshes itself at the same pace. The page's loader answers
 * `{ textFromFile: await textFromFilePoll(api, url) }` and passes the action's or the loader's state as `state`.
 * "Use this text" either calls `onUse` (JavaScript) or posts the text with the host's form `useFormId`.
 * `carry`: fields the widget's post and its polls carry, so that a page with several widgets knows whose file it is.
 */
export function TextFromFile({
  state,
  label = TEXTS.label,
  onUse,
  useFormId,
  carry = NO_CARRY,
}: {
  state: TextFromFileState | null;
  label?: string;
  onUse?: (text: string) => void;
  useFormId?: string;
  carry?: Readonly<Record<string, string>>;
}) {
  const id = useId();
  const hydrated = useHydrated();
  const location = useLocation();
  const poll = useFetcher<{ textFromFile?: TextFromFileState | null }>();
  const [warning, setWarning] = useState<string | null>(null);
  // By value: a page passes its `carry` inline, a new object each render, and the poll's timer must not restart.
  const carried = JSON.stringify(carry);
  const polled = poll.data?.textFromFile ?? null;
  const current = polled ?? state;

  useEffect(() => {
    if (!hydrated || current?.status !== "ocr" || poll.state !== "idle") return;
    const timer = window.setTimeout(() => poll.load(pollUrl(location.pathname, current, current.tries + 1, JSON.parse(carried) as Record<string, string>)), OCR_POLL.everyMs);
    return () => window.clearTimeout(timer);
  }, [hydrated, current, poll, location.pathname, carried]);

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.currentTarget.files?.[0];
    const bad = file && !accepts(UPLOAD_ACCEPT.text, file.name);
    setWarning(bad ? CONVERTER_MESSAGES.invalidTextFile : null);
    if (bad) event.currentTarget.value = "";
  };
  const error = warning ?? (current?.status === "error" ? current.message : null);

  return (
    <div className="text-from-file">
      <form method="post" encType="multipart/form-data" className="field">
        <input type="hidden" name="intent" value={TEXT_FROM_FILE.intent} />
        {Object.entries(carry).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <label htmlFor={`${id}-file`}>{label}</label>
        <input
          id={`${id}-file`}
          type="file"
          name={TEXT_FROM_FILE.field}
          accept={ACCEPT}
          required
          onChange={onChange}
          aria-describedby={error ? `${id}-error` : undefined}
          aria-invalid={error ? true : undefined}
        />
        {error ? (
          <p id={`${id}-error`} className="field-error" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" className="btn btn-secondary">
          {TEXTS.load}
        </button>
      </form>
      {current?.status === "ocr" ? (
        <p role="status" aria-live="polite">
          <progress max={OCR_POLL.tries} value={current.tries} aria-label={TEXTS.reading(current.tries)} /> {TEXTS.reading(current.tries)}
          <noscript>
            <meta httpEquiv="refresh" content={`${OCR_POLL.everyMs / 1000};url=${pollUrl(location.pathname, current, current.tries + 1, carry)}`} />
          </noscript>
        </p>
      ) : null}
      {current?.status === "done" ? (
        <div className="field">
          <label htmlFor={`${id}-review`}>{TEXTS.review(current.name)}</label>
          <textarea id={`${id}-review`} readOnly rows={12} value={current.text} name={useFormId ? TEXT_FROM_FILE.textField : undefined} form={useFormId} />
          {onUse && hydrated ? (
            <button type="button" className="btn btn-secondary" onClick={() => onUse(current.text)}>
              {TEXTS.use}
            </button>
          ) : useFormId ? (
            <button type="submit" className="btn btn-primary" form={useFormId} name="intent" value={TEXT_FROM_FILE.useIntent}>
              {TEXTS.use}
            </button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
