import fs from "node:fs";
import path from "node:path";
import type { Db } from "../db";
import { STORAGE_MESSAGES } from "./http";

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

/** What `/healthz` says: healthy, or why not (a sentence for the operator). */
export type HealthReport = { ok: true } | { ok: false; reason: string };

/** The open database's health, shared by `/healthz` and the write gate (lib/write-gate.ts). */
export type DatabaseHealth = {
  /** The full check: a few system calls and an empty write transaction, cheap enough to poll every second. */
  report(): HealthReport;
  /** Two `stat`s: why a write must not be done, or acknowledged, now (the database file lost); else null. */
  writeRefusal(): string | null;
  /** A write failed for lack of space: reported for STORAGE_FULL_REPORT_MS, or until a write succeeds. */
  storageFull(): void;
  /** A write succeeded: the disk has room again. */
  wrote(): void;
};

/**
 * How long a failed write's "disk full" stays in the report when nothing succeeds after it: long enough for a load
 * balancer's checks to see it, short enough that a freed disk is healthy again without a write (the free-space probe
 * below still sees a disk that is truly full).
 */
export const STORAGE_FULL_REPORT_MS = 60_000;

/**
 * Free space on DATA_DIR's file system below which the server is reported unhealthy: a write of a few pages (and the
 * WAL's growth until the next checkpoint) would fail soon. Space available to non-root users (`bavail`): the root
 * reserve is the operator's margin, not the server's.
 */
const MIN_FREE_BYTES = 16 * 1024 * 1024;

const MiB = 1024 * 1024;

/**
 * The health of the open database `db` at `file`: healthy only while writes would last.
 *
 * Call it right after opening: it records which file (device and inode) the database and its WAL are. `report()` is
 * unhealthy, with the reason, when:
 * 1. `file` (and its `-wal`, when it existed at open) is no longer the file that was opened: deleted, renamed away or
 *    replaced (SQLite keeps writing to the unlinked inode; everything is lost on restart). `writeRefusal()` checks
 *    this one alone, before every write and again before it is acknowledged: the write gate answers 503 then;
 * 2. the file, its WAL and its directory are not writable for this process (`access(W_OK)`): a read-only file, a
 *    directory that forbids creating the journal, a read-only or immutable file system. Root passes the permission
 *    bits (only a read-only mount or an immutable file stops it); see upstream/README.md, Health;
 * 3. a write rolled back fails (`BEGIN IMMEDIATE`, user_version set to its value, `ROLLBACK`): a connection SQLite
 *    holds read-only answers SQLITE_READONLY. Busy (another process writing) is healthy: the busy timeout is 0 for
 *    it, so it never waits;
 * 4. storage is short: a write failed with SQLITE_FULL/ENOSPC in the last STORAGE_FULL_REPORT_MS and none succeeded
 *    since, or DATA_DIR's file system has less than `minFreeBytes` available (`statfs`).
 */
export function databaseHealth(
  db: Db,
  file: string,
  options: { now?: () => number; minFreeBytes?: number } = {},
): DatabaseHealth {
  const now = options.now ?? Date.now;
  const minFreeBytes = options.minFreeBytes ?? MIN_FREE_BYTES;
  const wal = `${file}-wal`;
  const dir = path.dirname(file);
  const opened = fileId(file);
  const openedWal = fileId(wal);
  /** When the last write failed for lack of space, while no write has succeeded since. */
  let fullAt: number | null = null;

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

  const writeRefusal = (): string | null => {
    if (!opened || !same(opened, fileId(file))) return STORAGE_MESSAGES.lost;
    if (openedWal && !same(openedWal, fileId(wal))) return STORAGE_MESSAGES.lost;
    return null;
  };

  function storageShortage(): string | null {
    if (fullAt !== null && now() - fullAt < STORAGE_FULL_REPORT_MS) {
      return `Insufficient storage: a write failed at ${new Date(fullAt).toISOString()} because the disk holding DATA_DIR (${dir}) is full.`;
    }
    let available: number;
    try {
      const stats = fs.statfsSync(dir);
      available = stats.bavail * stats.bsize;
    } catch {
      return null; // the directory is gone: the checks above said so already
    }
    if (available >= minFreeBytes) return null;
    return `Insufficient storage: ${(available / MiB).toFixed(1)} MiB free on the disk holding DATA_DIR (${dir}), at least ${(minFreeBytes / MiB).toFixed(0)} MiB needed.`;
  }

  const unhealthy = (reason: string): HealthReport => ({ ok: false, reason });

  return {
    writeRefusal,
    storageFull: () => {
      fullAt = now();
    },
    wrote: () => {
      fullAt = null;
    },
    report: () => {
      if (!db.open) return unhealthy("The database is closed.");
      const lost = writeRefusal();
      if (lost) return unhealthy(lost);
      if (!writable(file) || !writable(dir) || (openedWal && !writable(wal))) {
        return unhealthy(`The database file or DATA_DIR (${dir}) is not writable: writes fail until it is.`);
      }
      try {
        if (db.prepare("select 1").pluck().get() !== 1 || !writeProbe()) {
          return unhealthy(`The database refuses writes (a read-only connection): ${STORAGE_MESSAGES.readOnly}`);
        }
      } catch (error) {
        return unhealthy(`The database fails: ${String((error as Error | null)?.message ?? error)}`);
      }
      const shortage = storageShortage();
      return shortage ? unhealthy(shortage) : { ok: true };
    },
  };
}
