import { json, type LoaderFunctionArgs } from "@remix-run/node";
import {
  Form,
  Outlet,
  useFetcher,
  useLoaderData,
  useLocation,
  useRouteLoaderData,
  type ShouldRevalidateFunction,
} from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import type { loader as rootLoader } from "~/root";
import { requireUser } from "~/auth/guard.server";
import { feedbackAvailable } from "~/lib/feedback.server";
import { readPrefs } from "~/lib/prefs.server";
import { navigationFor } from "~/lib/navigation.server";
import { AppLink } from "~/ui/app-link";
import { useFocusAfterAutoSubmit } from "~/ui/auto-submit";
import { useHydrated } from "~/ui/hydrated";
import { Icon } from "~/ui/icons";
import { onlySearchChanged } from "~/ui/revalidate";
import { ToastRegion } from "~/ui/toast";

/** The shell: header, side navigation, main area. Every signed-in screen renders inside it. */
export async function loader(args: LoaderFunctionArgs) {
  const signed = await requireUser(args);
  const [prefs, hasFeedback] = await Promise.all([
    readPrefs(args.request, args.context),
    feedbackAvailable(signed.api),
  ]);
  const { identity } = signed;
  return json(
    {
      user: { email: identity.email, firstName: identity.firstName, lastName: identity.lastName },
      nav: navigationFor(identity.permissions),
      sidebar: prefs.sidebar,
      hasFeedback,
    },
    { headers: signed.setCookie ? { "Set-Cookie": signed.setCookie } : undefined },
  );
}

/**
 * Re-run on every navigation (it keeps the session's token fresh and the navigation in step with permissions), except
 * when only the search params of the page change (a list's search, sort or page): then the page's own loader alone
 * answers, and it refreshes the token too (requireRoute). After actions it always runs.
 */
export const shouldRevalidate: ShouldRevalidateFunction = (args) => !onlySearchChanged(args);

export default function Shell() {
  const { nav, sidebar, hasFeedback } = useLoaderData<typeof loader>();
  const location = useLocation();
  const fetcher = useFetcher();
  const hydrated = useHydrated();
  useFocusAfterAutoSubmit();
  const pendingSidebar = fetcher.formData?.get("sidebar");
  const state = pendingSidebar === "collapsed" || pendingSidebar === "expanded" ? pendingSidebar : sidebar;
  const expanded = state === "expanded";
  const next = expanded ? "collapsed" : "expanded";
  const rootData = useRouteLoaderData<typeof rootLoader>("root");
  // Narrow screens (CSS, max-width 700px): the side panel is an overlay with labels, opened by the menu link. Without
  // JavaScript the link targets #sidenav (CSS :target); with it, this state.
  const [mobileOpen, setMobileOpen] = useState(false);
  const navRef = useRef<HTMLElement>(null);
  useEffect(() => setMobileOpen(false), [location.pathname]);
  // Opened before the page hydrated (the #sidenav link, :target): it stays open, now as this state. From here on
  // :target is ignored (data-js): a client-side navigation does not clear it, so it would keep the menu open.
  useEffect(() => {
    if (window.location.hash === "#sidenav") setMobileOpen(true);
  }, []);
  useEffect(() => {
    if (!mobileOpen) return;
    navRef.current?.querySelector("a")?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") setMobileOpen(false);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [mobileOpen]);

  return (
    <div className="shell" data-sidebar={state} data-mobile-nav={mobileOpen ? "open" : "closed"} data-js={hydrated ? "" : undefined}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <Form
          method="post"
          action="/prefs"
          className="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            fetcher.submit({ sidebar: next }, { method: "post", action: "/prefs" });
          }}
        >
          <input type="hidden" name="sidebar" value={next} />
          {!hydrated ? <input type="hidden" name="redirectTo" value={location.pathname + location.search} /> : null}
          <button
            type="submit"
            className="icon-button sidebar-toggle"
            aria-controls="sidenav"
            aria-expanded={expanded}
            aria-label={expanded ? "Collapse side panel" : "Expand side panel"}
            title={expanded ? "Collapse side panel" : "Expand side panel"}
          >
            <Icon name="menu" />
          </button>
        </Form>
        <a
          href="#sidenav"
          className="icon-button nav-open"
          aria-controls="sidenav"
          aria-expanded={hydrated ? mobileOpen : undefined}
          aria-label="Open menu"
          title="Menu"
          onClick={(e) => {
            e.preventDefault();
            setMobileOpen((open) => !open);
          }}
        >
          <Icon name="menu" />
        </a>
        <a href="/" className="brand">
          Backoffice
        </a>
        <div className="topbar-actions">
          {hasFeedback ? (
            <a href="/help" target="_blank" rel="noopener noreferrer" className="btn btn-ghost" title="Help and feedback (opens in a new tab)">
              <Icon name="help" /> Help
            </a>
          ) : null}
          <Form method="post" action="/logout" reloadDocument className="inline-form">
            <button type="submit" className="btn btn-ghost">
              <Icon name="logout" /> Log out
            </button>
          </Form>
        </div>
      </header>
      <nav id="sidenav" className="sidenav" aria-label="Main" ref={navRef}>
        <a
          href="#main"
          className="nav-close"
          onClick={(e) => {
            e.preventDefault();
            setMobileOpen(false);
          }}
        >
          <span aria-hidden="true">×</span> Close menu
        </a>
        <ul>
          {nav.map((entry) => {
            const current = isCurrent(location.pathname, entry.path);
            return (
              <li key={entry.path}>
                <AppLink
                  to={entry.path}
                  className={current ? "active" : undefined}
                  aria-current={current ? "page" : undefined}
                  title={expanded ? undefined : entry.label}
                >
                  <Icon name={entry.icon} />
                  <span className="nav-label">{entry.label}</span>
                </AppLink>
              </li>
            );
          })}
        </ul>
      </nav>
      <a
        href="#main"
        className="nav-backdrop"
        aria-hidden="true"
        tabIndex={-1}
        onClick={(e) => {
          e.preventDefault();
          setMobileOpen(false);
        }}
      />
      <main id="main" className="main" tabIndex={-1}>
        <ToastRegion toasts={[rootData?.toast]} />
        <Outlet />
      </main>
    </div>
  );
}

/** The side panel's entry for this page: its own path or one below it (the overview: "/" alone). */
function isCurrent(pathname: string, path: `/${string}`): boolean {
  const here = pathname.toLowerCase();
  return path === "/" ? here === "/" : here === path || here.startsWith(`${path}/`);
}
