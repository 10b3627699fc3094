import type { LoaderFunctionArgs } from "@remix-run/node";
import { samlServiceProvider } from "~/auth/saml.server";

/** The service provider's SAML metadata, at a stable URL (the default entity id points here). */
export function loader({ context }: LoaderFunctionArgs) {
  const settings = context.sso?.saml;
  if (!settings) return new Response("Not found", { status: 404 });
  return new Response(samlServiceProvider(settings).metadata(), {
    headers: { "Content-Type": "application/samlmetadata+xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
