// Copies the locally installed monaco-editor (its AMD build, min/vs) into public/monaco/vs, where the template editor
// loads it from (same origin: no CDN). Skipped when the copy already matches the installed version.
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

// monaco-editor's "exports" hides package.json from require.resolve: read it from node_modules.
const pkgFile = path.resolve("node_modules", "monaco-editor", "package.json");
const { version } = JSON.parse(readFileSync(pkgFile, "utf8"));
const source = path.join(path.dirname(pkgFile), "min", "vs");
const target = path.resolve("public", "monaco");
const stamp = path.join(target, "VERSION");

if (existsSync(stamp) && readFileSync(stamp, "utf8").trim() === version) process.exit(0);
rmSync(target, { recursive: true, force: true });
cpSync(source, path.join(target, "vs"), { recursive: true });
writeFileSync(stamp, `${version}\n`);
console.log(`monaco-editor ${version} copied to public/monaco/vs`);
