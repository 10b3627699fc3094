import { useNavigate } from "@remix-run/react";
import { useEffect } from "react";

/**
 * "N" opens `href` (outside text fields, without modifiers): on the docket its first milestone, on a milestone's page
 * the next one — the paralegal's one keystroke to the next task. Without JavaScript the link's access key does the
 * same.
 */
export function useNextKey(href: string | null) {
  const navigate = useNavigate();
  useEffect(() => {
    if (!href) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "n" && e.key !== "N") return;
      if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
      const t = e.target;
      if (t instanceof HTMLElement && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
      if (document.querySelector("dialog[open]")) return;
      e.preventDefault();
      navigate(href);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [href, navigate]);
}
