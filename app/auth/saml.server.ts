import type { AppLoadContext, SessionStorage } from "@remix-run/node";
import { SAML, ValidateInResponseTo, type Profile } from "@node-saml/node-saml";
import { XMLParser } from "fast-xml-parser";
import { Strategy, type AuthenticateOptions, type StrategyVerifyCallback } from "remix-auth";
import { safeRedirect } from "./redirect";
import type { SamlSettings } from "./sso-context";

/** A refused SAML sign-in; the message is for the log, never shown. */
class SamlRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SamlRefused";
  }
}

/** How long a request we issued may wait for its response. */
const REQUEST_TTL_MS = 10 * 60_000;
/** An assertion older than this (since its IssueInstant) is refused whatever its NotOnOrAfter says. */
const MAX_ASSERTION_AGE_MS = 10 * 60_000;

/** An element's text (fast-xml-parser gives a string, or an object with #text when it has attributes). */
function textOf(node: unknown): string | null {
  if (node === undefined || node === null) return null;
  if (typeof node === "string") return node.trim();
  if (typeof node === "object" && "#text" in node) return String((node as Record<string, unknown>)["#text"]).trim();
  return "";
}

const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@", removeNSPrefix: true });

/**
 * The SAML 2.0 service provider, on @node-saml/node-saml: AuthnRequests over HTTP-Redirect, responses over HTTP-POST.
 * Refuses: an unsigned response or assertion, a signature by another key, anything altered after signing, a response
 * or assertion from another issuer, an expired or not-yet-valid assertion (clock skew bounded), a response to a request this
 * server did not issue (InResponseTo, each request answered once), a replayed response (IDs remembered until they
 * expire), another Audience, another Destination.
 */
export class SamlServiceProvider {
  private readonly saml: SAML;
  /** Response and assertion IDs already accepted, with when they can be forgotten. */
  private readonly seen = new Map<string, number>();

  constructor(
    readonly settings: SamlSettings,
    private readonly now: () => number = Date.now,
  ) {
    this.saml = new SAML({
      callbackUrl: settings.acsUrl,
      entryPoint: settings.idp.ssoUrl,
      issuer: settings.spEntityId,
      audience: settings.spEntityId,
      idpCert: settings.idp.certs,
      idpIssuer: settings.idp.entityId,
      wantAuthnResponseSigned: true,
      wantAssertionsSigned: true,
      validateInResponseTo: ValidateInResponseTo.always,
      requestIdExpirationPeriodMs: REQUEST_TTL_MS,
      acceptedClockSkewMs: settings.clockSkewMs,
      maxAssertionAgeMs: MAX_ASSERTION_AGE_MS,
      identifierFormat: "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress",
      disableRequestedAuthnContext: true,
    });
  }

  /** The IdP URL that starts a sign-in; the request's ID is remembered for its response. */
  loginUrl(relayState: string): Promise<string> {
    return this.saml.getAuthorizeUrlAsync(relayState, undefined, {});
  }

  /** The SP metadata (entity id, ACS, NameID format). */
  metadata(): string {
    return this.saml.generateServiceProviderMetadata(null);
  }

  /** Validates an HTTP-POST SAMLResponse; the user's email when accepted. */
  async validate(samlResponse: string): Promise<{ email: string; profile: Profile }> {
    let root: Record<string, unknown> | undefined;
    try {
      const doc = xml.parse(Buffer.from(samlResponse, "base64").toString("utf8")) as Record<string, unknown>;
      root = doc.Response as Record<string, unknown> | undefined;
    } catch {
      root = undefined;
    }
    if (!root || typeof root !== "object") throw new SamlRefused("not a SAML Response");
    // node-saml does not check the Destination: a response meant for another service provider is refused here (the
    // response's signature, checked next, covers it).
    if (root["@Destination"] !== this.settings.acsUrl) {
      throw new SamlRefused(`Destination ${String(root["@Destination"])} is not ${this.settings.acsUrl}`);
    }
    let profile: Profile | null;
    try {
      ({ profile } = await this.saml.validatePostResponseAsync({ SAMLResponse: samlResponse }));
    } catch (error) {
      throw new SamlRefused((error as Error).message);
    }
    if (!profile) throw new SamlRefused("no profile");
    // node-saml checks `idpIssuer` on logout messages only: the (signed) assertion's Issuer, and the response's when
    // present, must be the IdP's entity id, or a response signed by the same key for another entity would pass.
    const responseIssuer = textOf(root.Issuer);
    if (profile.issuer !== this.settings.idp.entityId || (responseIssuer !== null && responseIssuer !== profile.issuer)) {
      throw new SamlRefused(`Issuer ${profile.issuer} / ${String(responseIssuer)} is not ${this.settings.idp.entityId}`);
    }
    const now = this.now();
    for (const [id, until] of this.seen) if (until <= now) this.seen.delete(id);
    const ids = [String(root["@ID"] ?? ""), String(profile.ID ?? "")].filter(Boolean);
    if (ids.some((id) => this.seen.has(id))) throw new SamlRefused("replayed response");
    for (const id of ids) this.seen.set(id, now + MAX_ASSERTION_AGE_MS + this.settings.clockSkewMs);

    const attribute = [profile.email, profile.mail, profile["urn:oid:0.9.2342.19200300.100.1.3"]].find(
      (v): v is string => typeof v === "string" && v.includes("@"),
    );
    const email = attribute ?? (profile.nameID.includes("@") ? profile.nameID : "");
    if (!email) throw new SamlRefused("no email in the assertion");
    return { email, profile };
  }
}

const providers = new WeakMap<SamlSettings, SamlServiceProvider>();

/** One service provider per configuration (it remembers the requests it issued). */
export function samlServiceProvider(settings: SamlSettings): SamlServiceProvider {
  let sp = providers.get(settings);
  if (!sp) {
    sp = new SamlServiceProvider(settings);
    providers.set(settings, sp);
  }
  return sp;
}

export type SamlVerifyParams = { email: string; context: AppLoadContext };

/**
 * remix-auth strategy "saml". A POST without SAMLResponse starts a sign-in (throws the redirect to the IdP, carrying
 * `redirectTo` as RelayState); a POST with SAMLResponse (the ACS) validates it and hands the email to `verify`.
 * RelayState must be a path on this site: anything else refuses the sign-in.
 */
export class SamlStrategy<User> extends Strategy<User, SamlVerifyParams> {
  name = "saml";

  constructor(verify: StrategyVerifyCallback<User, SamlVerifyParams>) {
    super(verify);
  }

  async authenticate(request: Request, _sessionStorage: SessionStorage, options: AuthenticateOptions): Promise<User> {
    const context = options.context;
    const settings = context?.sso?.saml;
    if (!context || !settings) throw new SamlRefused("SAML is not configured");
    const sp = samlServiceProvider(settings);
    const form = await request.formData();
    const samlResponse = form.get("SAMLResponse");
    if (typeof samlResponse !== "string") {
      const url = await sp.loginUrl(safeRedirect(form.get("redirectTo")));
      throw new Response(null, { status: 302, headers: { Location: url } });
    }
    const relayState = form.get("RelayState");
    if (relayState !== null && (typeof relayState !== "string" || safeRedirect(relayState, "") !== relayState)) {
      throw new SamlRefused(`RelayState ${String(relayState)} is not a path on this site`);
    }
    const { email } = await sp.validate(samlResponse);
    return this.verify({ email, context });
  }
}
