/**
 * The one process: Express with security headers, compression, request logging, static assets, the form guard and the
 * Remix handler (server/guard.ts, server/remix-adapter.ts),
 * `/api` → the embedded upstream (bearer token only), `/healthz`, graceful shutdown.
 */
import { randomBytes } from "node:crypto";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { getRequestListener } from "@hono/node-server";
import type { AppLoadContext, ServerBuild } from "@remix-run/node";
import compression from "compression";
import { compressionFilter } from "./server/event-stream";
import express, { type Request as ExpressRequest, type Response as ExpressResponse } from "express";
import expressStaticGzip from "express-static-gzip";
import helmet from "helmet";
import morgan from "morgan";
import { loadIdpMetadata } from "./app/auth/saml-idp.server";
import { readSession } from "./app/auth/session.server";
import type { SsoContext } from "./app/auth/sso-context";
import { ConfigError, loadConfig, type Config } from "./app/lib/config.server";
import type { UpstreamFetch } from "./app/lib/context";
import { GZIP_LEVEL } from "./server/document-encoding";
import { createFormGuard } from "./server/guard";
import { lingerIfAnsweredEarly } from "./server/linger";
import { createApiUploadGuard, uploadRoom } from "./server/upload-room";
import { createRequestHandler, requestOrigin } from "./server/remix-adapter";
import { embeddedTransport, httpTransport } from "./server/upstream-transport";
import { createUpstream, type Upstream } from "./upstream/src/app";
import { dataDirProblem } from "./upstream/src/db";

