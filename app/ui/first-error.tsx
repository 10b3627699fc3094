import { createContext, useContext, useState, type ReactNode } from "react";
import { useHydrated } from "./hydrated";

type FirstErrorClaim = { owner: string | null };
const FirstErrorContext = createContext<FirstErrorClaim | null>(null);

/**
 * Where "the first invalid field" is decided (root.tsx wraps the whole page in it): the first field with an error to
 * render, in document order, claims it. Rendered once per server request, so each page has its own claim.
 */
export function FirstErrorScope({ children }: { children: ReactNode }) {
  const [claim] = useState<FirstErrorClaim>(() => ({ owner: null }));
  return <FirstErrorContext.Provider value={claim}>{children}</FirstErrorContext.Provider>;
}

/**
 * True for the first field of the page that has an error, while the page is the server's (no JavaScript yet): the
 * field gets `autoFocus`, so a form posted without JavaScript comes back with focus on its first invalid field.
 * With JavaScript conform moves focus itself (to the first invalid field, on submit and on a server reply).
 * Every shared field calls it; a form's own select or textarea calls it with its conform metadata.
 */
export function useFirstError(id: string, errors: string[] | undefined): boolean {
  const claim = useContext(FirstErrorContext);
  const hydrated = useHydrated();
  if (!claim || hydrated || !errors?.length) return false;
  if (claim.owner === null) claim.owner = id;
  return claim.owner === id;
}

/**
 * For a form's own control (a select, a textarea): renders `children(autoFocus)` in the control's place, so the claim
 * happens in document order (a hook in the form component itself would run before the fields above it).
 */
export function FirstErrorFocus({
  meta,
  children,
}: {
  meta: { id: string; errors: string[] | undefined };
  children: (autoFocus: boolean) => ReactNode;
}) {
  return <>{children(useFirstError(meta.id, meta.errors))}</>;
}
