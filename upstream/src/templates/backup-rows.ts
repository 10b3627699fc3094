import { Worker } from "node:worker_threads";

/**
 * A backup's `records/{table}.json` read off the event loop. The entry may be up to 50 MB (the zip reader's limit),
 * and JSON.parse holds the thread for its whole length: ~3 ms per MB of real rows, ~60 ms per MB of hostile JSON
 * (8 MB of small numbers took 0.5 s). A worker thread parses it and checks its shape, and sends back only what the
 * import needs: the rows that pass and, for each, the values of its `data` that look like stored files. A damaged
 * entry costs the main thread nothing. Each import starts its own worker; imports are rare and an administrator's.
 *
 * The worker is a small CommonJS script given as text (as in search/rank-pool.ts), so the same code runs under tsx,
 * vitest and the bundled server.
 */

/** A row as stored: every column a string, number or null. */
export type BackupRow = Record<string, string | number | null> & { id: string; name: string };

/** What a row's `data` holds that looks like a stored file: the import checks it with `isStoredRecordFile`. */
type FileCandidate = Record<string, unknown>;

export type CheckedRows = { rows: BackupRow[]; files: FileCandidate[][] } | { error: string };

/** The heap the worker may use: a 50 MB entry of real rows needs ~250 MB; past this the entry is refused. */
const ROWS_WORKER_HEAP_MB = 512;

const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const { text, columns, required } = workerData;
const answer = (value) => parentPort.postMessage(value);
(() => {
  let raw;
  try {
    raw = JSON.parse(text);
  } catch {
    return answer({ error: "not JSON" });
  }
  if (!Array.isArray(raw)) return answer({ error: "not a list" });
  const ids = new Set();
  const files = [];
  for (let i = 0; i < raw.length; i++) {
    const row = raw[i];
    if (!row || typeof row !== "object" || Array.isArray(row)) return answer({ error: "item " + i + " is not a record" });
    const keys = Object.keys(row);
    if (keys.length !== columns.length || !columns.every((c) => Object.hasOwn(row, c))) {
      return answer({ error: "item " + i + " does not have this version's columns" });
    }
    for (const c of columns) {
      const v = row[c];
      if (v !== null && typeof v !== "string" && typeof v !== "number") return answer({ error: "item " + i + ": " + c });
    }
    if (typeof row.id !== "string" || !row.id || ids.has(row.id)) return answer({ error: "item " + i + ": id" });
    for (const c of required) if (row[c] === null) return answer({ error: "item " + i + ": " + c + " must not be null" });
    ids.add(row.id);
    if (typeof row.name !== "string") return answer({ error: "item " + i + ": name" });
    let found = [];
    if (typeof row.data === "string") {
      let data;
      try {
        data = JSON.parse(row.data);
      } catch {
        return answer({ error: "item " + i + ": data" });
      }
      if (data && typeof data === "object") {
        found = Object.values(data).filter((v) => v && typeof v === "object" && typeof v.key === "string" && typeof v.sha256 === "string");
        if (found.length > 16) return answer({ error: "item " + i + ": data" });
      }
    }
    files.push(found);
  }
  answer({ rows: raw, files });
})();
`;

/**
 * Parses `text` as a table's rows and checks them: a list of records with exactly `columns`, each a string, number
 * or null (never null for the `required` ones: the table's NOT NULL columns); ids unique and non-empty; name a
 * string; data, when a string, JSON. Answers the rows, or the first problem ("not JSON", "not a list", "item 3: id",
 * "item 0: template_id must not be null", "too large to read", ...).
 */
export function checkBackupRows(text: string, columns: string[], required: string[] = []): Promise<CheckedRows> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, {
      eval: true,
      workerData: { text, columns, required },
      resourceLimits: { maxOldGenerationSizeMb: ROWS_WORKER_HEAP_MB },
    });
    let settled = false;
    const settle = (result: CheckedRows | Error) => {
      if (settled) return;
      settled = true;
      void worker.terminate();
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    worker.once("message", (result: CheckedRows) => settle(result));
    worker.once("error", (error: NodeJS.ErrnoException) =>
      settle(error.code === "ERR_WORKER_OUT_OF_MEMORY" ? { error: "too large to read" } : error),
    );
    worker.once("exit", () => settle(new Error("The backup check stopped without an answer.")));
  });
}
