import { randomBytes } from "node:crypto";
import { z } from "zod";

/** An empty environment variable counts as unset. */
const optional = <T extends z.ZodTypeAny>(schema: T) =>
  z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : v), schema.optional());

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
  COOKIE_SECURE: optional(z.enum(["true", "false"])),
  TRUST_PROXY: optional(z.string()),
  LOG_REQUESTS: optional(z.enum(["true", "false"])),
});

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
  cookieSecure: boolean;
  trustProxy: string | undefined;
  logRequests: boolean;
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
  return {
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
    cookieSecure: e.COOKIE_SECURE ? e.COOKIE_SECURE === "true" : e.NODE_ENV === "production",
    trustProxy: e.TRUST_PROXY,
    logRequests: e.LOG_REQUESTS ? e.LOG_REQUESTS === "true" : e.NODE_ENV !== "test",
  };
}
