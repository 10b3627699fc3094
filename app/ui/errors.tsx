import { isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";

/** The not-found view (spec 1 §2): unknown routes and routes the user lacks the permission for. */
export function NotFound() {
  return (
    <section className="not-found" aria-labelledby="not-found-title">
      <h1 id="not-found-title">Nothing here :(</h1>
      <p>
        <Link to="/">Back to the overview</Link>
      </p>
    </section>
  );
}

/** The error boundary every page under the shell re-exports, so the shell stays around the error. */
export function RouteErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return (
    <section className="not-found" role="alert">
      <h1>Something went wrong</h1>
      <p>
        {status === 400 && isRouteErrorResponse(error) && typeof error.data === "string"
          ? error.data
          : "The page could not be shown. Please, try again later or contact our development team."}
      </p>
      <p>
        <Link to="/">Back to the overview</Link>
      </p>
    </section>
  );
}
