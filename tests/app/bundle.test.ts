/**
 * What a list page costs the browser (the goal: JavaScript on a list route ≤ 100 KB gzip), read from the build's
 * esbuild metafile: the entry, the root, the shell and the /people route with every chunk they import statically
 * (what Remix preloads), gzipped at level 6 as the compression middleware does.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { BUILD_DIR } from "../helpers/server";

type Output = { imports: { path: string; kind: string }[]; entryPoint?: string; inputs: Record<string, unknown> };
const meta = JSON.parse(readFileSync(path.join(BUILD_DIR, "metafile.js.json"), "utf8")) as { outputs: Record<string, Output> };
const outputs = Object.entries(meta.outputs).filter(([file]) => file.endsWith(".js"));

function outputOf(entry: string): string {
  const found = outputs.find(([, o]) => o.entryPoint?.includes(entry));
  if (!found) throw new Error(`No client output for ${entry}`);
  return found[0];
}

/** The files a page loads: the entry points and their static imports, transitively. */
function closure(entries: string[]): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const i of meta.outputs[file]?.imports ?? []) if (i.kind === "import-statement") visit(i.path);
  };
  entries.map(outputOf).forEach(visit);
  return [...seen];
}

describe("the JavaScript of a list page", () => {
  const files = closure(["entry.client", "root.tsx", "routes/_app.tsx", "routes/_app.people._index.tsx"]);

  it("is at most 100 KB gzip on /people", () => {
    const gzip = files.reduce((n, f) => n + gzipSync(readFileSync(f), { level: 6 }).length, 0);
    console.log(`[bundle] /people: ${files.length} files, ${(gzip / 1024).toFixed(1)} KB gzip`);
    expect(gzip).toBeLessThanOrEqual(100 * 1024);
  });

  it("leaves the route table and form validation to the server", () => {
    const inputs = files.flatMap((f) => Object.keys(meta.outputs[f]!.inputs));
    expect(inputs.filter((i) => i.endsWith("app/lib/routes.ts"))).toEqual([]);
    expect(inputs.filter((i) => i.includes("@conform-to") || i.includes("node_modules/zod"))).toEqual([]);
  });
});
