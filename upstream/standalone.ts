/**
 * Runs the embedded upstream alone over HTTP, for operators testing the back office's `UPSTREAM_URL` mode:
 *   PORT=4000 DATA_DIR=./data ADMIN_EMAIL=admin@example.com npx tsx upstream/standalone.ts
 * Single sign-on as the back office's README describes: SSO_SERVICE_SECRET (the same value on both sides), the
 * OIDC_* provider, and SAML_LABEL to list the SAML button (the SAML service provider itself runs in the back office).
 */
import { serve } from "@hono/node-server";
import { z } from "zod";
import { createUpstream } from "./src/app";

const Env = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  DATA_DIR: z.string().min(1).default("./data"),
  ADMIN_EMAIL: z.string().email().optional(),
  ADMIN_PASSWORD: z.string().min(6).optional(),
  FEEDBACK_URL: z.string().url().optional(),
  UPSTREAM_JWT_SECRET: z.string().min(32).optional(),
  SSO_SERVICE_SECRET: z.string().min(32).optional(),
  OIDC_ISSUER: z.string().url().optional(),
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  OIDC_LABEL: z.string().optional(),
  SAML_LABEL: z.string().optional(),
});

const emptyToUndefined = Object.fromEntries(Object.entries(process.env).map(([k, v]) => [k, v === "" ? undefined : v]));
const parsed = Env.safeParse(emptyToUndefined);
if (!parsed.success) {
  for (const issue of parsed.error.issues) console.error(`${issue.path.join(".")}: ${issue.message}`);
  process.exit(1);
}
const env = parsed.data;

const oidc =
  env.OIDC_ISSUER && env.OIDC_CLIENT_ID && env.OIDC_CLIENT_SECRET
    ? {
        issuer: env.OIDC_ISSUER,
        clientId: env.OIDC_CLIENT_ID,
        clientSecret: env.OIDC_CLIENT_SECRET,
        label: env.OIDC_LABEL ?? "Sign in with Microsoft",
        allowHttp: ["localhost", "127.0.0.1", "[::1]"].includes(new URL(env.OIDC_ISSUER).hostname),
      }
    : undefined;
if ((oidc || env.SAML_LABEL) && !env.SSO_SERVICE_SECRET) {
  console.error("SSO_SERVICE_SECRET: is required when single sign-on is configured (the back office sends the same value)");
  process.exit(1);
}

const upstream = createUpstream({
  dataDir: env.DATA_DIR,
  adminEmail: env.ADMIN_EMAIL,
  adminPassword: env.ADMIN_PASSWORD,
  feedbackUrl: env.FEEDBACK_URL,
  jwtSecret: env.UPSTREAM_JWT_SECRET,
  sso:
    oidc || env.SAML_LABEL
      ? { serviceSecret: env.SSO_SERVICE_SECRET, oidc, saml: env.SAML_LABEL ? { label: env.SAML_LABEL } : undefined }
      : undefined,
});

if (upstream.seeded) {
  console.log(`Created the administrator ${upstream.seeded.email} with password: ${upstream.seeded.password}`);
}

const server = serve(
  {
    port: env.PORT,
    // Over a socket nobody is trusted: X-Client-Address is ignored, the peer address is used for rate limits.
    fetch: (request, node) =>
      upstream.fetch(request, { trusted: false, clientAddress: node.incoming.socket.remoteAddress }),
  },
  (info) => console.log(`Upstream listening on http://localhost:${info.port} (data in ${env.DATA_DIR})`),
);

function shutdown(signal: string) {
  console.log(`${signal}: shutting down`);
  server.close(() => {
    upstream.close();
    process.exit(0);
  });
  setTimeout(() => {
    upstream.close();
    process.exit(1);
  }, 10_000).unref();
}
process.on("SIGINT", () => shutdown("SIGINT"));
process.on("SIGTERM", () => shutdown("SIGTERM"));
