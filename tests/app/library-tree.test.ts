/**
 * The category tree with JavaScript: where a dragged category lands (the drop and its announcement share
 * projectMove), and dnd-kit costs only /library, in a chunk of its own asked for by the route alone.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { projectMove, withoutDescendants, type TreeRow } from "~/library/tree-move";
import { LIBRARY } from "~/library/texts";
import { BUILD_DIR } from "../helpers/server";

/** A tree in pre-order from "name depth" lines, each open; `closed` names the ones whose children are hidden. */
function treeOf(lines: string[], closed: Record<string, number> = {}): TreeRow[] {
  const rows: TreeRow[] = [];
  const stack: TreeRow[] = [];
  for (const line of lines) {
    const depth = line.length - line.trimStart().length;
    const name = line.trim();
    stack.length = depth;
    const parent = stack[depth - 1] ?? null;
    const order = rows.filter((r) => r.parentId === (parent?.id ?? null)).length;
    const row: TreeRow = { id: name, name, path: [...stack.map((s) => s.name), name].join(" > "), parentId: parent?.id ?? null, depth, order, children: 0, open: true };
    if (parent) parent.children++;
    rows.push(row);
    stack[depth] = row;
  }
  for (const [id, children] of Object.entries(closed)) Object.assign(rows.find((r) => r.id === id)!, { children, open: false });
  return rows;
}

describe("a dragged category's landing place", () => {
  const rows = treeOf(["A", " A1", " A2", "B", " B1", "C"]);

  it("reorders among siblings: the place counts its siblings without it", () => {
    expect(projectMove(rows, "C", "B", 0)).toMatchObject({ parentId: null, order: 1, depth: 0, position: 2, of: 3 });
    // A moved down past B lands between B and B1, which must keep its parent: A is B's first child.
    expect(projectMove(rows, "A", "B", 0)).toMatchObject({ parentId: "B", order: 0, depth: 1 });
    expect(projectMove(rows, "A2", "A1", 0)).toMatchObject({ parentId: "A", order: 0, position: 1, of: 2 });
  });

  it("nests under the row above with right, at most one level deeper; left takes it out, as deep as the row below needs", () => {
    // C dropped where it is, one step right: the last child of B.
    expect(projectMove(rows, "C", "C", 1)).toMatchObject({ parentId: "B", order: 1, depth: 1, position: 2, of: 2 });
    // Three steps right is still one level under the row above (B1): B1's first child.
    expect(projectMove(rows, "C", "C", 3)).toMatchObject({ parentId: "B1", order: 0, depth: 2 });
    // A1 with left: the row below (A2) must keep its parent A, so A1 stays under A.
    expect(projectMove(rows, "A1", "A1", -1)).toMatchObject({ parentId: "A", depth: 1 });
    // A2 with left: A2 is the last of A's children, so it can leave: top level, after A.
    expect(projectMove(rows, "A2", "A2", -1)).toMatchObject({ parentId: null, order: 1, depth: 0, position: 2, of: 4 });
  });

  it("a category's descendants travel with it: they are not rows to drop on", () => {
    expect(withoutDescendants(rows, "A").map((r) => r.id)).toEqual(["A", "B", "B1", "C"]);
    expect(projectMove(rows, "A", "A1", 0)).toBeNull();
    // A dropped over C (its children hidden): the top level's last.
    expect(projectMove(rows, "A", "C", 0)).toMatchObject({ parentId: null, order: 2, position: 3, of: 3 });
  });

  it("under a category whose children are hidden it goes last (no order), counted after them", () => {
    const closed = treeOf(["A", "B", "C"], { B: 4 });
    expect(projectMove(closed, "C", "C", 1)).toMatchObject({ parentId: "B", order: undefined, position: 5, of: 5 });
  });

  it("is announced in words: lifted, where it is, dropped, cancelled", () => {
    const p = projectMove(rows, "C", "C", 1)!;
    expect(LIBRARY.dnd.over("C", LIBRARY.dnd.where("B", p.position, p.of))).toBe("C is under B, position 2 of 2.");
    expect(LIBRARY.dnd.dropped("C", LIBRARY.dnd.where(null, 1, 3))).toBe("Category C was dropped at the top level, position 1 of 3.");
    expect(LIBRARY.dnd.picked("A > A1")).toBe("Picked up category A > A1.");
    expect(LIBRARY.dnd.cancelled("C")).toBe("Moving category C was cancelled; it is back where it was.");
  });
});

type Output = { imports: { path: string; kind: string }[]; entryPoint?: string; inputs: Record<string, unknown> };

describe("the drag-and-drop tree's JavaScript", () => {
  const meta = JSON.parse(readFileSync(path.join(BUILD_DIR, "metafile.js.json"), "utf8")) as { outputs: Record<string, Output> };
  const outputs = meta.outputs;
  const js = Object.keys(outputs).filter((f) => f.endsWith(".js"));
  const holds = (file: string, pkg: string) => Object.keys(outputs[file]!.inputs).some((i) => i.includes(`node_modules/${pkg}`));
  const closure = (entries: string[], kinds: string[]) => {
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const i of outputs[file]?.imports ?? []) if (kinds.includes(i.kind)) visit(i.path);
    };
    entries.forEach(visit);
    return seen;
  };

  it("is a chunk that only /library's route asks for, when it renders the tree for a writer", () => {
    const dnd = js.filter((f) => holds(f, "@dnd-kit/core"));
    expect(dnd.length).toBeGreaterThan(0);
    const routes = js.filter((f) => /(entry\.client|root|routes\/.*)\.tsx(\?browser)?$/.test(outputs[f]!.entryPoint ?? ""));
    expect(routes.length).toBeGreaterThan(50);
    // No entry (the client entry, root, any route) loads it with its static imports.
    const statically = routes.filter((r) => [...closure([r], ["import-statement"])].some((f) => dnd.includes(f)));
    expect(statically).toEqual([]);
    // Asked for (a dynamic import) by /library's route alone.
    const asking = routes.filter((r) => [...closure([r], ["import-statement", "dynamic-import"])].some((f) => dnd.includes(f)));
    expect(asking.map((r) => outputs[r]!.entryPoint)).toEqual([expect.stringMatching(/routes\/_app\.library\.tsx(\?browser)?$/)]);
  });
});
