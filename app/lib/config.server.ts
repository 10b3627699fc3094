import { randomBytes } from "node:crypto";
import { z } from "zod";

/** An empty environment variable counts as unset. */
const optional = <T extends z.ZodTypeAny>(schema: T) =>
  z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : v), schema.optional());

/** A host name as URL's `hostname` gives it: a DNS name, an IPv4 address or a bracketed IPv6 address. */
const HOST_NAME = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])$/;

const Env = z.object({
  NODE_ENV: optional(z.enum(["development", "production", "test"])).transform((v) => v ?? "development"),
  PORT: optional(z.coerce.number().int().min(0).max(65535)).transform((v) => v ?? 3000),
  HOST: optional(z.string()).transform((v) => v ?? "0.0.0.0"),
  DATA_DIR: optional(z.string()).transform((v) => v ?? "./data"),
  SESSION_SECRET: optional(
    z
      .string()
      .transform((v) => v.split(",").map((s) => s.trim()).filter(Boolean))
      .refine((list) => list.length > 0 && list.every((s) => s.length >= 16), {
        message: "must be a comma-separated list of secrets of at least 16 characters each, newest first",
      }),
  ),
  UPSTREAM_URL: optional(z.string().url({ message: "must be a URL such as https://api.example.com" })),
  ADMIN_EMAIL: optional(z.string().email({ message: "must be an email address" })).transform(
    (v) => v ?? "admin@backoffice.local",
  ),
  ADMIN_PASSWORD: optional(z.string().min(6, { message: "must be at least 6 characters long" })),
  FEEDBACK_URL: optional(z.string().url({ message: "must be a URL" })),
  // Demo portfolio applications added on a fresh database's first start (0: none).
  PORTFOLIO_DEMO: optional(z.coerce.number().int().min(0).max(100_000)).transform((v) => v ?? 3000),
  // Upload bodies held at once (server/guard.ts, server/byte-budget.ts) and how long an upload waits for room:
  // 128 MB, a backup (100 MB) and a template beside it; 60 s, as the refusal says ("Try again in a minute").
  UPLOAD_BUDGET_MB: optional(z.coerce.number().int().min(1).max(16_384)).transform((v) => v ?? 128),
  UPLOAD_WAIT_SECONDS: optional(z.coerce.number().int().min(1).max(600)).transform((v) => v ?? 60),
  COOKIE_SECURE: optional(z.enum(["true", "false"])),
  TRUST_PROXY: optional(z.string()),
  LOG_REQUESTS: optional(z.enum(["true", "false"])),
  // The site's origin: the same-origin check of every form post (server/guard.ts) and single sign-on's callbacks.
  PUBLIC_URL: optional(z.string().url({ message: "must be the back office's public URL, such as https://backoffice.example.com" })),
  // Without PUBLIC_URL, the host names a form may be posted to (server/guard.ts): not the Host header's say-so.
  ALLOWED_HOSTS: optional(
    z
      .string()
      .transform((v) => v.split(",").map((s) => s.trim().toLowerCase()).filter(Boolean))
      .refine((list) => list.length > 0 && list.every((h) => HOST_NAME.test(h)), {
        message: "must be a comma-separated list of host names, such as backoffice.example.com,backoffice (no scheme, port or path)",
      }),
  ),
  SSO_SERVICE_SECRET: optional(z.string().min(32, { message: "must be at least 32 characters long" })),
  OIDC_ISSUER: optional(z.string().url({ message: "must be the OpenID provider's issuer URL" })),
  OIDC_CLIENT_ID: optional(z.string()),
  OIDC_CLIENT_SECRET: optional(z.string()),
  OIDC_LABEL: optional(z.string()),
  SAML_IDP_METADATA: optional(z.string()),
  SAML_SP_ENTITY_ID: optional(z.string().min(1)),
  SAML_CLOCK_SKEW_SECONDS: optional(z.coerce.number().int().min(0).max(300)),
  // The patent office (USPTO Open Data Portal-shaped API), the docket system (FIP), the queue workers.
  USPTO_API_URL: optional(z.string().url({ message: "must be the patent office API's base URL, such as https://api.uspto.gov" })),
  USPTO_API_KEY: optional(z.string().max(500)),
  USPTO_CUSTOMER_NUMBERS: optional(
    z
      .string()
      .transform((v) => v.split(",").map((s) => s.trim()).filter(Boolean))
      .refine((list) => list.every((s) => /^\d{1,12}$/.test(s)), { message: "must be a comma-separated list of customer numbers (digits)" }),
  ),
  FIP_API_URL: optional(z.string().url({ message: "must be the docket system API's base URL" })),
  FIP_API_KEY: optional(z.string().max(500)),
  FIP_MATTER_URL: optional(
    z
      .string()
      .url({ message: "must be a URL with {id} where the matter id goes" })
      .refine((v) => /^https?:\/\//i.test(v), { message: "must be an http or https URL" })
      .refine((v) => v.includes("{id}"), { message: "must contain {id} where the matter id goes" }),
  ),
  QUEUE_CONCURRENCY: optional(z.coerce.number().int().min(0).max(32)),
});

/** The job queues' external systems (null parts: not configured; the dashboards say what is missing). */
type QueueConfig = {
  office: { baseUrl?: string; apiKey?: string };
  docket: { baseUrl?: string; apiKey?: string; matterUrlTemplate?: string };
  customerNumbers: string[];
  concurrency: number;
  /** One line per missing setting, for the start-up log. */
  missing: string[];
};

/** Single sign-on settings (null parts: not configured, no button). */
type SsoConfig = {
  /** The back office's public origin, without a trailing slash: the callbacks and the SAML endpoints hang off it. */
  publicUrl: string;
  /** The service credential of the upstream's server-to-server calls; generated per start when embedded and unset. */
  serviceSecret: string | undefined;
  oidc: { issuer: string; clientId: string; clientSecret: string; label: string; allowHttp: boolean } | null;
  saml: { metadataFile: string; spEntityId: string; clockSkewMs: number } | null;
};

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

export type Config = {
  mode: "development" | "production" | "test";
  port: number;
  host: string;
  dataDir: string;
  sessionSecrets: string[];
  /** True when the secret was generated for this run (development only). */
  generatedSecret: boolean;
  upstreamUrl: string | undefined;
  adminEmail: string;
  adminPassword: string | undefined;
  feedbackUrl: string | undefined;
  /** Demo portfolio applications seeded in the background on a fresh database's first start (0: none). */
  portfolioDemo: number;
  /** Upload bytes held at once, and how long an upload waits for room (server/guard.ts). */
  uploads: { bytes: number; waitMs: number };
  cookieSecure: boolean;
  trustProxy: string | undefined;
  logRequests: boolean;
  /** The site's origin (PUBLIC_URL without a trailing slash), when set. */
  publicUrl: string | undefined;
  /** Without PUBLIC_URL, the host names forms may be posted to (ALLOWED_HOSTS); undefined: any (development only). */
  allowedHosts: string[] | undefined;
  /** Null when neither provider is configured. */
  sso: SsoConfig | null;
  queues: QueueConfig;
};

export class ConfigError extends Error {}

/** Reads and validates the configuration. Throws ConfigError with every problem listed, one a line. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const parsed = Env.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  let sessionSecrets = e.SESSION_SECRET;
  let generatedSecret = false;
  if (!sessionSecrets) {
    if (e.NODE_ENV === "production") {
      throw new ConfigError(
        "Invalid configuration:\n  SESSION_SECRET: is required in production (a random string of at least 16 characters; " +
          "generate one with: node -e \"console.log(require('crypto').randomBytes(32).toString('hex'))\")",
      );
    }
    sessionSecrets = [randomBytes(32).toString("hex")];
    generatedSecret = true;
  }
  // Without either, the same-origin check of form posts can only compare Origin with the Host header, which a
  // DNS-rebinding page controls (its own name, resolved to this server).
  if (e.NODE_ENV === "production" && !e.PUBLIC_URL && !e.ALLOWED_HOSTS) {
    throw new ConfigError(
      "Invalid configuration:\n  PUBLIC_URL: is required in production (the site's URL, such as https://backoffice.example.com), " +
        "or ALLOWED_HOSTS (the host names it is served under, comma-separated)",
    );
  }
  return {
    queues: queueConfig(e),
    sso: ssoConfig(e),
    mode: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir: e.DATA_DIR,
    sessionSecrets,
    generatedSecret,
    upstreamUrl: e.UPSTREAM_URL,
    adminEmail: e.ADMIN_EMAIL,
    adminPassword: e.ADMIN_PASSWORD,
    feedbackUrl: e.FEEDBACK_URL,
    portfolioDemo: e.PORTFOLIO_DEMO,
    uploads: { bytes: e.UPLOAD_BUDGET_MB * 1024 * 1024, waitMs: e.UPLOAD_WAIT_SECONDS * 1000 },
    cookieSecure: e.COOKIE_SECURE ? e.COOKIE_SECURE === "true" : e.NODE_ENV === "production",
    trustProxy: e.TRUST_PROXY,
    logRequests: e.LOG_REQUESTS ? e.LOG_REQUESTS === "true" : e.NODE_ENV !== "test",
    publicUrl: e.PUBLIC_URL?.replace(/\/+$/, ""),
    allowedHosts: e.ALLOWED_HOSTS,
  };
}

function queueConfig(e: z.infer<typeof Env>): QueueConfig {
  const missing = [
    [e.USPTO_API_URL, "USPTO_API_URL is not set: USPTO downloads and processing fail until it is."],
    [e.USPTO_API_KEY, "USPTO_API_KEY is not set: USPTO downloads and processing fail until it is."],
    [e.USPTO_CUSTOMER_NUMBERS, "USPTO_CUSTOMER_NUMBERS is not set: the USPTO sync has no customer numbers to look for."],
    [e.FIP_API_URL, "FIP_API_URL is not set: FIP matters cannot be synchronized until it is."],
    [e.FIP_API_KEY, "FIP_API_KEY is not set: FIP matters cannot be synchronized until it is."],
  ].flatMap(([value, line]) => (value ? [] : [line as string]));
  return {
    office: { baseUrl: e.USPTO_API_URL, apiKey: e.USPTO_API_KEY },
    docket: { baseUrl: e.FIP_API_URL, apiKey: e.FIP_API_KEY, matterUrlTemplate: e.FIP_MATTER_URL },
    customerNumbers: e.USPTO_CUSTOMER_NUMBERS ?? [],
    concurrency: e.QUEUE_CONCURRENCY ?? 2,
    missing,
  };
}

function ssoConfig(e: z.infer<typeof Env>): SsoConfig | null {
  const problems: string[] = [];
  const oidcSet = [e.OIDC_ISSUER, e.OIDC_CLIENT_ID, e.OIDC_CLIENT_SECRET].filter((v) => v !== undefined).length;
  if (oidcSet > 0 && oidcSet < 3) {
    problems.push("  OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET: set all three, or none");
  }
  let allowHttp = false;
  if (e.OIDC_ISSUER) {
    const issuer = new URL(e.OIDC_ISSUER);
    allowHttp = issuer.protocol === "http:" && LOOPBACK.has(issuer.hostname);
    if (issuer.protocol !== "https:" && !allowHttp) problems.push("  OIDC_ISSUER: must be https (plain http only on loopback)");
  }
  const oidc = oidcSet === 3;
  const saml = e.SAML_IDP_METADATA !== undefined;
  if ((oidc || saml) && !e.PUBLIC_URL) problems.push("  PUBLIC_URL: is required when single sign-on is configured");
  if ((oidc || saml) && e.UPSTREAM_URL && !e.SSO_SERVICE_SECRET) {
    problems.push("  SSO_SERVICE_SECRET: is required with UPSTREAM_URL when single sign-on is configured (the upstream's)");
  }
  if (problems.length) throw new ConfigError(`Invalid configuration:\n${problems.join("\n")}`);
  if (!oidc && !saml) return null;
  const publicUrl = e.PUBLIC_URL!.replace(/\/+$/, "");
  return {
    publicUrl,
    serviceSecret: e.SSO_SERVICE_SECRET,
    oidc: oidc
      ? {
          issuer: e.OIDC_ISSUER!,
          clientId: e.OIDC_CLIENT_ID!,
          clientSecret: e.OIDC_CLIENT_SECRET!,
          label: e.OIDC_LABEL ?? "Sign in with Microsoft",
          allowHttp,
        }
      : null,
    saml: saml
      ? {
          metadataFile: e.SAML_IDP_METADATA!,
          spEntityId: e.SAML_SP_ENTITY_ID ?? `${publicUrl}/auth/saml/metadata.xml`,
          clockSkewMs: (e.SAML_CLOCK_SKEW_SECONDS ?? 60) * 1000,
        }
      : null,
  };
}
