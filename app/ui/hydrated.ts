import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * False while rendering on the server and during hydration, true after. Controls that JavaScript drives (disabled
 * Save buttons, dialogs, dismiss buttons) render their no-JavaScript form until this is true.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
