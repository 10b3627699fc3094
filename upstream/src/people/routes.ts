import { Hono, type MiddlewareHandler } from "hono";
import { z } from "zod";
import {
  ALL_PERMISSIONS,
  LoginBody,
  MIN_PASSWORD_LENGTH,
  PERMISSION_KEYS,
  RefreshBody,
  UserCreate,
  UserUpdate,
  type Provider,
  type TokenAnswer,
  type TokenPayload,
  type User,
} from "../../contract";
import {
  HttpError,
  badRequest,
  clientAddress,
  conflict,
  fieldMessage,
  jsonBody,
  listQuery,
  notFound,
  readJson,
  requirePermission,
  validate,
  type AppEnv,
} from "../lib/http";
import type { LoginThrottle } from "../lib/rate-limit";
import type { OrganizationsStore } from "../organizations/store";
import { hashPassword, verifyDelay, verifyNothing, verifyPassword } from "../auth/passwords";
import type { SessionsStore } from "../auth/sessions";
import { isUniqueViolation, type UsersStore } from "./store";

export type AuthDeps = {
  users: UsersStore;
  organizations: OrganizationsStore;
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

export const MESSAGES = {
  invalidLogin: "Invalid email or password.",
  tooManyAttempts: "Too many failed sign-in attempts.",
  invalidToken: "Invalid or expired token.",
  userNotFound: "User not found.",
  duplicateEmail: "A user with this email already exists.",
  selfDelete: "You cannot delete your own account.",
  firstNameRequired: "First name is required",
  lastNameRequired: "Last name is required",
  emailRequired: "Email is required",
  emailInvalid: "Email has invalid format",
  passwordRequired: "Password is required",
  passwordTooShort: `Password must be at least ${MIN_PASSWORD_LENGTH} characters long.`,
} as const;

const tooManyAttempts = (retryAfter: number) =>
  new HttpError(429, MESSAGES.tooManyAttempts, { "Retry-After": String(retryAfter) }, { retryAfter });

const isEmail = (value: string) => z.string().email().safeParse(value).success;
const fail = (field: string, message: string) => badRequest(fieldMessage([field], message));
const unique = (values: readonly string[]) => [...new Set(values)];

function requiredName(field: "firstName" | "lastName", value: string): string {
  const trimmed = value.trim();
  if (!trimmed) throw fail(field, field === "firstName" ? MESSAGES.firstNameRequired : MESSAGES.lastNameRequired);
  return trimmed;
}

function checkPassword(password: string): string {
  if (!password) throw fail("password", MESSAGES.passwordRequired);
  if (password.length < MIN_PASSWORD_LENGTH) throw fail("password", MESSAGES.passwordTooShort);
  return password;
}

function normalizeScriptKey(value: string | null | undefined): string | null | undefined {
  if (value === undefined || value === null) return value;
  return value.trim() || null;
}

/** /api/auth/* */
export function authRoutes(deps: AuthDeps): Hono<AppEnv> {
  const { users, organizations, requireAuth, sessions, throttle } = deps;
  const app = new Hono<AppEnv>({ strict: false });

  function checkOrganizations(ids: readonly string[]): string[] {
    const list = unique(ids);
    const unknown = organizations.unknownIds(list)[0];
    if (unknown !== undefined) throw fail("organizations", `Unknown organization id "${unknown}".`);
    return list;
  }

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
      throw new HttpError(401, MESSAGES.invalidLogin);
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
    if (!user || !payload) throw new HttpError(401, MESSAGES.invalidToken);
    return c.json({ token: deps.issueToken(user, payload.sid) } satisfies TokenAnswer);
  });

  // Log out: revokes the caller's session; every token of it stops working (API and refresh).
  app.post("/logout", requireAuth, (c) => {
    const sid = c.get("actor").sessionId;
    if (sid) sessions.revoke(sid);
    return c.body(null, 204);
  });

  app.get("/permissions/list", requireAuth, (c) => c.json([...PERMISSION_KEYS]));

  app.get("/users", requireAuth, requirePermission("users.read"), (c) => c.json(users.list(listQuery(c))));

  app.get("/users/:id", requireAuth, requirePermission("users.read"), (c) => {
    const user = users.get(c.req.param("id"));
    if (!user) throw notFound(MESSAGES.userNotFound);
    return c.json(user);
  });

  // `assistants` is accepted and ignored: the back office keeps each user's assistants team itself (spec 1 §4).
  app.post("/users", requireAuth, requirePermission("users"), async (c) => {
    const body = await jsonBody(c, UserCreate);
    const firstName = requiredName("firstName", body.firstName);
    const lastName = requiredName("lastName", body.lastName);
    const email = body.email.trim().toLowerCase();
    if (!email) throw fail("email", MESSAGES.emailRequired);
    if (!isEmail(email)) throw fail("email", MESSAGES.emailInvalid);
    const password = checkPassword(body.password);
    const organizationIds = checkOrganizations(body.organizations);
    if (users.emailExists(email)) throw conflict(MESSAGES.duplicateEmail);
    const passwordHash = await hashPassword(password);
    try {
      const user = users.create(
        {
          email,
          firstName,
          lastName,
          passwordHash,
          isBot: body.isBot,
          scriptKey: normalizeScriptKey(body.scriptKey) ?? null,
          organizations: organizationIds,
          permissions: [],
        },
        c.get("actor").email,
      );
      return c.json(user, 201);
    } catch (error) {
      // Two concurrent creates with the same email: the second hits the unique index.
      if (isUniqueViolation(error)) throw conflict(MESSAGES.duplicateEmail);
      throw error;
    }
  });

  // `assistants` is accepted and ignored, as on create.
  app.patch("/users/:id", requireAuth, requirePermission("users"), async (c) => {
    const id = c.req.param("id");
    const raw = await readJson(c);
    const body = validate(UserUpdate, raw);
    if (body.id !== id) throw fail("id", "Must match the user id in the path.");
    const existing = users.get(id);
    if (!existing) throw notFound(MESSAGES.userNotFound);
    const sentEmail = (raw as { email?: unknown }).email;
    if (sentEmail !== undefined && (typeof sentEmail !== "string" || sentEmail.trim().toLowerCase() !== existing.email)) {
      throw fail("email", "Email cannot be changed.");
    }
    const firstName = body.firstName === undefined ? undefined : requiredName("firstName", body.firstName);
    const lastName = body.lastName === undefined ? undefined : requiredName("lastName", body.lastName);
    const password = body.password === undefined ? undefined : checkPassword(body.password);
    let permissions: string[] | undefined;
    if (body.permissions !== undefined) {
      const unknown = body.permissions.find((p) => !ALL_PERMISSIONS.includes(p));
      if (unknown !== undefined) throw fail("permissions", `Unknown permission "${unknown}".`);
      permissions = unique(body.permissions);
    }
    const organizationIds = body.organizations === undefined ? undefined : checkOrganizations(body.organizations);
    const updated = users.update(
      id,
      {
        firstName,
        lastName,
        isBot: body.isBot,
        scriptKey: normalizeScriptKey(body.scriptKey),
        organizations: organizationIds,
        permissions,
        passwordHash: password === undefined ? undefined : await hashPassword(password),
      },
      c.get("actor").email,
    );
    if (!updated) throw notFound(MESSAGES.userNotFound);
    // A new password, or a permission taken away, ends the user's other sessions: whoever holds them must sign in
    // again (and then gets the current permissions). The caller's own session stays when they changed themselves.
    const removed = permissions !== undefined && existing.permissions.some((p) => !permissions?.includes(p));
    if (password !== undefined || removed) {
      const actor = c.get("actor");
      sessions.revokeUser(id, actor.id === id ? actor.sessionId : undefined);
    }
    return c.json(updated);
  });

  app.delete("/users/:id", requireAuth, requirePermission("users"), (c) => {
    const id = c.req.param("id");
    if (id === c.get("actor").id) throw new HttpError(403, MESSAGES.selfDelete);
    if (!users.remove(id)) throw notFound(MESSAGES.userNotFound);
    return c.body(null, 204);
  });

  return app;
}
