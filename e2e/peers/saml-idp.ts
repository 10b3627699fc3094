/**
 * A test SAML 2.0 identity provider: it signs real responses (XML-DSig, RSA-SHA256, via samlify's SamlLib) with a
 * certificate generated at start (selfsigned). The integration tests build good and bad responses with `respond()`;
 * `serveSamlIdp()` puts it on a loopback port for the browser (HTTP-Redirect in, HTTP-POST out, no JavaScript).
 */
import { randomUUID } from "node:crypto";
import http from "node:http";
import { inflateRawSync } from "node:zlib";
import { XMLParser } from "fast-xml-parser";
import samlify from "samlify";
import { generate } from "selfsigned";

export type KeyPair = { privateKey: string; cert: string };

export async function generateKeyPair(commonName = "test-idp"): Promise<KeyPair> {
  const pems = await generate([{ name: "commonName", value: commonName }], { keySize: 2048, algorithm: "sha256", notAfterDate: new Date(Date.now() + 2 * 86_400_000) });
  return { privateKey: pems.private, cert: pems.cert };
}

const certBody = (pem: string) => pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, "").replace(/\s+/g, "");
const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const iso = (ms: number) => new Date(ms).toISOString();

export type ResponseOptions = {
  email: string;
  /** The AuthnRequest's ID; left out: an unsolicited response. */
  inResponseTo?: string;
  destination: string;
  audience: string;
  /** Defaults to the IdP's entity id. */
  issuer?: string;
  /** The assertion's clock, ms; default now. */
  issuedAt?: number;
  /** Lifetime of the assertion from issuedAt, ms; default 5 minutes. */
  validForMs?: number;
  /** "both" (default): assertion then response signed; "none"; "assertion" or "response" only; with `key`, another key. */
  sign?: "both" | "none" | "assertion" | "response";
  /** Sign with this key instead of the IdP's (a wrongly signed response). */
  key?: KeyPair;
  /** Alter the signed XML (tampering). */
  tamper?: (xml: string) => string;
};

export type AuthnRequestInfo = { id: string; acsUrl: string; issuer: string; relayState: string | null };

export type TestIdp = {
  entityId: string;
  ssoUrl: string;
  keys: KeyPair;
  metadata: string;
  /** A base64 SAMLResponse for the HTTP-POST binding. */
  respond(options: ResponseOptions): string;
  /** Reads an HTTP-Redirect AuthnRequest from its URL (or query). */
  parseRequest(url: string): AuthnRequestInfo;
};

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@", removeNSPrefix: true });

