/**
 * Copy and paste of steps with their inner paths (the paths whose both ends were copied; a path to a step left behind
 * would dangle). Pure: the clip is plain data, and pasting gives the steps and paths to add, with fresh ids and
 * shifted positions, which the canvas applies as one graph edit (one undo).
 */
import type { Path, Step } from "@contract/milestone-templates";
import { NOWHERE_TYPE, START_TYPE } from "@contract/graph";

export type Clip = { steps: Step[]; paths: Path[] };

/** How far a pasted copy sits from its original (and from the previous paste). */
export const PASTE_OFFSET = 40;

/** Steps the template has once at most (the nowhere node has a fixed id; one start): never copied. */
const single = (step: Step) => step.type === NOWHERE_TYPE || step.type === START_TYPE;

export function copySteps(doc: { steps: readonly Step[]; paths: readonly Path[] }, ids: Iterable<string>): Clip | null {
  const wanted = new Set(ids);
  const steps = doc.steps.filter((s) => wanted.has(s.id) && !single(s));
  if (!steps.length) return null;
  const kept = new Set(steps.map((s) => s.id));
  const paths = doc.paths.filter((p) => kept.has(p.from.step) && kept.has(p.to.step));
  return structuredClone({ steps, paths });
}

/**
 * The clip's steps and paths as they are added: each step a fresh id from `newId`, given every id taken so far (the
 * document's and the copies' before it), moved
 * by `times` offsets, and the inner paths rewired to the copies. Roadmap stages are not copied: a step belongs to one
 * stage only.
 */
export function pasteClip(clip: Clip, existingIds: Iterable<string>, newId: (taken: ReadonlySet<string>) => string, times = 1): Clip {
  const taken = new Set(existingIds);
  const fresh = new Map<string, string>();
  for (const step of clip.steps) {
    const id = newId(taken);
    if (taken.has(id)) throw new Error(`newId gave a taken id: ${id}`);
    taken.add(id);
    fresh.set(step.id, id);
  }
  const shift = PASTE_OFFSET * times;
  const steps = clip.steps.map((s) => ({
    ...structuredClone(s),
    id: fresh.get(s.id)!,
    display: { ...s.display, position: { x: s.display.position.x + shift, y: s.display.position.y + shift } },
  }));
  const paths = clip.paths.map((p) => {
    const copy = structuredClone(p);
    const { id: _dropped, ...rest } = copy;
    void _dropped;
    return {
      ...rest,
      from: { ...copy.from, step: fresh.get(p.from.step)! },
      to: { ...copy.to, step: fresh.get(p.to.step)! },
      display: { pins: copy.display.pins.map((pin) => ({ x: pin.x + shift, y: pin.y + shift })) },
    };
  });
  return { steps, paths };
}
