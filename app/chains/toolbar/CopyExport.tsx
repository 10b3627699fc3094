import { Link } from "@remix-run/react";
import { useState } from "react";
import { useHydrated } from "~/ui/hydrated";
import { Toast, type ToastData } from "~/ui/toast";
import { CHAIN_VERSIONS as V } from "../versions/texts";

/**
 * A button copying `text` (or what it resolves to) to the clipboard, then saying so: 'Template is copied to
 * clipboard' (spec 3 §8). JavaScript only: without it there is no clipboard to write, and the export page's text is
 * selected and copied by hand.
 */
export function CopyButton({ label, text, className = "btn btn-primary" }: { label: string; text: string | (() => Promise<string>); className?: string }) {
  const hydrated = useHydrated();
  const [toast, setToast] = useState<ToastData | null>(null);
  if (!hydrated) return null;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(typeof text === "string" ? text : await text());
      setToast({ type: "success", message: V.copied });
    } catch (error) {
      setToast({ type: "error", message: V.export, description: error instanceof Error ? error.message : String(error) });
    }
  };
  return (
    <>
      <button type="button" className={className} onClick={() => void copy()}>
        {label}
      </button>
      <Toast toast={toast} />
    </>
  );
}

/**
 * The toolbar's Export (spec 3 §2.9): with JavaScript a button copying the template's JSON (fetched from the export's
 * download) to the clipboard; without it a link to the export page, which shows the JSON to copy and a download.
 */
export function ExportButton({ href, download }: { href: string; download: string }) {
  const hydrated = useHydrated();
  const load = async () => {
    const r = await fetch(download, { headers: { Accept: "application/json" } });
    if (!r.ok) throw new Error(`${r.status} ${r.statusText}`);
    return r.text();
  };
  return hydrated ? (
    <CopyButton label={V.export} text={load} className="btn btn-secondary" />
  ) : (
    <Link to={href} className="btn btn-secondary">
      {V.export}
    </Link>
  );
}