export async function createTestIdp(baseUrl: string, keys?: KeyPair): Promise<TestIdp> {
  const entityId = `${baseUrl}/metadata`;
  const ssoUrl = `${baseUrl}/sso`;
  const pair = keys ?? (await generateKeyPair());
  const metadata = `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${esc(entityId)}">
  <md:IDPSSODescriptor WantAuthnRequestsSigned="false" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${certBody(pair.cert)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
    <md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${esc(ssoUrl)}"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;

  function sign(xml: string, which: "assertion" | "response", key: KeyPair): string {
    // samlify is CommonJS: its named exports are read from the default one under Node's ESM loader.
    return samlify.SamlLib.constructSAMLSignature({
      rawSamlMessage: xml,
      privateKey: key.privateKey,
      signingCert: certBody(key.cert),
      signatureAlgorithm: "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
      isBase64Output: false,
      ...(which === "assertion"
        ? {
            referenceTagXPath: "/*[local-name(.)='Response']/*[local-name(.)='Assertion']",
            signatureConfig: {
              prefix: "ds",
              location: { reference: "/*[local-name(.)='Response']/*[local-name(.)='Assertion']/*[local-name(.)='Issuer']", action: "after" },
            },
          }
        : {
            isMessageSigned: true,
            signatureConfig: {
              prefix: "ds",
              location: { reference: "/*[local-name(.)='Response']/*[local-name(.)='Issuer']", action: "after" },
            },
          }),
    });
  }

  return {
    entityId,
    ssoUrl,
    keys: pair,
    metadata,
    respond(o) {
      const at = o.issuedAt ?? Date.now();
      const until = at + (o.validForMs ?? 5 * 60_000);
      const issuer = esc(o.issuer ?? entityId);
      const irt = o.inResponseTo ? ` InResponseTo="${esc(o.inResponseTo)}"` : "";
      let xml =
        `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ` +
        `ID="_r${randomUUID()}" Version="2.0" IssueInstant="${iso(at)}" Destination="${esc(o.destination)}"${irt}>` +
        `<saml:Issuer>${issuer}</saml:Issuer>` +
        `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
        `<saml:Assertion ID="_a${randomUUID()}" Version="2.0" IssueInstant="${iso(at)}">` +
        `<saml:Issuer>${issuer}</saml:Issuer>` +
        `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${esc(o.email)}</saml:NameID>` +
        `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
        `<saml:SubjectConfirmationData NotOnOrAfter="${iso(until)}" Recipient="${esc(o.destination)}"${irt}/>` +
        `</saml:SubjectConfirmation></saml:Subject>` +
        `<saml:Conditions NotBefore="${iso(at - 1000)}" NotOnOrAfter="${iso(until)}">` +
        `<saml:AudienceRestriction><saml:Audience>${esc(o.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
        `<saml:AuthnStatement AuthnInstant="${iso(at)}" SessionIndex="_s${randomUUID()}"><saml:AuthnContext>` +
        `<saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef>` +
        `</saml:AuthnContext></saml:AuthnStatement>` +
        `</saml:Assertion></samlp:Response>`;
      const mode = o.sign ?? "both";
      const key = o.key ?? pair;
      if (mode === "both" || mode === "assertion") xml = sign(xml, "assertion", key);
      if (mode === "both" || mode === "response") xml = sign(xml, "response", key);
      if (o.tamper) xml = o.tamper(xml);
      return Buffer.from(xml, "utf8").toString("base64");
    },
    parseRequest(url) {
      const query = new URL(url, baseUrl).searchParams;
      const raw = inflateRawSync(Buffer.from(query.get("SAMLRequest") ?? "", "base64")).toString("utf8");
      const doc = parser.parse(raw) as { AuthnRequest?: Record<string, unknown> };
      const req = doc.AuthnRequest;
      if (!req) throw new Error("not an AuthnRequest");
      const issuer = req.Issuer;
      return {
        id: String(req["@ID"]),
        acsUrl: String(req["@AssertionConsumerServiceURL"] ?? ""),
        issuer: typeof issuer === "string" ? issuer : String((issuer as Record<string, unknown>)?.["#text"] ?? ""),
        relayState: query.get("RelayState"),
      };
    },
  };
}

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title></head>` +
  `<body><main><h1>${esc(title)}</h1>${body}</main></body></html>`;

/**
 * Serves the IdP: GET /metadata; GET /sso (the AuthnRequest) shows a sign-in form asking for the email; POST /sso
 * answers a page whose form posts the signed response to the service provider's ACS (a "Continue" button: no
 * JavaScript needed). The audience is the requesting SP's Issuer, the destination its ACS URL.
 */
export function serveSamlIdp(idp: TestIdp, port: number, host = "127.0.0.1"): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", `http://${host}:${port}`);
    const send = (status: number, type: string, body: string) => {
      res.writeHead(status, { "Content-Type": type });
      res.end(body);
    };
    if (req.method === "GET" && url.pathname === "/metadata") return send(200, "application/samlmetadata+xml", idp.metadata);
    if (req.method === "GET" && url.pathname === "/healthz") return send(200, "text/plain", "ok");
    if (req.method === "GET" && url.pathname === "/sso") {
      let info: AuthnRequestInfo;
      try {
        info = idp.parseRequest(url.href);
      } catch (error) {
        return send(400, "text/plain", `Bad AuthnRequest: ${(error as Error).message}`);
      }
      const hidden = (name: string, value: string | null) =>
        value === null ? "" : `<input type="hidden" name="${name}" value="${esc(value)}">`;
      return send(
        200,
        "text/html; charset=utf-8",
        page(
          "Test identity provider",
          `<form method="post" action="/sso">${hidden("id", info.id)}${hidden("acs", info.acsUrl)}${hidden("sp", info.issuer)}` +
            `${hidden("RelayState", info.relayState)}<label for="email">Email</label> <input id="email" name="email" type="email" required>` +
            ` <button type="submit">Sign in</button></form>`,
        ),
      );
    }
    if (req.method === "POST" && url.pathname === "/sso") {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
      req.on("end", () => {
        const form = new URLSearchParams(body);
        const acs = form.get("acs") ?? "";
        const samlResponse = idp.respond({
          email: form.get("email") ?? "",
          inResponseTo: form.get("id") ?? undefined,
          destination: acs,
          audience: form.get("sp") ?? "",
        });
        const relay = form.get("RelayState");
        send(
          200,
          "text/html; charset=utf-8",
          page(
            "Signed in at the identity provider",
            `<form method="post" action="${esc(acs)}"><input type="hidden" name="SAMLResponse" value="${samlResponse}">` +
              (relay === null ? "" : `<input type="hidden" name="RelayState" value="${esc(relay)}">`) +
              `<button type="submit">Continue</button></form>`,
          ),
        );
      });
      return;
    }
    send(404, "text/plain", "Not found");
  });
  return new Promise((resolve) => server.listen(port, host, () => resolve(server)));
}
