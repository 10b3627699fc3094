import { z } from "zod";

/**
 * Single sign-on (spec 1 §7): the corporate OpenID Connect provider and the SAML "Sign in with OKTA" provider.
 * The name of the corporate provider in `GET /api/auth/{name}?redirect_uri=` and in `GET /api/auth/` is fixed.
 */
export const OIDC_PROVIDER_NAME = "microsoft";
export const SAML_PROVIDER_NAME = "saml";

/** The header carrying the service credential of the server-to-server calls below. */
export const SERVICE_CREDENTIAL_HEADER = "X-Service-Credential";

/** POST /api/auth/sso/exchange (service credential): an identity proven by a protocol the back office ran. */
export const SsoExchangeBody = z.object({
  email: z.string().min(1),
  /** Which protocol proved it, for the log: "saml" or "oidc". */
  provider: z.enum(["oidc", "saml"]),
});
export type SsoExchangeBody = z.infer<typeof SsoExchangeBody>;

/** POST /api/auth/{oidc provider}/callback (service credential): the URL the identity provider sent the browser back to. */
export const OidcCallbackBody = z.object({ callbackUrl: z.string().url() });
export type OidcCallbackBody = z.infer<typeof OidcCallbackBody>;
