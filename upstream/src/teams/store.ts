import crypto from "node:crypto";
import type { ListQuery, Page } from "../../contract";
import type { Team, TeamFilter } from "../../contract/teams";
import type { Db } from "../db";
import { listPage, prepared, type CollectionSource } from "../lib/collection";
import { isoNow } from "../lib/http";

type TeamRow = {
  id: string;
  name: string;
  assistants_team: number;
  members: string;
  created_at: string;
  created_by: string | null;
  updated_at: string;
  updated_by: string | null;
};

const SELECT = `t.id, t.name, t.assistants_team,
  (select json_group_array(email) from (select email from team_members where team_id = t.id order by position)) as members,
  t.created_at, t.created_by, t.updated_at, t.updated_by`;

function toTeam(row: TeamRow): Team {
  const members = JSON.parse(row.members) as unknown;
  return {
    id: row.id,
    name: row.name,
    assistantsTeam: row.assistants_team === 1,
    members: Array.isArray(members) ? members.filter((m): m is string => typeof m === "string") : [],
    createdAt: row.created_at,
    createdBy: row.created_by,
    updatedAt: row.updated_at,
    updatedBy: row.updated_by,
  };
}

/** Teams and their members (emails, lower-cased, unique per team). Team names are unique whatever their case. */
export class TeamsStore {
  constructor(private readonly db: Db, private readonly now: () => number) {}

  list(query: ListQuery, filter: TeamFilter): Page<Team> {
    const source: CollectionSource = {
      from: "teams t",
      select: SELECT,
      search: ["t.name", "(select group_concat(email, ' ') from team_members where team_id = t.id)"],
      nameOrder: "lower(t.name)",
      createdAt: "t.created_at",
      id: "t.id",
      where: filter === "all" ? undefined : { sql: "t.assistants_team = ?", params: [filter === "assistants" ? 1 : 0] },
    };
    return listPage(this.db, source, query, toTeam);
  }

  get(id: string): Team | null {
    const row = prepared(this.db, `select ${SELECT} from teams t where t.id = ?`).get(id) as TeamRow | undefined;
    return row ? toTeam(row) : null;
  }

  findAssistantsTeam(name: string): Team | null {
    const row = prepared(
      this.db,
      `select ${SELECT} from teams t where t.name = ? collate nocase and t.assistants_team = 1`,
    ).get(name) as TeamRow | undefined;
    return row ? toTeam(row) : null;
  }

  nameExists(name: string): boolean {
    return prepared(this.db, "select 1 from teams where name = ? collate nocase").get(name) !== undefined;
  }

  create(team: { name: string; members: string[]; assistantsTeam: boolean }, actor: string | null): Team {
    const id = crypto.randomUUID();
    const at = isoNow(this.now);
    this.db.transaction(() => {
      prepared(
        this.db,
        `insert into teams (id, name, assistants_team, created_at, created_by, updated_at, updated_by)
           values (?, ?, ?, ?, ?, ?, ?)`,
      ).run(id, team.name, team.assistantsTeam ? 1 : 0, at, actor, at, actor);
      const insert = prepared(this.db, "insert into team_members (team_id, email, position) values (?, ?, ?)");
      team.members.forEach((email, i) => insert.run(id, email, i));
    })();
    return this.get(id) as Team;
  }

  private touch(id: string, actor: string | null) {
    prepared(this.db, "update teams set updated_at = ?, updated_by = ? where id = ?").run(isoNow(this.now), actor, id);
  }

  /** false when the email is already a member. */
  addMember(id: string, email: string, actor: string | null): boolean {
    return this.db.transaction(() => {
      if (prepared(this.db, "select 1 from team_members where team_id = ? and email = ?").get(id, email)) return false;
      const next = prepared(this.db, "select coalesce(max(position), -1) + 1 from team_members where team_id = ?")
        .pluck()
        .get(id) as number;
      prepared(this.db, "insert into team_members (team_id, email, position) values (?, ?, ?)").run(id, email, next);
      this.touch(id, actor);
      return true;
    })();
  }

  /** false when the email was not a member. */
  removeMember(id: string, email: string, actor: string | null): boolean {
    return this.db.transaction(() => {
      const gone = prepared(this.db, "delete from team_members where team_id = ? and email = ?").run(id, email).changes;
      if (gone) this.touch(id, actor);
      return gone > 0;
    })();
  }

  remove(id: string): boolean {
    return prepared(this.db, "delete from teams where id = ?").run(id).changes > 0;
  }
}
