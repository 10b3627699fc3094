import { readFileSync } from "node:fs";
import { XMLParser } from "fast-xml-parser";
import type { SamlIdp } from "./sso-context";

const REDIRECT_BINDING = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect";

type Node = Record<string, unknown>;
const list = (v: unknown): Node[] => (v === undefined ? [] : (Array.isArray(v) ? v : [v]) as Node[]);
const text = (v: unknown): string =>
  typeof v === "string" ? v : v && typeof v === "object" && "#text" in v ? String((v as Node)["#text"]) : "";

/**
 * The identity provider's metadata (SAML 2.0 metadata XML): its entity id, its HTTP-Redirect SingleSignOnService and
 * its signing certificates. Throws with a readable message when something is missing.
 */
export function parseIdpMetadata(xml: string): SamlIdp {
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@", removeNSPrefix: true });
  const doc = parser.parse(xml) as Node;
  const entity = list(doc.EntityDescriptor)[0] ?? list(list(doc.EntitiesDescriptor)[0]?.EntityDescriptor)[0];
  if (!entity) throw new Error("no EntityDescriptor");
  const entityId = String(entity["@entityID"] ?? "");
  const idp = list(entity.IDPSSODescriptor)[0];
  if (!entityId || !idp) throw new Error("no entityID or IDPSSODescriptor");
  const sso = list(idp.SingleSignOnService).find((s) => s["@Binding"] === REDIRECT_BINDING);
  const ssoUrl = String(sso?.["@Location"] ?? "");
  if (!ssoUrl) throw new Error("no SingleSignOnService with the HTTP-Redirect binding");
  const certs = list(idp.KeyDescriptor)
    .filter((k) => k["@use"] === undefined || k["@use"] === "signing")
    .flatMap((k) => list(list(k.KeyInfo)[0]?.X509Data).flatMap((d) => list(d.X509Certificate)))
    .map((c) => text(c).replace(/\s+/g, ""))
    .filter(Boolean);
  if (certs.length === 0) throw new Error("no signing certificate");
  return { entityId, ssoUrl, certs };
}

/** Reads and parses the metadata file once (at start-up). */
export function loadIdpMetadata(file: string): SamlIdp {
  let xml: string;
  try {
    xml = readFileSync(file, "utf8");
  } catch (error) {
    throw new Error(`SAML_IDP_METADATA: cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    return parseIdpMetadata(xml);
  } catch (error) {
    throw new Error(`SAML_IDP_METADATA: ${file} is not usable IdP metadata: ${(error as Error).message}`);
  }
}
