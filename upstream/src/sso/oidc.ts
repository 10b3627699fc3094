import * as client from "openid-client";

export type OidcSettings = {
  /** The provider's issuer URL; its discovery document is read at `/.well-known/openid-configuration`. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The button's text (spec: the first provider). */
  label: string;
  /** Allow plain HTTP (only ever for an issuer on loopback: tests, local identity providers). */
  allowHttp?: boolean;
};

/** The proven identity the provider vouched for. */
export type OidcIdentity = { email: string; subject: string };

export class OidcError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OidcError";
  }
}

type Pending = { verifier: string; nonce: string; redirectUri: string; expiresAt: number };

/** How long a started sign-in may take at the identity provider. */
const OIDC_PENDING_TTL_MS = 10 * 60_000;
/** At most this many sign-ins waiting at once (anyone may start one): the oldest are forgotten first. */
const MAX_PENDING = 10_000;

/**
 * The relying party of the authorization code flow (PKCE S256, state, nonce). Each started sign-in is remembered by
 * its state, once: the callback consumes it, so a replayed callback (same code and state) finds nothing.
 */
export class OidcClient {
  private configuration: Promise<client.Configuration> | null = null;
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly settings: OidcSettings,
    private readonly now: () => number,
  ) {}

  get label(): string {
    return this.settings.label;
  }

  private config(): Promise<client.Configuration> {
    if (!this.configuration) {
      const { issuer, clientId, clientSecret, allowHttp } = this.settings;
      const attempt = client.discovery(
        new URL(issuer),
        clientId,
        { client_secret: clientSecret },
        client.ClientSecretBasic(clientSecret),
        allowHttp ? { execute: [client.allowInsecureRequests] } : undefined,
      );
      // A failed discovery (provider down) is retried on the next sign-in.
      attempt.catch(() => {
        if (this.configuration === attempt) this.configuration = null;
      });
      this.configuration = attempt;
    }
    return this.configuration;
  }

  private sweep() {
    const now = this.now();
    for (const [state, p] of this.pending) if (p.expiresAt <= now) this.pending.delete(state);
    while (this.pending.size >= MAX_PENDING) {
      const oldest = this.pending.keys().next().value;
      if (oldest === undefined) break;
      this.pending.delete(oldest);
    }
  }

  /** Starts a sign-in: the URL to send the browser to. */
  async start(redirectUri: string): Promise<string> {
    const config = await this.config();
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      response_type: "code",
      scope: "openid email profile",
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
      nonce,
    });
    this.sweep();
    this.pending.set(state, { verifier, nonce, redirectUri, expiresAt: this.now() + OIDC_PENDING_TTL_MS });
    return url.href;
  }

  /** Completes a sign-in from the URL the provider sent the browser back to. Throws OidcError when refused. */
  async finish(callbackUrl: string): Promise<OidcIdentity> {
    const url = new URL(callbackUrl);
    const state = url.searchParams.get("state") ?? "";
    const pending = this.pending.get(state);
    // Once only, whatever happens next.
    this.pending.delete(state);
    if (!pending || pending.expiresAt <= this.now()) throw new OidcError("Unknown or expired sign-in (state).");
    if (`${url.origin}${url.pathname}` !== pending.redirectUri) throw new OidcError("The callback URL does not match.");
    if (url.searchParams.has("error")) throw new OidcError(`The provider refused: ${url.searchParams.get("error")}`);
    const config = await this.config();
    let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
    try {
      tokens = await client.authorizationCodeGrant(
        config,
        url,
        { pkceCodeVerifier: pending.verifier, expectedState: state, expectedNonce: pending.nonce, idTokenExpected: true },
        { redirect_uri: pending.redirectUri },
      );
    } catch (error) {
      const cause = (error as { cause?: { message?: unknown } }).cause;
      const detail = cause && typeof cause.message === "string" ? ` (${cause.message})` : "";
      throw new OidcError(`The code was refused: ${(error as Error).message}${detail}`);
    }
    const claims = tokens.claims();
    if (!claims) throw new OidcError("No ID token.");
    let source: Record<string, unknown> = claims;
    // Many providers put the email in the userinfo answer only (e.g. when the ID token carries the minimum claims).
    if (typeof claims.email !== "string") {
      try {
        source = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
      } catch (error) {
        throw new OidcError(`userinfo: ${(error as Error).message}`);
      }
    }
    const email = typeof source.email === "string" ? source.email : "";
    if (!email) throw new OidcError("The provider gave no email.");
    if (source.email_verified === false) throw new OidcError("The email is not verified.");
    return { email, subject: claims.sub };
  }
}
