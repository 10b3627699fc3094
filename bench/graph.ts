/**
 * The graph model at editor scale (`npm run bench:graph [-- --sizes 300,1000,2000 --rounds 200]`): a generated
 * template of N steps and about 2N paths (layers of tasks, every fifth layer joined by an AND step, some cross links
 * and cycles), timed for reachability + the shortest planned duration together (what the header recomputes after
 * each edit; goal ≤ 5 ms at 1,000 steps), and for validateTemplate (every save). Reports p50 and p99 per size.
 */
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { reachable, shortestPlannedDuration, validateTemplate, type TemplateGraph } from "../upstream/contract/graph";

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const SIZES = (arg("sizes") ?? "300,1000,2000").split(",").map(Number);
const ROUNDS = Number(arg("rounds") ?? 200);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
};

/** N steps in layers of 4: each task leads to two of the next layer; every fifth layer ends in an AND join. */
export function generatedTemplate(n: number): TemplateGraph {
  const step = (id: string, type: TemplateGraph["steps"][number]["type"], hours: number) => ({
    id,
    type,
    title: id,
    durationHours: hours,
    display: { position: { x: 0, y: 0 } },
    transitions: [],
    options: { notifications: { email: "" as const }, instructions: "" },
    isCriticalDate: false,
  });
  const steps: TemplateGraph["steps"] = [step("start", "milestone-start", 0), step("finish", "finish", 0), step("100500", "nowhere", 0)];
  const paths: TemplateGraph["paths"] = [];
  const link = (from: string, to: string) => paths.push({ from: { step: from, action: {} }, to: { step: to, action: { predicates: [] } }, display: { pins: [] } });
  let previous = ["start"];
  let k = 0;
  for (let layer = 0; steps.length < n; layer++) {
    if (layer % 5 === 4) {
      const join = `and-${layer}`;
      steps.push(step(join, "and", 0));
      for (const p of previous) link(p, join);
      previous = [join];
      continue;
    }
    const current: string[] = [];
    for (let i = 0; i < 4 && steps.length < n; i++) current.push(`t-${k++}`);
    for (const id of current) steps.push(step(id, "task", 1 + (k % 7)));
    previous.forEach((p, i) => {
      link(p, current[i % current.length]!);
      if (current.length > 1) link(p, current[(i + 1) % current.length]!);
    });
    // A way back (a cycle) from the layer's last task to the first of the layer before.
    if (layer % 3 === 2 && previous[0] !== "start" && !previous[0]!.startsWith("and")) link(current[current.length - 1]!, previous[0]!);
    previous = current;
  }
  for (const p of previous) link(p, "finish");
  return { steps, paths, roadmap: [], variables: [] };
}

function time(fn: () => void): number[] {
  for (let i = 0; i < 20; i++) fn();
  const out: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t0 = performance.now();
    fn();
    out.push(performance.now() - t0);
  }
  return out;
}

function main() {
  console.log("| steps | paths | reachability + shortest duration p50 / p99 | validateTemplate p50 / p99 |");
  console.log("|---:|---:|---:|---:|");
  for (const n of SIZES) {
    const doc = generatedTemplate(n);
    const hours = shortestPlannedDuration(doc);
    if (!reachable(doc).has("finish") || hours === null) throw new Error(`the generated template of ${n} steps cannot finish`);
    if (validateTemplate(doc).length) throw new Error(`the generated template of ${n} steps is unsound: ${validateTemplate(doc)[0]}`);
    const both = time(() => {
      reachable(doc);
      shortestPlannedDuration(doc);
    });
    const valid = time(() => validateTemplate(doc));
    const f = (xs: number[]) => `${pct(xs, 50).toFixed(2)} / ${pct(xs, 99).toFixed(2)} ms`;
    console.log(`| ${doc.steps.length} | ${doc.paths.length} | ${f(both)} | ${f(valid)} |`);
  }
}

// Other benches import the generator (bench/canvas.ts): the timing runs only when this file is the one started.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
