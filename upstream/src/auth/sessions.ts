import crypto from "node:crypto";
import type { Statement } from "better-sqlite3";
import type { Db } from "../db";
import { isoNow, type Actor } from "../lib/http";

/** How often expired sessions are deleted (at most; triggered by sign-ins). */
const PRUNE_EVERY_MS = 60_000;

type ActorRow = { id: string; email: string; permissions: string };

function stringArray(json: string): string[] {
  const value = JSON.parse(json) as unknown;
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

/**
 * Sign-in sessions, so that a token can be revoked: every token carries the id of the session it was issued in (`sid`).
 * Sign-in and single sign-on open a session, refresh keeps it, log out / password change / permission removal revoke
 * it. A token whose session is revoked, expired or unknown is refused. `expires_at` follows the newest token of the
 * session.
 */
export class SessionsStore {
  private readonly insert: Statement;
  private readonly actorOf: Statement;
  private readonly extend: Statement;
  private readonly revokeOne: Statement;
  private readonly revokeOthers: Statement;
  private readonly prune: Statement;
  private lastPrune = Number.NEGATIVE_INFINITY;

  constructor(
    db: Db,
    private readonly now: () => number,
  ) {
    this.insert = db.prepare(
      "insert into sessions (id, user_id, created_at, last_seen_at, expires_at) values (?, ?, ?, ?, ?)",
    );
    // The hot path (every authenticated request): the session by primary key, then its user by primary key.
    this.actorOf = db.prepare(
      `select u.id, u.email, u.permissions from sessions s join users u on u.id = s.user_id
        where s.id = ? and s.user_id = ? and s.revoked_at is null and s.expires_at > ?`,
    );
    this.extend = db.prepare(
      "update sessions set expires_at = max(expires_at, ?), last_seen_at = ? where id = ? and revoked_at is null",
    );
    this.revokeOne = db.prepare("update sessions set revoked_at = ? where id = ? and revoked_at is null");
    this.revokeOthers = db.prepare(
      "update sessions set revoked_at = ? where user_id = ? and id != ? and revoked_at is null",
    );
    this.prune = db.prepare("delete from sessions where expires_at <= ?");
  }

  /** Opens a session for `userId` lasting until `expiresAt` (ms); answers its id. Prunes expired ones now and then. */
  open(userId: string, expiresAt: number): string {
    this.pruneExpired();
    const id = crypto.randomBytes(16).toString("base64url");
    const at = isoNow(this.now);
    this.insert.run(id, userId, at, at, expiresAt);
    return id;
  }

  /** The actor of an active session `sid` of user `userId` (current permissions), else null. */
  actor(sid: string, userId: string): Actor | null {
    const row = this.actorOf.get(sid, userId, this.now()) as ActorRow | undefined;
    return row ? { id: row.id, email: row.email, permissions: stringArray(row.permissions), sessionId: sid } : null;
  }

  /** A token was refreshed inside session `sid`: it now lasts until `expiresAt` (ms). */
  renew(sid: string, expiresAt: number): void {
    this.extend.run(expiresAt, isoNow(this.now), sid);
  }

  /** Revokes one session (log out). */
  revoke(sid: string): void {
    this.revokeOne.run(isoNow(this.now), sid);
  }

  /** Revokes every session of `userId` except `keep` (the caller's own, when it is theirs); answers how many. */
  revokeUser(userId: string, keep?: string): number {
    return this.revokeOthers.run(isoNow(this.now), userId, keep ?? "").changes;
  }

  /** Deletes sessions past their expiry (revoked or not), at most once a minute. */
  pruneExpired(force = false): number {
    const now = this.now();
    if (!force && now - this.lastPrune < PRUNE_EVERY_MS) return 0;
    this.lastPrune = now;
    return this.prune.run(now).changes;
  }
}
