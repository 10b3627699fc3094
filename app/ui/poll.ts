import { useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { useHydrated } from "./hydrated";

/**
 * While `running`, asks the server again every `ms` with JavaScript (a job's progress page); without JavaScript the
 * page refreshes itself (its noscript meta refresh).
 */
export function usePolling(running: boolean, ms: number) {
  const hydrated = useHydrated();
  const { revalidate, state } = useRevalidator();
  useEffect(() => {
    if (!hydrated || !running || state !== "idle") return;
    const timer = window.setTimeout(revalidate, ms);
    return () => window.clearTimeout(timer);
  }, [hydrated, running, state, revalidate, ms]);
}
