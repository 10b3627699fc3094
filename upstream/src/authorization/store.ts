import type { PairAuthorization } from "../../contract/authorization";
import type { Db } from "../db";
import { prepared } from "../lib/collection";
import { isoNow } from "../lib/http";

type Row = { id: string; email: string; registration_numbers: string | null; customer_numbers: string | null };

const list = (json: string | null): string[] => {
  const v = json ? (JSON.parse(json) as unknown) : [];
  return Array.isArray(v) ? v.filter((s): s is string => typeof s === "string") : [];
};

const toAuthorization = (r: Row): PairAuthorization => ({
  id: r.id,
  email: r.email,
  registrationNumbers: list(r.registration_numbers),
  customerNumbers: list(r.customer_numbers),
});

/** Portfolio authorization per user, keyed by the user's email (spec 1 §3). */
export class AuthorizationStore {
  constructor(private readonly db: Db, private readonly now: () => number) {}

  /** Every user holding at least one number. */
  list(): PairAuthorization[] {
    const rows = prepared(
      this.db,
      `select u.id, u.email, a.registration_numbers, a.customer_numbers
           from pair_authorizations a join users u on u.email = a.email
          order by u.email`,
    ).all() as Row[];
    return rows.map(toAuthorization).filter((a) => a.registrationNumbers.length || a.customerNumbers.length);
  }

  /**
   * The authorizations among `emails` (any case), as `list()` answers them: a page of 25 users asks for its own rows
   * instead of loading every authorization. One statement; the emails travel as one JSON parameter.
   */
  listFor(emails: readonly string[]): PairAuthorization[] {
    if (!emails.length) return [];
    const rows = prepared(
      this.db,
      `select u.id, u.email, a.registration_numbers, a.customer_numbers
           from pair_authorizations a join users u on u.email = a.email
          where a.email in (select value from json_each(?))
          order by u.email`,
    ).all(JSON.stringify(emails)) as Row[];
    return rows.map(toAuthorization).filter((a) => a.registrationNumbers.length || a.customerNumbers.length);
  }

  /** The authorization of user `id` (empty lists when none is stored); null when there is no such user. */
  get(id: string): PairAuthorization | null {
    const row = prepared(
      this.db,
      `select u.id, u.email, a.registration_numbers, a.customer_numbers
           from users u left join pair_authorizations a on a.email = u.email
          where u.id = ?`,
    ).get(id) as Row | undefined;
    return row ? toAuthorization(row) : null;
  }

  put(email: string, registrationNumbers: string[], customerNumbers: string[], actor: string | null): void {
    const at = isoNow(this.now);
    prepared(
      this.db,
      `insert into pair_authorizations (email, registration_numbers, customer_numbers, created_at, created_by, updated_at, updated_by)
         values (?, ?, ?, ?, ?, ?, ?)
         on conflict (email) do update set registration_numbers = excluded.registration_numbers,
           customer_numbers = excluded.customer_numbers, updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
    ).run(email, JSON.stringify(registrationNumbers), JSON.stringify(customerNumbers), at, actor, at, actor);
  }
}
