import type { LoaderFunctionArgs } from "@remix-run/node";
import { notFound, requireUser } from "~/auth/guard.server";
import { NotFound } from "~/ui/errors";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

/** Every URL no screen serves: the not-found view inside the shell, status 404 (sign-in first when signed out). */
export async function loader(args: LoaderFunctionArgs) {
  await requireUser(args);
  throw notFound();
}

export default function Unknown() {
  return <NotFound />;
}