let config: Config;
try {
  config = loadConfig(process.env);
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
// In development the optional settings a first start lacks are one line of information, not a wall of warnings; in
// production each one that is missing is a warning of its own.
const unset: string[] = [];
if (config.generatedSecret) {
  if (config.mode === "production") console.warn("SESSION_SECRET is not set: using a random one for this run (sessions end when the server restarts).");
  else unset.push("SESSION_SECRET (a random one each start)");
}

// ---------------------------------------------------------------- single sign-on
/** What the routes need (README "Single sign-on"); the IdP metadata is read once, here. */
let sso: SsoContext | undefined;
if (config.sso) {
  // Embedded: a service credential shared in-process, new each start, unless one is set.
  const serviceSecret = config.sso.serviceSecret ?? randomBytes(32).toString("hex");
  let saml: SsoContext["saml"] = null;
  if (config.sso.saml) {
    try {
      saml = {
        spEntityId: config.sso.saml.spEntityId,
        acsUrl: `${config.sso.publicUrl}/saml-callback.html`,
        idp: loadIdpMetadata(config.sso.saml.metadataFile),
        clockSkewMs: config.sso.saml.clockSkewMs,
      };
    } catch (error) {
      console.error(`Invalid configuration:\n  ${(error as Error).message}`);
      process.exit(1);
    }
  }
  sso = { publicUrl: config.sso.publicUrl, serviceSecret, saml };
}
/** Where the sign-in buttons' forms lead (Content-Security-Policy form-action follows redirects). */
const ssoOrigins = [config.sso?.oidc?.issuer, sso?.saml?.idp.ssoUrl].flatMap((u) => (u ? [new URL(u).origin] : []));

// ---------------------------------------------------------------- upstream
let embedded: Upstream | null = null;
let upstream: UpstreamFetch;
if (config.upstreamUrl) {
  upstream = httpTransport(config.upstreamUrl);
} else {
  // A DATA_DIR the server cannot write (a read-only mount, a path under a file, a full disk): one line, no stack.
  const unwritable = dataDirProblem(config.dataDir);
  if (unwritable) {
    console.error(unwritable);
    process.exit(1);
  }
  embedded = createUpstream({
    dataDir: config.dataDir,
    adminEmail: config.adminEmail,
    adminPassword: config.adminPassword,
    feedbackUrl: config.feedbackUrl,
    queues: config.queues,
    portfolioDemo: config.portfolioDemo,
    sso: sso
      ? {
          serviceSecret: sso.serviceSecret,
          oidc: config.sso?.oidc ?? undefined,
          saml: sso.saml ? { label: "Sign in with OKTA" } : undefined,
        }
      : undefined,
  });
  upstream = embeddedTransport(embedded);
}

// Say at start-up which external system is not configured (the dashboards say it too).
if (embedded && config.queues.missing.length) {
  if (config.mode === "production") console.warn(config.queues.missing.join("\n"));
  else unset.push("the patent office and docket system (USPTO_*, FIP_*: the dashboards say what is missing)");
}
if (unset.length) console.log(`Not configured, as usual in development: ${unset.join("; ")}. README, "Configuration".`);

// ---------------------------------------------------------------- remix build
/** The build: BUILD_DIR (default ./build) holds index.js (Remix), client/ (browser assets) and server.js (this file). */
const BUILD_DIR = path.resolve(process.env.BUILD_DIR || "build");
const BUILD_PATH = path.join(BUILD_DIR, "index.js");
let build: ServerBuild | null = null;
let buildStamp = 0;
/** The Remix build; in development re-imported whenever `remix watch` rewrites it. */
async function getBuild(): Promise<ServerBuild> {
  if (build && config.mode === "production") return build;
  const stamp = statSync(BUILD_PATH).mtimeMs;
  if (!build || stamp !== buildStamp) {
    build = (await import(`${pathToFileURL(BUILD_PATH).href}?t=${stamp}`)) as ServerBuild;
    buildStamp = stamp;
  }
  return build;
}
await getBuild();

// ---------------------------------------------------------------- express
const app = express();
app.disable("x-powered-by");
if (config.trustProxy) {
  const t = config.trustProxy;
  app.set("trust proxy", t === "true" ? true : /^\d+$/.test(t) ? Number(t) : t);
}

app.use((_req, res, next) => {
  res.locals.cspNonce = randomBytes(16).toString("base64");
  next();
});
app.use(
  helmet({
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        "default-src": ["'self'"],
        "script-src": ["'self'", (_req, res) => `'nonce-${(res as ExpressResponse).locals.cspNonce as string}'`],
        // React `style` attributes (and later the graph and code editors) need inline styles; scripts never do.
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:", "blob:"],
        "font-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "worker-src": ["'self'", "blob:"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'", ...ssoOrigins],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "upgrade-insecure-requests": config.cookieSecure ? [] : null,
      },
    },
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    crossOriginEmbedderPolicy: false,
    // Not sent: Chromium already keys agent clusters by origin (document.domain is off) and other engines ignore the
    // header, so all `?1` still did was ask for an origin-keyed process, which Chromium can only start once the answer
    // is in: ~28 ms before every first paint of a tab arriving from another site (docs/decisions/scripts-after-paint.md).
    originAgentCluster: false,
    strictTransportSecurity: config.cookieSecure ? undefined : false,
  }),
);
// Everything but a rendered page: data requests, assets, the API, errors. A page is compressed once, as one body, by
// the adapter (server/document-encoding.ts) and passes through here already encoded. Same level.
app.use(compression({ level: GZIP_LEVEL, filter: compressionFilter }));
if (config.logRequests) {
  app.use(morgan(config.mode === "production" ? "combined" : "dev"));
}

app.get("/healthz", async (_req, res) => {
  try {
    // The embedded upstream says why it is unhealthy (a lost database file, a full disk): the operator reads it here.
    const report: { ok: boolean; reason?: string } = embedded
      ? embedded.healthReport()
      : { ok: (await upstream("/api/auth/", { method: "GET" })).ok };
    res.status(report.ok ? 200 : 503).json(report.ok ? { status: "ok" } : { status: "unavailable", reason: report.reason });
  } catch {
    res.status(503).json({ status: "unavailable" });
  }
});

// Upload bodies held at once, pages and API together (server/byte-budget.ts): each copy of a large upload costs memory.
const room = uploadRoom(config.uploads);

if (embedded) {
  const up = embedded;
  // The upstream reads the bearer token only: cookies never reach it.
  const listener = getRequestListener((request, env) => {
    const headers = new Headers(request.headers);
    headers.delete("cookie");
    headers.delete("x-client-address");
    const incoming = (env as { incoming?: { socket?: { remoteAddress?: string } } }).incoming;
    return up.fetch(new Request(request, { headers }), {
      trusted: false,
      clientAddress: incoming?.socket?.remoteAddress ?? "unknown",
    });
  });
  // An upload the upstream would refuse (no valid bearer token, no permission) is answered before it takes room.
  app.all(["/api", "/api/*"], createApiUploadGuard(room, (request) => up.uploadRefusal(request)), (req, res) => {
    lingerIfAnsweredEarly(req, res);
    void listener(req, res);
  });
}

