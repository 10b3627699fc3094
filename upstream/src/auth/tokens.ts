import crypto from "node:crypto";
import { TokenPayload } from "../../contract";

/** HS256 JWTs, hand-rolled on node:crypto (small, no dependency, constant-time signature check). */

const HEADER = Buffer.from(JSON.stringify({ alg: "HS256", typ: "JWT" })).toString("base64url");

function sign(input: string, secret: string): Buffer {
  return crypto.createHmac("sha256", secret).update(input).digest();
}

/** Signs exactly the contract's TokenPayload fields (extra keys are dropped). */
export function signToken(payload: TokenPayload, secret: string): string {
  const clean: TokenPayload = {
    iss: payload.iss,
    sub: payload.sub,
    email: payload.email,
    firstName: payload.firstName,
    lastName: payload.lastName,
    permissions: payload.permissions,
    sid: payload.sid,
    iat: payload.iat,
    exp: payload.exp,
  };
  const body = `${HEADER}.${Buffer.from(JSON.stringify(clean)).toString("base64url")}`;
  return `${body}.${sign(body, secret).toString("base64url")}`;
}

function decodeJson(part: string): unknown {
  try {
    return JSON.parse(Buffer.from(part, "base64url").toString("utf8")) as unknown;
  } catch {
    return null;
  }
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * The payload when `token` is an HS256 JWT signed with `secret`, issued by `issuer`, and not expired at `nowSeconds`
 * (exp is exclusive); else null.
 */
export function verifyToken(token: string, secret: string, nowSeconds: number, issuer: string): TokenPayload | null {
  const parts = token.split(".");
  if (parts.length !== 3) return null;
  const [header, body, signature] = parts as [string, string, string];
  if (![header, body, signature].every((p) => BASE64URL.test(p))) return null;
  const expected = sign(`${header}.${body}`, secret);
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return null;
  const head = decodeJson(header) as { alg?: unknown } | null;
  if (!head || head.alg !== "HS256") return null;
  const parsed = TokenPayload.safeParse(decodeJson(body));
  if (!parsed.success) return null;
  if (parsed.data.iss !== issuer) return null;
  if (!(nowSeconds < parsed.data.exp)) return null;
  return parsed.data;
}

/** How many verified tokens `cachedVerifier` remembers (the oldest are forgotten first). */
const VERIFIED_TOKENS_CACHED = 5_000;

/**
 * `verifyToken` with a bounded memory of tokens already verified: the back office calls the upstream several times
 * per page with the same token, and the signature and payload checks need not run again. Expiry is still
 * checked on every use; revocation is not a property of the token (the session lookup after this decides it).
 */
export function cachedVerifier(
  secret: string,
  issuer: string,
  nowSeconds: () => number,
  size = VERIFIED_TOKENS_CACHED,
): ((token: string) => TokenPayload | null) & { remembered: () => number } {
  const verified = new Map<string, TokenPayload>();
  const verify = (token: string): TokenPayload | null => {
    const now = nowSeconds();
    const known = verified.get(token);
    if (known) {
      if (now < known.exp) return known;
      verified.delete(token);
      return null;
    }
    const payload = verifyToken(token, secret, now, issuer);
    if (payload) {
      if (verified.size >= size) verified.delete(verified.keys().next().value as string);
      verified.set(token, payload);
    }
    return payload;
  };
  return Object.assign(verify, { remembered: () => verified.size });
}
