import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useRouteError,
} from "@remix-run/react";
import type { ReactNode } from "react";
import { toasts } from "./lib/toast.server";
import styles from "./styles/app.css";
import { NotFound } from "./ui/errors";
import { useNonce } from "./ui/nonce";
import { ToastRegion } from "./ui/toast";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction = () => [{ title: "Backoffice" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { toast, headers } = await toasts(context).getToast(request);
  return json({ toast: toast ?? null }, { headers });
}

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
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

export default function App() {
  const { toast } = useLoaderData<typeof loader>();
  return (
    <>
      <Outlet />
      <ToastRegion toasts={[toast]} />
    </>
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
