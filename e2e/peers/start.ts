/**
 * Starts the test identity providers for the e2e server (playwright.config.ts `webServer`): the OpenID provider on
 * OIDC_IDP_PORT and the SAML IdP on SAML_IDP_PORT, the latter's metadata written to SAML_IDP_METADATA_OUT (the e2e
 * server reads it at start). Both answer GET /healthz.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { startOidcIdp } from "./oidc-idp";
import { createTestIdp, serveSamlIdp } from "./saml-idp";
import { startDemoServers } from "../../upstream/src/patent-office/demo";

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

const appUrl = env("APP_URL");
const oidc = await startOidcIdp({
  port: Number(env("OIDC_IDP_PORT")),
  clientId: env("OIDC_CLIENT_ID"),
  clientSecret: env("OIDC_CLIENT_SECRET"),
  redirectUris: [`${appUrl}/microsoft.html`],
});
const samlPort = Number(env("SAML_IDP_PORT"));
const idp = await createTestIdp(`http://127.0.0.1:${samlPort}`);
const out = env("SAML_IDP_METADATA_OUT");
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, idp.metadata);
const saml = await serveSamlIdp(idp, samlPort);
console.log(`test identity providers: OpenID ${oidc.issuer}, SAML ${idp.ssoUrl}`);
// The fake patent office and docket system (upstream/src/patent-office/demo.ts).
const offices = await startDemoServers({ office: Number(env("FAKE_OFFICE_PORT")), docket: Number(env("FAKE_DOCKET_PORT")) });

const stop = () => {
  saml.close();
  void offices.office.close();
  void offices.docket.close();
  void oidc.close().then(() => process.exit(0));
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
