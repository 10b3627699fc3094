// Bundles server.ts (and the embedded upstream it starts) into $BUILD_DIR/server.js for `npm start`.
// Packages stay external: they are installed in node_modules. The Remix build is imported at run time.
import { build } from "esbuild";

const dir = process.env.BUILD_DIR || "build";

await build({
  entryPoints: ["server.ts"],
  outfile: `${dir}/server.js`,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
});
