import { createHash, timingSafeEqual } from "node:crypto";
import { createMiddleware } from "hono/factory";
import { SERVICE_CREDENTIAL_HEADER } from "../../contract/sso";
import { HttpError, type AppEnv } from "../lib/http";

/** Compares two secrets in constant time (hashing first, so their lengths do not leak either). */
function sameSecret(given: string, expected: string): boolean {
  const a = createHash("sha256").update(given, "utf8").digest();
  const b = createHash("sha256").update(expected, "utf8").digest();
  return timingSafeEqual(a, b) && given.length === expected.length;
}

/**
 * The server-to-server calls of single sign-on need the service credential in `X-Service-Credential`. A user's bearer
 * token is not a service credential: `Authorization` is never read here. Without a configured secret the calls do
 * not exist (404), so nothing can mint a token.
 */
export function requireServiceCredential(secret: string | undefined) {
  return createMiddleware<AppEnv>(async (c, next) => {
    if (!secret) throw new HttpError(404, "Not found");
    const given = c.req.header(SERVICE_CREDENTIAL_HEADER) ?? "";
    if (!given || !sameSecret(given, secret)) throw new HttpError(401, "A valid service credential is required.");
    await next();
  });
}
