import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { seedPortfolio } from "../../upstream/src/applications/demo";
import { openDatabase } from "../../upstream/src/db";

/**
 * A data directory whose database holds `count` demo applications (seeded, then closed), for a test file's
 * `beforeAll`; `remove` in its `afterAll` (tempDir in helpers.ts is per test).
 */
export function seededPortfolioDir(prefix: string, count = 3000): { dir: string; remove: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const db = openDatabase(dir);
  seedPortfolio(db, { count, now: () => Date.UTC(2026, 0, 1) });
  db.close();
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** A search answer as comparable text: its total, and each hit's id and score in order. */
export const rankedHits = (answer: { data: { id: string; score: number | null }[]; total: number }) => ({
  total: answer.total,
  hits: answer.data.map((h) => `${h.id} ${h.score}`),
});
