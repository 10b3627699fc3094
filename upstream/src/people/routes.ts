import { Hono, type MiddlewareHandler } from "hono";
import { z } from "zod";
import { ALL_PERMISSIONS, MIN_PASSWORD_LENGTH, USER_MESSAGES, UserCreate, UserUpdate } from "../../contract";
import {
  HttpError,
  badRequest,
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
import type { OrganizationsStore } from "../organizations/store";
import { hashPassword } from "../auth/passwords";
import type { SessionsStore } from "../auth/sessions";
import { isUniqueViolation, type UsersStore } from "./store";

export type UserDeps = {
  users: UsersStore;
  organizations: OrganizationsStore;
  requireAuth: MiddlewareHandler<AppEnv>;
  /** Sign-in sessions: a new password or a permission taken away revokes the user's other sessions. */
  sessions: SessionsStore;
};

const isEmail = (value: string) => z.string().email().safeParse(value).success;
const fail = (field: string, message: string) => badRequest(fieldMessage([field], message));
const unique = (values: readonly string[]) => [...new Set(values)];

function requiredName(field: "firstName" | "lastName", value: string): string {
  const trimmed = value.trim();
  if (!trimmed) throw fail(field, field === "firstName" ? USER_MESSAGES.firstNameRequired : USER_MESSAGES.lastNameRequired);
  return trimmed;
}

function checkPassword(password: string): string {
  if (!password) throw fail("password", USER_MESSAGES.passwordRequired);
  if (password.length < MIN_PASSWORD_LENGTH) throw fail("password", USER_MESSAGES.passwordTooShort);
  return password;
}

function normalizeScriptKey(value: string | null | undefined): string | null | undefined {
  if (value === undefined || value === null) return value;
  return value.trim() || null;
}

/** /api/auth/users/* — the users resource (people, bots). */
export function userRoutes(deps: UserDeps): Hono<AppEnv> {
  const { users, organizations, requireAuth, sessions } = deps;
  const app = new Hono<AppEnv>({ strict: false });

  function checkOrganizations(ids: readonly string[]): string[] {
    const list = unique(ids);
    const unknown = organizations.unknownIds(list)[0];
    if (unknown !== undefined) throw fail("organizations", `Unknown organization id "${unknown}".`);
    return list;
  }

  app.get("/", requireAuth, requirePermission("users.read"), (c) => c.json(users.list(listQuery(c))));

  app.get("/:id", requireAuth, requirePermission("users.read"), (c) => {
    const user = users.get(c.req.param("id"));
    if (!user) throw notFound(USER_MESSAGES.userNotFound);
    return c.json(user);
  });

  // `assistants` is accepted and ignored: the back office keeps each user's assistants team itself (spec 1 §4).
  app.post("/", requireAuth, requirePermission("users"), async (c) => {
    const body = await jsonBody(c, UserCreate);
    const firstName = requiredName("firstName", body.firstName);
    const lastName = requiredName("lastName", body.lastName);
    const email = body.email.trim().toLowerCase();
    if (!email) throw fail("email", USER_MESSAGES.emailRequired);
    if (!isEmail(email)) throw fail("email", USER_MESSAGES.emailInvalid);
    const password = checkPassword(body.password);
    const organizationIds = checkOrganizations(body.organizations);
    if (users.emailExists(email)) throw conflict(USER_MESSAGES.duplicateEmail);
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
      if (isUniqueViolation(error)) throw conflict(USER_MESSAGES.duplicateEmail);
      throw error;
    }
  });

  // `assistants` is accepted and ignored, as on create.
  app.patch("/:id", requireAuth, requirePermission("users"), async (c) => {
    const id = c.req.param("id");
    const raw = await readJson(c);
    const body = validate(UserUpdate, raw);
    if (body.id !== id) throw fail("id", "Must match the user id in the path.");
    const existing = users.get(id);
    if (!existing) throw notFound(USER_MESSAGES.userNotFound);
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
    if (!updated) throw notFound(USER_MESSAGES.userNotFound);
    // A new password, or a permission taken away, ends the user's other sessions: whoever holds them must sign in
    // again (and then gets the current permissions). The caller's own session stays when they changed themselves.
    const removed = permissions !== undefined && existing.permissions.some((p) => !permissions?.includes(p));
    if (password !== undefined || removed) {
      const actor = c.get("actor");
      sessions.revokeUser(id, actor.id === id ? actor.sessionId : undefined);
    }
    return c.json(updated);
  });

  app.delete("/:id", requireAuth, requirePermission("users"), (c) => {
    const id = c.req.param("id");
    if (id === c.get("actor").id) throw new HttpError(403, USER_MESSAGES.selfDelete);
    if (!users.remove(id)) throw notFound(USER_MESSAGES.userNotFound);
    return c.body(null, 204);
  });

  return app;
}
