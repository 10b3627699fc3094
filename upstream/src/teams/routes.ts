import { Hono, type MiddlewareHandler } from "hono";
import { z } from "zod";
import { ListQuery } from "../../contract";
import { MemberAdd, TEAM_MESSAGES, TeamCreate, assistantsTeamName, type TeamFilter } from "../../contract/teams";
import type { UsersStore } from "../people/store";
import { HttpError, badRequest, conflict, fieldMessage, jsonBody, notFound, requirePermission, validate, type AppEnv } from "../lib/http";
import type { TeamsStore } from "./store";

const isEmail = (value: string) => z.string().email().safeParse(value).success;

function memberEmail(raw: string): string {
  const email = raw.trim().toLowerCase();
  if (!email) throw badRequest(fieldMessage(["email"], TEAM_MESSAGES.emailRequired));
  if (!isEmail(email)) throw badRequest(fieldMessage(["email"], TEAM_MESSAGES.emailInvalid));
  return email;
}

/** /api/auth/teams/* */
export function teamRoutes(deps: { teams: TeamsStore; users: UsersStore; requireAuth: MiddlewareHandler<AppEnv> }) {
  const { teams, users, requireAuth } = deps;
  const app = new Hono<AppEnv>({ strict: false });
  const read = requirePermission("users.read");
  const write = requirePermission("users");

  const found = (id: string) => {
    const team = teams.get(id);
    if (!team) throw notFound(TEAM_MESSAGES.notFound);
    return team;
  };

  app.get("/", requireAuth, read, (c) => {
    const { assistants, ...rest } = c.req.query();
    const query = validate(ListQuery, rest);
    // The optional assistants flag (spec 1 §7): true → assistants teams only, false → the others, absent → every team.
    const filters = new Map<string, TeamFilter>([["", "all"], ["true", "assistants"], ["false", "teams"]]);
    const filter = filters.get(assistants ?? "");
    if (!filter) throw badRequest(fieldMessage(["assistants"], "Must be true or false."));
    return c.json(teams.list(query, filter));
  });

  app.get("/assistants/:id", requireAuth, read, (c) => {
    const user = users.get(c.req.param("id"));
    if (!user) throw notFound(TEAM_MESSAGES.userNotFound);
    const team = teams.findAssistantsTeam(assistantsTeamName(user.email));
    if (!team) throw notFound(TEAM_MESSAGES.noAssistantsTeam);
    return c.json(team);
  });

  app.get("/:id", requireAuth, read, (c) => c.json(found(c.req.param("id"))));

  app.post("/", requireAuth, write, async (c) => {
    const body = await jsonBody(c, TeamCreate);
    const name = body.name.trim();
    if (!name) throw badRequest(fieldMessage(["name"], TEAM_MESSAGES.nameRequired));
    const members = [...new Set(body.members.map(memberEmail))];
    if (teams.nameExists(name)) throw conflict(TEAM_MESSAGES.exists);
    try {
      return c.json(teams.create({ name, members, assistantsTeam: body.assistantsTeam }, c.get("actor").email), 201);
    } catch (error) {
      if ((error as { code?: unknown }).code === "SQLITE_CONSTRAINT_UNIQUE") throw conflict(TEAM_MESSAGES.exists);
      throw error;
    }
  });

  app.delete("/:id", requireAuth, write, (c) => {
    if (!teams.remove(c.req.param("id"))) throw notFound(TEAM_MESSAGES.notFound);
    return c.body(null, 204);
  });

  app.post("/:teamId/members", requireAuth, write, async (c) => {
    const id = c.req.param("teamId");
    found(id);
    const email = memberEmail((await jsonBody(c, MemberAdd)).email);
    if (!teams.addMember(id, email, c.get("actor").email)) throw new HttpError(409, TEAM_MESSAGES.emailTaken);
    return c.json(found(id), 201);
  });

  app.delete("/:teamId/members/:email", requireAuth, write, (c) => {
    const id = c.req.param("teamId");
    found(id);
    const email = c.req.param("email").trim().toLowerCase();
    if (!teams.removeMember(id, email, c.get("actor").email)) throw notFound(TEAM_MESSAGES.notMember);
    return c.json(found(id));
  });

  return app;
}
