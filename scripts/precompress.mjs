// Writes a brotli (.br) and a gzip (.gz) copy beside every compressible asset of the client build and of the local
// Monaco copy, once per build, at the best levels: the server sends them as they are (express-static-gzip in server.ts)
// instead of compressing every fresh visitor's ~350 KB of scripts on its one main thread, which delays the
// first paint (docs/decisions/page-render-cost.md "Assets compressed once, at build time").
//
//   node scripts/precompress.mjs            # $BUILD_DIR/client (default build/client) and public/monaco
//
// A copy is written only when it is missing or older than its source, so a second build costs a directory walk.
// The compression runs on libuv's thread pool, a few files at a time.
import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";

const brotli = promisify(brotliCompress);
const deflate = promisify(gzip);

/** What a browser fetches from these folders and compression shrinks (source maps are only read by developer tools). */
const COMPRESSIBLE = /\.(?:js|mjs|css|json|svg|html|txt|ttf|wasm)$/;
/** Below this the headers outweigh the saving (the compression middleware's own threshold). */
const MIN_BYTES = 1024;
const PARALLEL = 4;

const dirs = [
  // The app's own scripts and styles: every page's critical path. Brotli's best quality.
  { root: path.join(process.env.BUILD_DIR || "build", "client"), quality: constants.BROTLI_MAX_QUALITY },
  // Monaco (25 MB, only on the editor screens): quality 9 is a tenth of 11's time for ~3% more bytes.
  { root: path.join("public", "monaco"), quality: 9 },
];

async function* walk(dir) {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if (error.code === "ENOENT") return;
    throw error;
  }
  for (const entry of entries) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(file);
    else if (entry.isFile() && COMPRESSIBLE.test(entry.name)) yield file;
  }
}

async function isFresh(copy, sourceMtime) {
  try {
    return (await stat(copy)).mtimeMs >= sourceMtime;
  } catch {
    return false;
  }
}

async function compressOne(file, quality) {
  const info = await stat(file);
  if (info.size < MIN_BYTES) return 0;
  if ((await isFresh(`${file}.br`, info.mtimeMs)) && (await isFresh(`${file}.gz`, info.mtimeMs))) return 0;
  const body = await readFile(file);
  const [br, gz] = await Promise.all([
    brotli(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: quality,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
      },
    }),
    deflate(body, { level: 9 }),
  ]);
  await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
  return 1;
}

const started = Date.now();
// The list first, so the first build (Monaco's ~250 files at quality 9: ~20 s on two cores) can show its progress.
const jobs = [];
for (const { root, quality } of dirs) for await (const file of walk(root)) jobs.push({ file, quality });
let written = 0;
let done = 0;
let said = started;
const progress = () => {
  if (Date.now() - said < 2000) return;
  said = Date.now();
  console.log(`precompressing assets: ${done} of ${jobs.length} checked, ${written} written…`);
};
for (let i = 0; i < jobs.length; i += PARALLEL) {
  const slice = jobs.slice(i, i + PARALLEL);
  written += (await Promise.all(slice.map(({ file, quality }) => compressOne(file, quality)))).reduce((a, b) => a + b, 0);
  done += slice.length;
  progress();
}
if (written) console.log(`precompressed ${written} assets (.br, .gz) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
