// Bundles server.ts (and the embedded upstream it starts) into build/server.js for `npm start`.
// Packages stay external: they are installed in node_modules. The Remix build is imported at run time.
import { build } from "esbuild";

await build({
  entryPoints: ["server.ts"],
  outfile: "build/server.js",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
});
