import { useEffect, useLayoutEffect, useRef, useSyncExternalStore, type RefObject } from "react";

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

/** useLayoutEffect in the browser; on the server (where it would warn and do nothing) useEffect. */
const useIsomorphicLayoutEffect = typeof document === "undefined" ? useEffect : useLayoutEffect;

/**
 * A controlled input and what was typed (or filled in by a password manager) before the page hydrated: the input
 * shows it, but the state that drives the page starts from the server's value. On mount, the state takes the input's
 * value when they differ, once.
 */
export function useAdoptEarlyInput(
  ref: RefObject<HTMLInputElement | HTMLTextAreaElement | null>,
  value: string,
  set: (value: string) => void,
): void {
  useAdoptOnMount(() => {
    const early = ref.current?.value;
    if (early !== undefined && early !== value) set(early);
  });
}

/**
 * `adopt` once, on mount, in the hydration's own commit: for early input that `useAdoptEarlyInput` does not fit (a
 * checkbox, a select whose change loads something). It reads the DOM and sets the state that drives the page; on a
 * client-side mount the DOM is the state and it finds nothing to adopt.
 */
export function useAdoptOnMount(adopt: () => void): void {
  const first = useRef(adopt);
  useIsomorphicLayoutEffect(() => first.current(), []);
}
