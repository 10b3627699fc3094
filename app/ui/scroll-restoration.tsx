import { UNSAFE_useScrollRestoration as useScrollRestoration } from "react-router-dom";

/** Where the positions live (sessionStorage), under the name Remix's own component uses. */
export const SCROLL_POSITIONS_KEY = "positions";

/**
 * The scroll position restored before the first paint (a reload, or back to a page whose document is loaded again),
 * as Remix's `<ScrollRestoration>` does, and kept across client-side navigations by the same router hook. What differs:
 * Remix's inline script first gives a fresh history entry a key with `history.replaceState`, in the parser's path
 * before anything is painted, and that call costs the renderer's main thread several ms on every first load in
 * Chromium (a fresh entry has no stored position, so the key is not needed until the router starts). Here the inline
 * script only reads: an entry without a key has nothing to restore. app/entry.client.tsx gives it its key before
 * hydrating, where Remix's script would have.
 */
export function ScrollRestoration({ nonce }: { nonce: string | undefined }) {
  useScrollRestoration({ storageKey: SCROLL_POSITIONS_KEY });
  return <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: RESTORE_SCRIPT }} />;
}

/** The inline script: the stored position of this entry, if it has a key and one is stored (no writes). */
export const RESTORE_SCRIPT =
  "(function(k){try{var s=history.state,y=s&&s.key?JSON.parse(sessionStorage.getItem(k)||\"{}\")[s.key]:null;" +
  'if(typeof y==="number")scrollTo(0,y)}catch(e){sessionStorage.removeItem(k)}})(' +
  `${JSON.stringify(SCROLL_POSITIONS_KEY)})`;

/** Before hydration: the history entry's key that the positions are stored under (Remix's script set it). */
export function keyHistoryEntry(history: Pick<History, "state" | "replaceState">): void {
  const state: unknown = history.state;
  if (state && typeof state === "object" && "key" in state && state.key) return;
  history.replaceState({ key: Math.random().toString(32).slice(2) }, "");
}
