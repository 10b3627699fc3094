import fs from "node:fs";
import path from "node:path";
import type { Db } from "../db";

/** Device and inode: what names one file, whatever its path. */
type FileId = { dev: number; ino: number };

function fileId(file: string): FileId | null {
  try {
    const { dev, ino } = fs.statSync(file);
    return { dev, ino };
  } catch {
    return null;
  }
}

const same = (a: FileId | null, b: FileId | null) => !!a && !!b && a.dev === b.dev && a.ino === b.ino;

function writable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

const isBusy = (error: unknown) => /^SQLITE_(BUSY|LOCKED)/.test(String((error as { code?: unknown } | null)?.code ?? ""));

/**
 * The health of the open database `db` at `file` (issue 8, item 10): true only while writes would last.
 *
 * Call it right after opening: it records which file (device and inode) the database and its WAL are. Each check then
 * costs a few system calls and one empty write transaction, cheap enough to poll every second:
 * 1. `file` (and its `-wal`, when it existed at open) is still the file that was opened: deleted, renamed away or
 *    replaced → false (SQLite keeps writing to the unlinked inode; everything is lost on restart);
 * 2. the file, its WAL and its directory are writable for this process (`access(W_OK)`): a read-only file, a
 *    directory that forbids creating the journal, a read-only or immutable file system → false. Root passes the
 *    permission bits (only a read-only mount or an immutable file stops it); see upstream/README.md, Health;
 * 3. a write rolled back (`BEGIN IMMEDIATE`, user_version set to its value, `ROLLBACK`): a connection SQLite holds
 *    read-only answers SQLITE_READONLY → false. Busy (another process writing) is healthy: the busy timeout is 0 for
 *    it, so it never waits.
 */
export function databaseHealth(db: Db, file: string): () => boolean {
  const wal = `${file}-wal`;
  const dir = path.dirname(file);
  const opened = fileId(file);
  const openedWal = fileId(wal);

  function writeProbe(): boolean {
    if (db.inTransaction) return true;
    const timeout = db.pragma("busy_timeout", { simple: true }) as number;
    db.pragma("busy_timeout = 0");
    try {
      // BEGIN IMMEDIATE alone passes on a read-only connection (SQLite skips the write lock there): write the header's
      // user_version to the value it has, then roll back. Nothing reaches the disk; SQLITE_READONLY if it cannot.
      const version = db.pragma("user_version", { simple: true }) as number;
      db.exec("BEGIN IMMEDIATE");
      db.pragma(`user_version = ${Number(version)}`);
      db.exec("ROLLBACK");
      return true;
    } catch (error) {
      return isBusy(error);
    } finally {
      try {
        if (db.inTransaction) db.exec("ROLLBACK");
        db.pragma(`busy_timeout = ${timeout}`);
      } catch {
        // The connection is failing; the probe's answer stands.
      }
    }
  }

  return () => {
    if (!db.open || !opened) return false;
    if (!same(opened, fileId(file))) return false;
    if (openedWal && !same(openedWal, fileId(wal))) return false;
    if (!writable(file) || !writable(dir) || (openedWal && !writable(wal))) return false;
    try {
      if (db.prepare("select 1").pluck().get() !== 1) return false;
      return writeProbe();
    } catch {
      return false;
    }
  };
}
