import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { displayName } from "~/auth/identity";
import { requireRoute } from "~/auth/guard.server";
import { navigationFor } from "~/lib/navigation.server";
import { Icon } from "~/ui/icons";

export { RouteErrorBoundary as ErrorBoundary } from "~/ui/errors";

export async function loader(args: LoaderFunctionArgs) {
  const { identity } = await requireRoute(args);
  return json({
    name: displayName(identity),
    areas: navigationFor(identity.permissions).filter((e) => e.path !== "/"),
  });
}

export default function Home() {
  const { name, areas } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Hello, {name}</h1>
      {areas.length > 0 ? (
        <ul className="cards" aria-label="Your areas">
          {areas.map((a) => (
            <li key={a.path}>
              <Link to={a.path} className="card">
                <Icon name={a.icon} /> {a.label}
              </Link>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">No areas are open to you yet. Ask an administrator for the permissions you need.</p>
      )}
    </>
  );
}
