import { useNavigate } from "@remix-run/react";
import type { AnchorHTMLAttributes, MouseEvent } from "react";

/**
 * A link to an absolute path of this app, for the places that render many of them (list rows, the side panel).
 *
 * Remix's `<Link>` resolves its path against the route matches on every render (three resolutions per link:
 * href, click handler, discovery); a list page with 70 links spent about a sixth of its server time in the router
 * (issue 10). An absolute path needs none of that: this is a plain `<a href>` marked for Remix's route discovery
 * (`data-discover`, as `<Link>` marks it), whose plain left click navigates on the client like `<Link>`'s. A
 * modified click (new tab, new window, download) and every click without JavaScript are the browser's own.
 */
export function AppLink({ to, onClick, target, ...rest }: { to: `/${string}` } & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href">) {
  const navigate = useNavigate();
  return (
    <a
      {...rest}
      href={to}
      target={target}
      data-discover="true"
      onClick={(event: MouseEvent<HTMLAnchorElement>) => {
        onClick?.(event);
        if (!plainClick(event) || (target && target !== "_self")) return;
        event.preventDefault();
        // As <Link>: a link to the page already shown replaces its history entry instead of adding one.
        const here = window.location.pathname + window.location.search + window.location.hash;
        navigate(to, { replace: here === to });
      }}
    />
  );
}

/** A left click without a modifier key that nothing else has handled: the one a client-side navigation takes. */
const plainClick = (event: MouseEvent) =>
  !event.defaultPrevented && event.button === 0 && !event.metaKey && !event.altKey && !event.ctrlKey && !event.shiftKey;
