import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { keyHistoryEntry } from "./ui/scroll-restoration";

// The server formats dates in the browser's time zone and sends it upstream (X-Timezone): tell it which one.
const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
if (zone && !document.cookie.split("; ").includes(`tz=${encodeURIComponent(zone)}`)) {
  document.cookie = `tz=${encodeURIComponent(zone)}; path=/; max-age=31536000; samesite=lax`;
}

keyHistoryEntry(window.history);

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <RemixBrowser />
    </StrictMode>,
  );
});
