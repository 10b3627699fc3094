import { Hono, type MiddlewareHandler } from "hono";
import {
  AUTHORIZATION_MESSAGES,
  CUSTOMER_NUMBER,
  AuthorizationEmailsQuery as EmailsQuery,
  PairAuthorizationPut,
  REGISTRATION_NUMBER,
} from "../../contract/authorization";
import { USER_MESSAGES } from "../../contract/people";
import { badRequest, fieldMessage, jsonBody, notFound, requirePermission, validate, type AppEnv } from "../lib/http";
import type { AuthorizationStore } from "./store";

const clean = (values: string[]) => [...new Set(values.map((v) => v.trim()).filter(Boolean))];

/** /api/pair-authorizator/* — per-user portfolio authorization, matched by email. */
export function authorizationRoutes(deps: { authorizations: AuthorizationStore; requireAuth: MiddlewareHandler<AppEnv> }) {
  const { authorizations, requireAuth } = deps;
  const app = new Hono<AppEnv>({ strict: false });
  const read = requirePermission("users.read");

  app.get("/practitioners", requireAuth, read, (c) => {
    const byNumber = new Map<string, string[]>();
    for (const a of authorizations.list()) {
      for (const n of a.registrationNumbers) byNumber.set(n, [...(byNumber.get(n) ?? []), a.email]);
    }
    return c.json(
      [...byNumber].sort(([a], [b]) => a.localeCompare(b)).map(([registrationNumber, emails]) => ({ registrationNumber, emails })),
    );
  });

  // `?emails=a@x,b@y` (at most MAX_AUTHORIZATION_EMAILS): only those users' rows, for a list page.
  app.get("/users", requireAuth, read, (c) => {
    const emails = validate(EmailsQuery, c.req.query("emails"));
    return c.json(emails ? authorizations.listFor(emails) : authorizations.list());
  });

  app.get("/users/:id", requireAuth, read, (c) => {
    const found = authorizations.get(c.req.param("id"));
    if (!found) throw notFound(USER_MESSAGES.userNotFound);
    return c.json(found);
  });

  app.put("/users/:id", requireAuth, requirePermission("users"), async (c) => {
    const body = await jsonBody(c, PairAuthorizationPut);
    const found = authorizations.get(c.req.param("id"));
    if (!found) throw notFound(USER_MESSAGES.userNotFound);
    const registrationNumbers = clean(body.registrationNumbers);
    const customerNumbers = clean(body.customerNumbers);
    const badReg = registrationNumbers.find((n) => !REGISTRATION_NUMBER.test(n));
    if (badReg !== undefined) {
      throw badRequest(fieldMessage(["registrationNumbers"], AUTHORIZATION_MESSAGES.registrationNumber(badReg)));
    }
    const badCust = customerNumbers.find((n) => !CUSTOMER_NUMBER.test(n));
    if (badCust !== undefined) {
      throw badRequest(fieldMessage(["customerNumbers"], AUTHORIZATION_MESSAGES.customerNumber(badCust)));
    }
    if (registrationNumbers.length > 200 || customerNumbers.length > 200) throw badRequest("Too many numbers.");
    authorizations.put(found.email, registrationNumbers, customerNumbers, c.get("actor").email);
    return c.json(authorizations.get(found.id));
  });

  return app;
}
