import { Hono, type MiddlewareHandler } from "hono";
import {
  LoginBody,
  PERMISSION_KEYS,
  RefreshBody,
  SIGN_IN_MESSAGES,
  type Provider,
  type TokenAnswer,
  type TokenPayload,
  type User,
} from "../../contract";
import { HttpError, clientAddress, jsonBody, type AppEnv } from "../lib/http";
import type { LoginThrottle } from "../lib/rate-limit";
import type { UsersStore } from "../people/store";
import { verifyDelay, verifyNothing, verifyPassword } from "./passwords";
import type { SessionsStore } from "./sessions";

export type AuthDeps = {
  /** Whose credentials a sign-in checks, and who a refreshed token is for. */
  users: UsersStore;
  /**
   * Signs a token for `user` with the current clock and TTL, inside session `sessionId` (refresh) or a new session
   * (sign-in).
   */
  issueToken: (user: User, sessionId?: string) => string;
  /** The payload of a valid, unexpired token from this upstream, else null (its session is not checked). */
  verifyToken: (token: string) => TokenPayload | null;
  requireAuth: MiddlewareHandler<AppEnv>;
  /** Sign-in sessions: the tokens' `sid`. */
  sessions: SessionsStore;
  /** Failed sign-ins per (lower-cased email, client address), per email and per address. */
  throttle: LoginThrottle;
  /** The external sign-in providers that are configured (single sign-on), in order. */
  providers?: () => Provider[];
};

const tooManyAttempts = (retryAfter: number) =>
  new HttpError(429, SIGN_IN_MESSAGES.tooManyAttempts, { "Retry-After": String(retryAfter) }, { retryAfter });

/** /api/auth/* — sign-in: providers, login, refresh, logout, and the permission catalogue. */
export function authRoutes(deps: AuthDeps): Hono<AppEnv> {
  const { users, requireAuth, sessions, throttle } = deps;
  const app = new Hono<AppEnv>({ strict: false });

  // External sign-in providers (single sign-on): the configured ones, corporate OpenID Connect first, then SAML.
  app.get("/", (c) => c.json((deps.providers?.() ?? []) satisfies Provider[]));

  app.post("/login", async (c) => {
    const body = await jsonBody(c, LoginBody);
    const email = body.email.trim().toLowerCase();
    const address = clientAddress(c);
    const credentials = users.findCredentials(email);
    // From an address over its limit, every refusal looks alike: an unknown account, an account under attack and a
    // wrong password all answer 429 after about a password check's time, so the address learns nothing about which
    // emails exist; only the right password of an account that is not under attack gets in (rate-limit.ts).
    const limitedAddress = throttle.addressRetryAfter(address) > 0;
    const retryAfter = throttle.retryAfter(email, address, credentials !== null);
    if (retryAfter > 0) {
      if (limitedAddress) await verifyDelay();
      throw tooManyAttempts(retryAfter);
    }
    const ok = credentials
      ? await verifyPassword(body.password, credentials.passwordHash)
      : await verifyNothing(body.password);
    const user = ok && credentials ? users.get(credentials.id) : null;
    if (!user) {
      throttle.fail(email, address);
      if (limitedAddress) throw tooManyAttempts(Math.max(1, throttle.addressRetryAfter(address)));
      throw new HttpError(401, SIGN_IN_MESSAGES.invalidLogin);
    }
    throttle.succeed(email, address);
    return c.json({ token: deps.issueToken(user) } satisfies TokenAnswer);
  });

  // A new token in the same session; refused when the session was revoked (log out, password change, permissions).
  app.post("/refresh", async (c) => {
    const body = await jsonBody(c, RefreshBody);
    const payload = deps.verifyToken(body.token);
    const active = payload ? sessions.actor(payload.sid, payload.sub) : null;
    const user = active && payload ? users.get(payload.sub) : null;
    if (!user || !payload) throw new HttpError(401, SIGN_IN_MESSAGES.invalidToken);
    return c.json({ token: deps.issueToken(user, payload.sid) } satisfies TokenAnswer);
  });

  // Log out: revokes the caller's session; every token of it stops working (API and refresh).
  app.post("/logout", requireAuth, (c) => {
    const sid = c.get("actor").sessionId;
    if (sid) sessions.revoke(sid);
    return c.body(null, 204);
  });

  app.get("/permissions/list", requireAuth, (c) => c.json([...PERMISSION_KEYS]));

  return app;
}
