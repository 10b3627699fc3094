import crypto from "node:crypto";
import type { AssigneeSuggestion, ListQuery, Page, User } from "../../contract";
import type { Db } from "../db";
import { listPage, prepared, type CollectionSource } from "../lib/collection";
import { isoNow, type Actor } from "../lib/http";

/**
 * A user's columns, read as raw rows in this order (no object built per row only to be copied into the user). The
 * organizations come from one statement for all the rows at hand (`organizationsOf`), not a subquery per row, which
 * was measurably slower for a page of 25 under load.
 */
const COLUMNS = ["id", "email", "first_name", "last_name", "is_bot", "script_key", "permissions"]
  .concat(["created_at", "created_by", "updated_at", "updated_by"])
  .map((column) => `u.${column}`)
  .join(", ");
type UserRow = [
  id: string,
  email: string,
  firstName: string,
  lastName: string,
  isBot: number,
  scriptKey: string | null,
  permissions: string,
  createdAt: string,
  createdBy: string | null,
  updatedAt: string,
  updatedBy: string | null,
];

const SOURCE: CollectionSource = {
  from: "users u",
  select: COLUMNS,
  search: ["u.email", "u.first_name", "u.last_name", "u.first_name || ' ' || u.last_name"],
  nameOrder: "lower(u.first_name || ' ' || u.last_name), lower(u.email)",
  createdAt: "u.created_at",
  id: "u.id",
};

