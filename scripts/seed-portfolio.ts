/**
 * Demo portfolio applications: `npm run seed:portfolio -- --count N [--data-dir DIR] [--batch 5000]`.
 * Deterministic (application i is always the same); ids that exist are skipped, so a second run with a larger count
 * adds only the new ones. Spread over 'public' and two organizations (the first two by name; "Northwind Patents" and
 * "Contoso IP" are created when there are fewer). One transaction per batch; 1M rows take a few minutes.
 */
import { parseArgs } from "node:util";
import { openDatabase } from "../upstream/src/db";
import { seedPortfolio } from "../upstream/src/applications/demo";

const { values } = parseArgs({
  options: {
    count: { type: "string", default: "10000" },
    "data-dir": { type: "string", default: process.env.DATA_DIR || "./data" },
    batch: { type: "string", default: "5000" },
    optimize: { type: "boolean", default: false },
  },
});
const count = Number(values.count);
const batch = Number(values.batch);
if (!Number.isInteger(count) || count < 0 || !Number.isInteger(batch) || batch < 1) {
  console.error("Usage: npm run seed:portfolio -- --count N [--data-dir DIR] [--batch 5000] [--optimize]");
  process.exit(1);
}
const db = openDatabase(values["data-dir"]);
db.pragma("cache_size = -262144"); // 256 MB while seeding
const started = Date.now();
const inserted = seedPortfolio(db, {
  count,
  batch,
  optimize: values.optimize,
  onProgress: (done) => {
    const s = (Date.now() - started) / 1000;
    process.stdout.write(`\r${done.toLocaleString("en-US")} / ${count.toLocaleString("en-US")} (${s.toFixed(0)} s)`);
  },
});
db.close();
console.log(`\n${inserted} applications added in ${((Date.now() - started) / 1000).toFixed(1)} s (${values["data-dir"]}).`);
