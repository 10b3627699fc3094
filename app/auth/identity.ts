import { fullName } from "./names";
import { TokenPayload } from "@contract/auth";

/** The signed-in user as the back office sees it (spec 1 §3 Identity), decoded from the upstream's token. */
export type Identity = {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  permissions: string[];
  /** Token issue time and expiry, ms since the epoch. */
  issuedAt: number;
  expiresAt: number;
};

/**
 * Decodes the token's payload without verifying it: the token came from the upstream and lives in a signed httpOnly
 * cookie; the upstream verifies it on every call. Returns null for anything that is not a well-formed token.
 */
export function decodeToken(token: string): Identity | null {
  const part = token.split(".")[1];
  if (!part) return null;
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  const parsed = TokenPayload.safeParse(json);
  if (!parsed.success) return null;
  const p = parsed.data;
  return {
    id: p.sub,
    email: p.email,
    firstName: p.firstName,
    lastName: p.lastName,
    permissions: p.permissions,
    issuedAt: p.iat * 1000,
    expiresAt: p.exp * 1000,
  };
}

/** Refresh a token this close to its expiry. */
export const REFRESH_MARGIN_MS = 15 * 60 * 1000;
/**
 * Refresh a token this old, so that names and permissions changed by an administrator reach the session within a
 * minute (the upstream itself always checks the current permissions).
 */
export const MAX_TOKEN_AGE_MS = 60 * 1000;

export function needsRefresh(identity: Identity, now = Date.now()): boolean {
  return identity.expiresAt - now < REFRESH_MARGIN_MS || now - identity.issuedAt > MAX_TOKEN_AGE_MS;
}

export function isExpired(identity: Identity, now = Date.now()): boolean {
  return identity.expiresAt <= now;
}

/** The home page's greeting name: first and last name joined, or the email when both are empty (spec 1 §1). */
export function displayName(identity: Pick<Identity, "firstName" | "lastName" | "email">): string {
  return fullName(identity) || identity.email;
}
