// The bare app's server: Express + compression + static assets + the Remix handler, like ours minus everything else.
// PORT (default 3000), HOST (default 127.0.0.1). Run `npm run bench` (it builds ./build first).
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import compression from "compression";
import express from "express";

const here = path.dirname(fileURLToPath(import.meta.url));
const build = await import(pathToFileURL(path.join(here, "build", "index.js")).href);

const app = express();
app.disable("x-powered-by");
app.use(compression());
app.use("/build", express.static(path.join(here, "build", "client"), { immutable: true, maxAge: "1y", index: false }));
app.all("*", createRequestHandler({ build, mode: "production" }));

const server = app.listen(Number(process.env.PORT || 3000), process.env.HOST || "127.0.0.1", () => {
  const address = server.address();
  console.log(`bare Remix listening on http://${address.address}:${address.port}`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
