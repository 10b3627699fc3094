/** What server.ts hands the routes for single sign-on (see README "Single sign-on"). */
export type SamlIdp = {
  /** The identity provider's entity id: the Issuer its responses must carry. */
  entityId: string;
  /** Its SingleSignOnService (HTTP-Redirect binding). */
  ssoUrl: string;
  /** Its signing certificates (base64 DER, PEM body). */
  certs: string[];
};

export type SamlSettings = {
  /** This service provider's entity id: the Audience a response must be for. */
  spEntityId: string;
  /** Where the identity provider posts responses (the Destination they must name). */
  acsUrl: string;
  idp: SamlIdp;
  clockSkewMs: number;
};

export type SsoContext = {
  /** The back office's public origin, no trailing slash. */
  publicUrl: string;
  /** The upstream's service credential (X-Service-Credential). */
  serviceSecret: string;
  saml: SamlSettings | null;
};

declare module "@remix-run/node" {
  interface AppLoadContext {
    /** Single sign-on; unset when not configured. */
    sso?: SsoContext;
  }
}
