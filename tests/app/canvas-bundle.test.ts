/**
 * The template editor's canvas costs only its own route, and only once the page asks for it (DESIGN.md "Heavy
 * widgets"): read from the build's esbuild metafile, as tests/app/bundle.test.ts reads the list pages'.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { BUILD_DIR } from "../helpers/server";

type Output = { imports: { path: string; kind: string }[]; entryPoint?: string; inputs: Record<string, unknown> };
const meta = JSON.parse(readFileSync(path.join(BUILD_DIR, "metafile.js.json"), "utf8")) as { outputs: Record<string, Output> };
const outputs = meta.outputs;
const js = Object.keys(outputs).filter((f) => f.endsWith(".js"));

/** The files a page loads for `entries`: they and their static imports, transitively. */
function closure(entries: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const i of outputs[file]?.imports ?? []) if (i.kind === "import-statement") visit(i.path);
  };
  entries.forEach(visit);
  return seen;
}
const entryOf = (name: string) => {
  const found = js.find((f) => outputs[f]!.entryPoint?.includes(name));
  if (!found) throw new Error(`No client output for ${name}`);
  return found;
};
const holds = (file: string, pkg: string) => Object.keys(outputs[file]!.inputs).some((i) => i.includes(`node_modules/${pkg}`));

describe("the canvas's JavaScript", () => {
  const canvas = js.find((f) => Object.keys(outputs[f]!.inputs).some((i) => i.endsWith("editor/canvas/Canvas.client.tsx")));

  it("is a chunk of its own, at most 150 KB gzip beyond what the editor's page already loads", () => {
    expect(canvas).toBeDefined();
    const page = closure(["entry.client", "root.tsx", "routes/_app.tsx", "routes/_app.workflows.$id.milestones_.$milestoneId.tsx"].map(entryOf));
    expect(page.has(canvas!)).toBe(false);
    const own = [...closure([canvas!])].filter((f) => !page.has(f));
    const gzip = own.reduce((n, f) => n + gzipSync(readFileSync(f), { level: 6 }).length, 0);
    console.log(`[bundle] canvas: ${own.length} files, ${(gzip / 1024).toFixed(1)} KB gzip`);
    expect(gzip).toBeLessThanOrEqual(150 * 1024);
    expect(own.some((f) => holds(f, "@xyflow"))).toBe(true);
  });

  it("is preloaded by no route: @xyflow and elkjs are in no route's static imports", () => {
    const routes = js.filter((f) => outputs[f]!.entryPoint?.includes("routes/"));
    expect(routes.length).toBeGreaterThan(50);
    const heavy = routes.filter((r) => [...closure([r])].some((f) => holds(f, "@xyflow") || holds(f, "elkjs")));
    expect(heavy).toEqual([]);
  });
});
