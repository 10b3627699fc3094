import { useNavigate } from "@remix-run/react";
import { useEffect, type AnchorHTMLAttributes } from "react";

/**
 * A link to an absolute path of this app, for the places that render many of them (list rows, the side panel).
 *
 * Remix's `<Link>` resolves its path against the route matches on every render (three resolutions per link:
 * href, click handler, discovery), and a list page with dozens of links spent a large share of its server time in the
 * router. An absolute path needs none of that: this is a plain `<a href>` marked for Remix's route discovery
 * (`data-discover`, as `<Link>` marks it) and for `AppLinkNavigator`, the page's one click listener, which navigates
 * on the client like `<Link>`. No hook and no handler per link: rendering one costs what a plain `<a>` costs.
 */
export function AppLink({ to, ...rest }: { to: `/${string}` } & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href">) {
  return <a {...rest} href={to} data-discover="true" data-app-link="" />;
}

/**
 * The client-side navigation of every `AppLink`, mounted once (root.tsx): a plain left click on one, that nothing
 * else handled (a React `onClick` on the link runs first and may `preventDefault`), navigates like `<Link>`'s; a
 * link to the page already shown replaces its history entry, as `<Link>` does. A modified click (new tab, new window,
 * download), a link with another target, and every click before hydration or without JavaScript are the browser's.
 */
export function AppLinkNavigator() {
  const navigate = useNavigate();
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
      const link = event.target instanceof Element ? event.target.closest<HTMLAnchorElement>("a[data-app-link]") : null;
      if (!link || (link.target && link.target !== "_self") || link.hasAttribute("download")) return;
      const to = link.getAttribute("href");
      if (!to?.startsWith("/")) return;
      event.preventDefault();
      const here = window.location.pathname + window.location.search + window.location.hash;
      navigate(to, { replace: here === to });
    };
    document.addEventListener("click", onClick);
    return () => document.removeEventListener("click", onClick);
  }, [navigate]);
  return null;
}
