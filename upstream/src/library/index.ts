/**
 * The library (docs/decisions/library.md), mounted on the upstream: categories, the item index over drawings,
 * prompt chains and specifications with its statistics, item settings saved through each item's domain, and the drawing token flow.
 */
import path from "node:path";
import type { Hono, MiddlewareHandler } from "hono";
import type { ChainEdits } from "../chains";
import type { Db } from "../db";
import { LocalFileStore } from "../lib/files";
import type { AppEnv } from "../lib/http";
import { RecordFiles } from "../lib/record-files";
import type { SpecificationsStore } from "../specifications/store";
import { DrawingsStore } from "../templates/store";
import { DrawingTokens, categoryRoutes, drawingTokenRoutes, libraryRoutes } from "./routes";
import { drawingSource, promptSource, specificationSource } from "./sources";
import { LibraryStore } from "./store";

export type LibraryOptions = {
  db: Db;
  now: () => number;
  requireAuth: MiddlewareHandler<AppEnv>;
  /** The upstream's signing secret: the drawing tokens' key is derived from it. */
  secret: string;
  /** DATA_DIR: the drawings' files are under its `files`. */
  dataDir: string;
  specifications: SpecificationsStore;
  /** The chains' own save: a prompt's settings are a new version of the chain under its rules. */
  chains: ChainEdits;
};

export function mountLibrary(app: Hono<AppEnv>, o: LibraryOptions): LibraryStore {
  const drawings = new DrawingsStore(o.db, o.now);
  const library = new LibraryStore(o.db, o.now, [
    drawingSource(o.db, drawings),
    promptSource(o.chains),
    specificationSource(o.db, o.specifications),
  ]);
  const files = new RecordFiles(new LocalFileStore(path.join(o.dataDir, "files")), o.now);
  app.route("/api/categories", categoryRoutes({ library, requireAuth: o.requireAuth }));
  app.route("/api/library", libraryRoutes({ library, requireAuth: o.requireAuth }));
  app.route(
    "/api/drawings",
    drawingTokenRoutes({ drawings, files, tokens: new DrawingTokens(o.secret, o.now), requireAuth: o.requireAuth }),
  );
  return library;
}
