import { Link } from "@remix-run/react";
import { useState } from "react";
import { useHydrated } from "~/ui/hydrated";
import { Toast, type ToastData } from "~/ui/toast";
import { CHAIN_VERSIONS as V } from "../versions/texts";

/** Copies `text` (or what `load` fetches) to the clipboard, then says so: 'Template is copied to clipboard'. */
async function copy(text: string | (() => Promise<string>)): Promise<ToastData> {
  try {
    await navigator.clipboard.writeText(typeof text === "string" ? text : await text());
    return { type: "success", message: V.copied };
  } catch (error) {
    return { type: "error", message: V.export, description: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * The toolbar's Export (spec 3 §2.9): with JavaScript a button copying the template's JSON (fetched from the export's
 * download) to the clipboard; without it a link to that page, which shows the JSON to copy and a download.
 */
export function ExportButton({ href, download }: { href: string; download: string }) {
  const hydrated = useHydrated();
  const [toast, setToast] = useState<ToastData | null>(null);
  if (!hydrated) {
    return (
      <Link to={href} className="btn btn-secondary">
        {V.export}
      </Link>
    );
  }
  const load = async () => {
    const r = await fetch(download, { headers: { Accept: "application/json" } });
    if (!r.ok) throw new Error(`${r.status} ${r.statusText}`);
    return r.text();
  };
  return (
    <>
      <button type="button" className="btn btn-secondary" onClick={() => void copy(load).then(setToast)}>
        {V.export}
      </button>
      <Toast toast={toast} />
    </>
  );
}

/** The export page's Copy button (JavaScript only: without it the text is selected and copied by hand). */
export function CopyButton({ text }: { text: string }) {
  const hydrated = useHydrated();
  const [toast, setToast] = useState<ToastData | null>(null);
  if (!hydrated) return null;
  return (
    <>
      <button type="button" className="btn btn-primary" onClick={() => void copy(text).then(setToast)}>
        {V.copy}
      </button>
      <Toast toast={toast} />
    </>
  );
}