function stringArray(json: string): string[] {
  const value = JSON.parse(json) as unknown;
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

function toUser(row: UserRow, organizations: ReadonlyMap<string, string[]>): User {
  return {
    id: row[0],
    email: row[1],
    firstName: row[2],
    lastName: row[3],
    isBot: row[4] === 1,
    scriptKey: row[5],
    organizations: organizations.get(row[0]) ?? [],
    permissions: stringArray(row[6]),
    createdAt: row[7],
    createdBy: row[8],
    updatedAt: row[9],
    updatedBy: row[10],
  };
}

export type NewUser = {
  email: string;
  firstName: string;
  lastName: string;
  passwordHash: string;
  isBot: boolean;
  scriptKey: string | null;
  organizations: string[];
  permissions: string[];
};

export type UserChanges = Partial<Omit<NewUser, "email">>;

export { isUniqueViolation } from "../lib/collection-store";

/** Users and their organization links. Emails are stored lower-cased and unique (case-insensitive). */
export class UsersStore {
  constructor(private readonly db: Db, private readonly now: () => number) {}

  count(): number {
    return prepared(this.db, "select count(*) from users").pluck().get() as number;
  }

  get(id: string): User | null {
    const row = prepared(this.db, `select ${COLUMNS} from users u where u.id = ?`).raw(true).get(id) as UserRow | undefined;
    return row ? this.toUsers([row])[0]! : null;
  }

  /** The id, email and current permissions of a user, for authorization. */
  findActor(id: string): Actor | null {
    const row = prepared(this.db, "select id, email, permissions from users where id = ?").get(id) as
      | { id: string; email: string; permissions: string }
      | undefined;
    return row ? { id: row.id, email: row.email, permissions: stringArray(row.permissions) } : null;
  }

  /** The id and password hash of the user with `email` (case-insensitive). */
  findCredentials(email: string): { id: string; passwordHash: string } | null {
    const row = prepared(this.db, "select id, password_hash from users where email = ?").get(email) as
      | { id: string; password_hash: string }
      | undefined;
    return row ? { id: row.id, passwordHash: row.password_hash } : null;
  }

  emailExists(email: string): boolean {
    return prepared(this.db, "select 1 from users where email = ?").get(email) !== undefined;
  }

  list(query: ListQuery): Page<User> {
    const page = listPage(this.db, SOURCE, query, (row: UserRow) => row, { raw: true });
    return { ...page, items: this.toUsers(page.items) };
  }

  /** Users from their rows, with their organizations in one statement for all of them. */
  private toUsers(rows: readonly UserRow[]): User[] {
    const organizations = this.organizationsOf(rows.map((row) => row[0]));
    return rows.map((row) => toUser(row, organizations));
  }

  /** The organizations of each of `userIds`, in their order. */
  private organizationsOf(userIds: readonly string[]): Map<string, string[]> {
    const byUser = new Map<string, string[]>();
    if (!userIds.length) return byUser;
    const rows = prepared(
      this.db,
      `select user_id, organization_id from user_organizations
        where user_id in (select value from json_each(?)) order by user_id, position`,
    )
      .raw(true)
      .all(JSON.stringify(userIds)) as [string, string][];
    for (const [userId, organizationId] of rows) {
      const list = byUser.get(userId);
      if (list) list.push(organizationId);
      else byUser.set(userId, [organizationId]);
    }
    return byUser;
  }

  private setOrganizations(userId: string, organizations: readonly string[]): void {
    prepared(this.db, "delete from user_organizations where user_id = ?").run(userId);
    const insert = prepared(
      this.db,
      "insert into user_organizations (user_id, organization_id, position) values (?, ?, ?)",
    );
    organizations.forEach((organizationId, position) => insert.run(userId, organizationId, position));
  }

  /** Inserts a user; throws a SQLITE_CONSTRAINT_UNIQUE error when the email is taken. */
  create(user: NewUser, actorEmail: string | null): User {
    const id = crypto.randomUUID();
    const at = isoNow(this.now);
    this.db.transaction(() => {
      prepared(
        this.db,
        `insert into users (id, email, first_name, last_name, password_hash, is_bot, script_key, permissions,
             created_at, created_by, updated_at, updated_by)
           values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        id,
        user.email,
        user.firstName,
        user.lastName,
        user.passwordHash,
        user.isBot ? 1 : 0,
        user.scriptKey,
        JSON.stringify(user.permissions),
        at,
        actorEmail,
        at,
        actorEmail,
      );
      this.setOrganizations(id, user.organizations);
    })();
    return this.get(id) as User;
  }

  /** Applies the given changes; null when the user does not exist. */
  update(id: string, changes: UserChanges, actorEmail: string | null): User | null {
    const columns: Record<string, unknown> = {};
    if (changes.firstName !== undefined) columns.first_name = changes.firstName;
    if (changes.lastName !== undefined) columns.last_name = changes.lastName;
    if (changes.passwordHash !== undefined) columns.password_hash = changes.passwordHash;
    if (changes.isBot !== undefined) columns.is_bot = changes.isBot ? 1 : 0;
    if (changes.scriptKey !== undefined) columns.script_key = changes.scriptKey;
    if (changes.permissions !== undefined) columns.permissions = JSON.stringify(changes.permissions);
    columns.updated_at = isoNow(this.now);
    columns.updated_by = actorEmail;
    const names = Object.keys(columns);
    const found = this.db.transaction(() => {
      const result = prepared(this.db, `update users set ${names.map((n) => `${n} = ?`).join(", ")} where id = ?`).run(
        ...Object.values(columns),
        id,
      );
      if (result.changes === 0) return false;
      if (changes.organizations !== undefined) this.setOrganizations(id, changes.organizations);
      return true;
    })();
    return found ? this.get(id) : null;
  }

  /** Every bot user, by email. */
  bots(): User[] {
    const rows = prepared(this.db, `select ${COLUMNS} from users u where u.is_bot = 1 order by u.email`)
      .raw(true)
      .all() as UserRow[];
    return this.toUsers(rows);
  }

  /** Up to `limit` emails containing `q` (case-insensitive), those starting with it first. */
  suggestEmails(q: string, limit: number): string[] {
    const needle = q.toLowerCase();
    return prepared(
      this.db,
      `select email from users where instr(lower(email), ?) > 0
          order by instr(lower(email), ?) = 1 desc, email limit ?`,
    )
      .pluck()
      .all(needle, needle, limit) as string[];
  }

  /**
   * Up to `limit` people whose e-mail or name (first, last, or both) contains `q` (case-insensitive): the list
   * search's own columns. Those with a column starting with `q` come first, then by name.
   */
  suggestAssignees(q: string, limit: number): AssigneeSuggestion[] {
    const needle = q.toLowerCase();
    const matches = SOURCE.search.map((column) => `instr(lower(${column}), @q) > 0`).join(" or ");
    const starts = SOURCE.search.map((column) => `instr(lower(${column}), @q) = 1`).join(" or ");
    const rows = prepared(
      this.db,
      `select u.email, trim(u.first_name || ' ' || u.last_name) from ${SOURCE.from} where ${matches}
          order by (${starts}) desc, ${SOURCE.nameOrder} limit @limit`,
    )
      .raw(true)
      .all({ q: needle, limit }) as [email: string, name: string][];
    return rows.map(([email, name]) => ({ name, email }));
  }

  /** Deletes a user (and their organization links); false when there was none. */
  remove(id: string): boolean {
    return prepared(this.db, "delete from users where id = ?").run(id).changes > 0;
  }
}
