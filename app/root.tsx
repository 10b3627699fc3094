import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  useLoaderData,
  useMatches,
  useRouteError,
  type ShouldRevalidateFunction,
} from "@remix-run/react";
import { useEffect, type ReactNode } from "react";
import { readToast } from "./lib/toast.server";
import styles from "./styles/app.css";
import { AppLinkNavigator } from "./ui/app-link";
import { NotFound } from "./ui/errors";
import { FirstErrorScope } from "./ui/first-error";
import { onlySearchChanged } from "./ui/revalidate";
import { ScrollRestoration } from "./ui/scroll-restoration";
import { useNonce } from "./ui/nonce";
import { ToastRegion } from "./ui/toast";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction = () => [{ title: "Backoffice" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { toast, headers } = await readToast(request, context);
  return json({ toast }, headers ? { headers } : undefined);
}

/**
 * Not again for a list's search, sort or page (only the URL's search params of the same page change): the leaf
 * route's loader alone answers, one request per debounced keystroke. After an action (a POST) it runs as always:
 * the flash toast of the redirect is read here.
 */
export const shouldRevalidate: ShouldRevalidateFunction = (args) =>
  onlySearchChanged(args) ? false : args.defaultShouldRevalidate;

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  // Once the page has hydrated (every page, error pages too), <html data-hydrated>: what a browser test waits for
  // before it acts as a user of the hydrated page (e2e/fixtures.ts).
  useEffect(() => {
    document.documentElement.dataset.hydrated = "";
  }, []);
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

/** The shell (routes/_app.tsx) shows the root's toast inside its main area; other pages get it here, above them. */
const SHELL_ROUTE_ID = "routes/_app";

export default function App() {
  const { toast } = useLoaderData<typeof loader>();
  const inShell = useMatches().some((m) => m.id === SHELL_ROUTE_ID);
  return (
    <FirstErrorScope>
      <AppLinkNavigator />
      {inShell ? null : <ToastRegion toasts={[toast]} />}
      <Outlet />
    </FirstErrorScope>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <main className="bare-page">
        <NotFound />
      </main>
    );
  }
  return (
    <main className="bare-page" role="alert">
      <h1>Something went wrong</h1>
      <p>The page could not be shown. Please, try again later or contact our development team.</p>
      <p>
        <a href="/">Back to the overview</a>
      </p>
    </main>
  );
}
