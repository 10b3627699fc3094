// Copies elkjs's web worker (the whole layout engine, 1.6 MB) into public/elk, where the template editor's canvas
// starts it from (same origin, so the CSP's worker-src 'self' admits it). The engine never joins a JavaScript chunk:
// only a press of Auto-layout downloads it, and it runs off the main thread. Skipped when the copy already matches
// the installed version.
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const pkgDir = path.resolve("node_modules", "elkjs");
const { version } = JSON.parse(readFileSync(path.join(pkgDir, "package.json"), "utf8"));
const target = path.resolve("public", "elk");
const stamp = path.join(target, "VERSION");

if (existsSync(stamp) && readFileSync(stamp, "utf8").trim() === version) process.exit(0);
mkdirSync(target, { recursive: true });
copyFileSync(path.join(pkgDir, "lib", "elk-worker.min.js"), path.join(target, "elk-worker.min.js"));
writeFileSync(stamp, `${version}\n`);
console.log(`elkjs ${version} worker copied to public/elk`);