app.get("/favicon.ico", (_req, res) => res.redirect(301, "/favicon.svg"));
// Assets go out as the build compressed them (scripts/precompress.mjs: brotli 11 and gzip 9 beside each file, listed
// once at start), not through the middleware's per-request compression on this thread; a file without a copy still
// gets that. docs/decisions/page-render-cost.md, "Assets compressed once, at build time".
const staticFiles = (root: string, maxAge: string, immutable: boolean) =>
  expressStaticGzip(root, {
    enableBrotli: true,
    orderPreference: ["br", "gzip"],
    index: false,
    serveStatic: { immutable, maxAge, index: false },
  });
app.use("/build", staticFiles(path.join(BUILD_DIR, "client"), "1y", true));
// public/ (favicon, the local Monaco copy) by its top-level names, read once: a page request never costs a stat.
const publicNames = new Set(readdirSync("public"));
const publicFiles = staticFiles("public", "1h", false);
app.use((req, res, next) => {
  const first = req.path.split("/", 2)[1] ?? "";
  if (publicNames.has(first)) publicFiles(req, res, next);
  else next();
});

const remixHandler = createRequestHandler({
  // Production: the build object itself, so Remix derives its routes and data handler once. Given a function, it
  // derives them again on every request (route trees rebuilt per page); development re-reads the build.
  build: config.mode === "production" ? await getBuild() : getBuild,
  mode: config.mode,
  // A new object per request: per-request work (the session decode) is shared by a page's loaders through it.
  getLoadContext: (req: ExpressRequest, res: ExpressResponse): AppLoadContext => ({
    upstream,
    nonce: res.locals.cspNonce as string,
    clientAddress: req.ip ?? req.socket.remoteAddress ?? "unknown",
    sessionSecrets: config.sessionSecrets,
    cookieSecure: config.cookieSecure,
    sso,
  }),
});
// Every page request with a body: same origin, bounded, a well-formed form (server/guard.ts); GET and HEAD pass.
// PUBLIC_URL (validated by loadConfig) is the site's origin when set; else each request's own, if its host name is
// one of ALLOWED_HOSTS (production requires one of the two).
const sessionContext = { upstream, sessionSecrets: config.sessionSecrets, cookieSecure: config.cookieSecure, clientAddress: "" };
const formGuard = createFormGuard({
  publicOrigin: config.publicUrl ? new URL(config.publicUrl).origin : undefined,
  allowedHosts: config.allowedHosts ? new Set(config.allowedHosts) : undefined,
  requestOrigin,
  room,
  // The session's permissions from its cookie alone (signature, token expiry), as the routes' guards read them first.
  sessionPermissions: async (cookie) => {
    const request = new Request("http://session.invalid/", { headers: cookie ? { cookie } : {} });
    return (await readSession(request, sessionContext)).identity?.permissions ?? null;
  },
});
app.all("*", formGuard, (req, res, next) => {
  void remixHandler(req, res, next);
});

// ---------------------------------------------------------------- start and stop
const server = app.listen(config.port, config.host, () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  const url = `http://localhost:${port}`;
  console.log(`Backoffice listening on ${url} (${config.mode}, upstream: ${config.upstreamUrl ?? "embedded"})`);
  if (embedded?.seeded) {
    console.log(
      `Created the administrator. Sign in at ${url}/login as ${embedded.seeded.email} with password ${embedded.seeded.password}`,
    );
  }
});

let stopping = false;
function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: closing connections`);
  const force = setTimeout(() => {
    console.error("Connections still open after 10 s: exiting anyway");
    process.exit(1);
  }, 10_000);
  force.unref();
  server.close(() => {
    embedded?.close();
    process.exit(0);
  });
  server.closeIdleConnections();
}
process.on("SIGTERM", () => shutdown("SIGTERM"));
process.on("SIGINT", () => shutdown("SIGINT"));
