import { useMatches } from "@remix-run/react";
import { useState, type FormEvent } from "react";
import { formatBytes } from "./file-field";

/** Uploads larger than this show a progress bar (with JavaScript); smaller ones post as any form. */
const PROGRESS_FROM_BYTES = 512 * 1024;

const UPLOAD_TEXTS = {
  progress: (sent: number, total: number) => `Uploading… ${formatBytes(sent)} of ${formatBytes(total)}`,
  label: "Upload progress",
  failed: "Upload failed",
  answered: (status: number) => `The server answered ${status}.`,
  lost: "The connection was lost.",
} as const;

type Progress = { sent: number; total: number } | null;

/**
 * Upload progress for a form posting files (progressive enhancement: without JavaScript the form posts as usual).
 * With JavaScript and a file over `PROGRESS_FROM_BYTES`, `submit` sends the same form data to the same action with
 * XMLHttpRequest (fetch has no upload progress) as a Remix data request: a redirect is followed as a document load
 * (the flash toast is read by the page it lands on), any other answer becomes the form's `actionData` (`result`).
 * Call `submit(event, formData)` from conform's `onSubmit` once the form is valid.
 */
export function useUploadProgress() {
  const matches = useMatches();
  const [progress, setProgress] = useState<Progress>(null);
  const [result, setResult] = useState<unknown>(undefined);
  const routeId = matches[matches.length - 1]?.id ?? "";

  const submit = (event: FormEvent<HTMLFormElement>, formData: FormData) => {
    const files = [...formData.values()].filter((v): v is File => v instanceof File);
    const total = files.reduce((sum, f) => sum + f.size, 0);
    if (total < PROGRESS_FROM_BYTES) return;
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    if (submitter?.name) formData.set(submitter.name, submitter.value);
    const form = event.currentTarget;
    const url = new URL(form.action || window.location.href, window.location.href);
    url.searchParams.set("_data", routeId);
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url.toString());
    xhr.upload.onprogress = (e) => setProgress({ sent: e.loaded, total: e.lengthComputable ? e.total : total });
    xhr.onload = () => {
      setProgress(null);
      const redirect = xhr.getResponseHeader("X-Remix-Redirect");
      if (redirect) {
        // A document load (not the router): the root loader reads the flash toast the action set, as after a post
        // without JavaScript (a client navigation would not re-run it). A target that differs from this page only by
        // its #fragment would merely scroll: the page is reloaded there instead.
        const target = new URL(redirect, window.location.href);
        const here = window.location;
        if (target.pathname === here.pathname && target.search === here.search) {
          here.hash = target.hash;
          here.reload();
        } else window.location.assign(redirect);
        return;
      }
      try {
        setResult(JSON.parse(xhr.responseText) as unknown);
      } catch {
        // The server's own refusal of the body (server/guard.ts: too large, busy) is a short plain text: shown as it is.
        const text = xhr.responseText.trim();
        const plain = (xhr.getResponseHeader("Content-Type") ?? "").startsWith("text/plain") && text && text.length <= 500;
        const description = plain ? text : UPLOAD_TEXTS.answered(xhr.status);
        setResult({ toast: { type: "error", message: UPLOAD_TEXTS.failed, description } });
      }
    };
    xhr.onerror = () => {
      setProgress(null);
      setResult({ toast: { type: "error", message: UPLOAD_TEXTS.failed, description: UPLOAD_TEXTS.lost } });
    };
    setResult(undefined);
    setProgress({ sent: 0, total });
    xhr.send(formData);
  };

  return { submit, progress, result, pending: progress !== null };
}

/** The progress bar of `useUploadProgress` (nothing while no upload is running). */
export function UploadProgress({ progress }: { progress: Progress }) {
  if (!progress) return null;
  return (
    <div className="upload-progress" role="status">
      <progress max={progress.total} value={progress.sent} aria-label={UPLOAD_TEXTS.label} />
      <span>{UPLOAD_TEXTS.progress(progress.sent, progress.total)}</span>
    </div>
  );
}
