import { Hono } from "hono";
import { type Provider, type TokenAnswer, type User } from "../../contract";
import {
  OIDC_PROVIDER_NAME,
  OidcCallbackBody,
  SAML_PROVIDER_NAME,
  SsoExchangeBody,
} from "../../contract/sso";
import type { UsersStore } from "../people/store";
import { HttpError, badRequest, jsonBody, type AppEnv } from "../lib/http";
import { requireServiceCredential } from "./credential";
import { OidcClient, OidcError, type OidcSettings } from "./oidc";

export type SsoOptions = {
  /**
   * The service credential of the server-to-server calls (`X-Service-Credential`), at least 32 characters. Without
   * it no token can be minted for single sign-on.
   */
  serviceSecret?: string;
  /** The corporate OpenID Connect provider (listed first). */
  oidc?: OidcSettings;
  /** The SAML provider the back office runs (listed second): only its button label; the SP lives in the back office. */
  saml?: { label: string };
};

const SSO_MESSAGES = {
  noAccount: "No account for this email.",
  refused: "The sign-in was refused.",
  unavailable: "The identity provider is unavailable.",
  redirectUri: "redirect_uri: must be an absolute http(s) URL ending in /microsoft.html",
} as const;

export type Sso = {
  providers(): Provider[];
  routes: Hono<AppEnv>;
};

export function createSso(
  options: SsoOptions | undefined,
  deps: { users: UsersStore; issueToken: (user: User) => string; now: () => number; log: (msg: string) => void },
): Sso {
  const { users, issueToken, log } = deps;
  const oidc = options?.oidc ? new OidcClient(options.oidc, deps.now) : null;
  const credential = requireServiceCredential(options?.serviceSecret);
  const app = new Hono<AppEnv>({ strict: false });

  /** The account behind a proven email: matched, never created. */
  const mint = (email: string, provider: string): string => {
    const found = users.findCredentials(email.trim().toLowerCase());
    const user = found ? users.get(found.id) : null;
    if (!user) {
      log(`sso: ${provider} sign-in for ${email}: no such account`);
      throw new HttpError(404, SSO_MESSAGES.noAccount);
    }
    return issueToken(user);
  };

  // Server-to-server: the back office proved the identity (SAML) and asks for that user's token.
  app.post("/sso/exchange", credential, async (c) => {
    const body = await jsonBody(c, SsoExchangeBody);
    return c.json({ token: mint(body.email, body.provider) } satisfies TokenAnswer);
  });

  if (oidc) {
    // Spec 1 §7: answers the URL to send the browser to, as text.
    app.get(`/${OIDC_PROVIDER_NAME}`, async (c) => {
      const redirectUri = c.req.query("redirect_uri") ?? "";
      let parsed: URL;
      try {
        parsed = new URL(redirectUri);
      } catch {
        throw badRequest(SSO_MESSAGES.redirectUri);
      }
      if (!/^https?:$/.test(parsed.protocol) || !parsed.pathname.endsWith("/microsoft.html") || parsed.search || parsed.hash) {
        throw badRequest(SSO_MESSAGES.redirectUri);
      }
      try {
        return c.text(await oidc.start(parsed.href));
      } catch (error) {
        log(`sso: ${OIDC_PROVIDER_NAME} unavailable: ${(error as Error).message}`);
        return c.json({ message: SSO_MESSAGES.unavailable }, 502);
      }
    });

    // Server-to-server: the browser came back with a code; the back office checked the state is this browser's.
    app.post(`/${OIDC_PROVIDER_NAME}/callback`, credential, async (c) => {
      const body = await jsonBody(c, OidcCallbackBody);
      let email: string;
      try {
        ({ email } = await oidc.finish(body.callbackUrl));
      } catch (error) {
        if (!(error instanceof OidcError)) throw error;
        log(`sso: ${OIDC_PROVIDER_NAME} sign-in refused: ${error.message}`);
        throw new HttpError(401, SSO_MESSAGES.refused);
      }
      return c.json({ token: mint(email, "oidc") } satisfies TokenAnswer);
    });
  }

  return {
    routes: app,
    providers: () => [
      ...(oidc ? [{ name: OIDC_PROVIDER_NAME, type: "oidc" as const, label: oidc.label }] : []),
      ...(options?.saml ? [{ name: SAML_PROVIDER_NAME, type: "saml" as const, label: options.saml.label }] : []),
    ],
  };
}
