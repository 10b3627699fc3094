/**
 * One element's props from several parts, later parts winning: what `<input {...a} {...b} c={…} />` would pass.
 *
 * Why not write the spreads: JSX compiles those to an object literal that spreads one object and then adds
 * more properties, which V8 (Node 20) builds on a slow path; React then copies and walks the result slowly again, so
 * a link or an input built that way renders several times slower on the server (docs/decisions/page-render-cost.md).
 * `Object.assign` onto a fresh object is as cheap as written-out props. So a
 * component that forwards props it was given writes `<a {...attrs(rest, { href })} />`: one spread and nothing else,
 * which V8 copies on its fast path. The lint rule "one spread, alone" (eslint.config.js) points here.
 */
export function attrs<A extends object, B extends object>(a: A, b: B): A & B;
export function attrs<A extends object, B extends object, C extends object>(a: A, b: B, c: C): A & B & C;
export function attrs(...parts: object[]): object {
  return Object.assign({}, ...parts);
}
