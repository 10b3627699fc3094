/**
 * A test OpenID provider: oidc-provider (a certified OpenID Connect implementation) on a loopback port, with one
 * confidential client and a sign-in page that asks for an email (any email: the account is the email). Consent is
 * given with the sign-in. Works without JavaScript.
 */
import http from "node:http";
import Provider from "oidc-provider";

export type OidcIdpOptions = {
  port: number;
  host?: string;
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
};

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export type OidcIdp = { issuer: string; server: http.Server; close(): Promise<void> };

export async function startOidcIdp(options: OidcIdpOptions): Promise<OidcIdp> {
  const host = options.host ?? "127.0.0.1";
  // Port 0: any free port (the issuer is known once listening).
  const server = http.createServer((req, res) => handle(req, res));
  await new Promise<void>((resolve) => server.listen(options.port, host, () => resolve()));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  const issuer = `http://${host}:${port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    pkce: { required: () => true },
    scopes: ["openid", "email", "profile"],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["given_name", "family_name", "name"] },
    findAccount: async (_ctx, sub) => ({
      accountId: sub,
      claims: async () => ({ sub, email: sub, email_verified: true }),
    }),
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    cookies: { keys: ["test-oidc-provider-cookie-key-0123456789"] },
  });
  const callback = provider.callback();

  function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? "/", issuer);
    const match = /^\/interaction\/([^/]+)$/.exec(url.pathname);
    if (url.pathname === "/healthz") {
      res.writeHead(200, { "Content-Type": "text/plain" });
      res.end("ok");
      return;
    }
    if (!match) return callback(req, res);
    void (async () => {
      try {
        const details = await provider.interactionDetails(req, res);
        if (req.method === "GET") {
          res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
          res.end(
            `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test OpenID provider</title></head><body><main>` +
              `<h1>Test OpenID provider</h1><form method="post" action="/interaction/${esc(details.uid)}">` +
              `<label for="email">Email</label> <input id="email" name="email" type="email" required> ` +
              `<button type="submit">Sign in</button></form></main></body></html>`,
          );
          return;
        }
        let body = "";
        for await (const chunk of req) body += (chunk as Buffer).toString("utf8");
        const email = new URLSearchParams(body).get("email")?.trim() ?? "";
        if (!email) {
          res.writeHead(400, { "Content-Type": "text/plain" });
          res.end("email required");
          return;
        }
        const grant = new provider.Grant({ accountId: email, clientId: details.params.client_id ?? "" });
        grant.addOIDCScope(details.params.scope ?? "openid");
        const grantId = await grant.save();
        await provider.interactionFinished(
          req,
          res,
          { login: { accountId: email }, consent: { grantId } },
          { mergeWithLastSubmission: false },
        );
      } catch (error) {
        res.writeHead(400, { "Content-Type": "text/plain" });
        res.end(`interaction failed: ${(error as Error).message}`);
      }
    })();
  }
  return {
    issuer,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
