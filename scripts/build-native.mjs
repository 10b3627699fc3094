// Compiles the search's ranking extension (upstream/native/rank.c: bm25v, docs/decisions/search-engine.md) into
// .cache/native/, against the SQLite that better-sqlite3 ships (its sqlite3ext.h, and fts5.h cut from its
// amalgamation). Run by `npm install` and `npm run build`; skipped when the library is newer than its sources.
// Without a C compiler it says so and stops without failing: the search then ranks with FTS5's own bm25 (slower on
// broad queries at a million applications). `--require` (CI) fails instead.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const required = process.argv.includes("--require");
const source = path.resolve("upstream", "native", "rank.c");
const sqliteDir = path.resolve("node_modules", "better-sqlite3", "deps", "sqlite3");
const amalgamation = path.join(sqliteDir, "sqlite3.c");
const outDir = path.resolve(".cache", "native");
const output = path.join(outDir, process.platform === "darwin" ? "rank.dylib" : "rank.so");
const script = fileURLToPath(import.meta.url);

function give(message) {
  if (required) {
    console.error(`native: ${message}`);
    process.exit(1);
  }
  console.warn(`native: ${message}; the portfolio search ranks with FTS5's bm25 instead (run npm run build:native once fixed)`);
  process.exit(0);
}

if (process.platform === "win32") give("the ranking extension is built on Linux and macOS only");
if (!existsSync(amalgamation)) give(`${amalgamation} is missing (is better-sqlite3 installed?)`);
const newest = Math.max(...[source, amalgamation, script].map((f) => statSync(f).mtimeMs));
if (existsSync(output) && statSync(output).mtimeMs >= newest) process.exit(0);
// Stale: gone before anything can fail, so that an older build is never loaded with today's SQL.
rmSync(output, { force: true });

const cc = process.env.CC || "cc";
try {
  execFileSync(cc, ["--version"], { stdio: "ignore" });
} catch {
  give(`no C compiler (${cc}): install one (Debian: apt-get install gcc libc6-dev) or set CC`);
}

// fts5.h is public in SQLite's sources but only inside the amalgamation here: cut it out, so its structs are this
// SQLite's own.
const text = readFileSync(amalgamation, "utf8");
const begin = text.indexOf("/******** Begin file fts5.h *********/");
const end = text.indexOf("/******** End of fts5.h *********/");
if (begin < 0 || end < begin) give("fts5.h was not found in better-sqlite3's amalgamation");
const include = path.join(outDir, "include");
mkdirSync(include, { recursive: true });
writeFileSync(path.join(include, "fts5.h"), text.slice(begin, end));

const flags = ["-O2", "-fPIC", "-Wall", "-Werror", `-I${sqliteDir}`, `-I${include}`, source, "-o", output, "-lm"];
try {
  execFileSync(cc, [...(process.platform === "darwin" ? ["-dynamiclib"] : ["-shared"]), ...flags], { stdio: "inherit" });
} catch {
  give(`${cc} could not compile ${path.relative(process.cwd(), source)}`);
}
console.log(`native: ${path.relative(process.cwd(), output)} built`);
