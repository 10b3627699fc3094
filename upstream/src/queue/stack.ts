import path from "node:path";

/**
 * A stack as staff may read it: paths relative to the project, never the server's absolute paths (they tell a reader
 * where and as whom the server runs, and they are noise). `root` is the project the server was started from; a
 * path outside it keeps what follows its `node_modules/`, else only its file name.
 */
export function projectRelativeStack(stack: string, root: string = process.cwd()): string {
  const base = root.endsWith(path.sep) ? root : root + path.sep;
  return stack
    .replaceAll(`file://${base}`, "")
    .replaceAll(base, "")
    .replace(/(?<=^|[\s(])(?:file:\/\/)?(?:\/|[A-Za-z]:\\)[^\s():]*?[\\/]node_modules[\\/]/gm, "node_modules/")
    .replace(/(?<=^|[\s(])(?:file:\/\/)?\/(?:[^\s():/]+\/)+([^\s():/]+)/gm, "$1");
}
