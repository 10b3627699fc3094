import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/**
 * Files whose assertions are timings of the server under attack (the longest event-loop block, `/healthz` answering
 * meanwhile, a socket kept open while a refused body drains) or of a run's Stop (the provider's request closed within
 * 100 ms). They run last, one file at a time: beside another fork on two cores they measure the neighbour's CPU, not
 * the code.
 */
const TIMED = [
  "tests/fuzz/**/*.test.ts",
  "tests/server*.test.ts",
  "tests/multipart-page.test.ts",
  "tests/document-encoding.test.ts",
  "tests/app/chains-runs.test.ts",
  ...["chain-runs", "chain-runs-content-ai", "converters-hostile", "docx", "durability", "multipart", "portfolio-import", "search-bounds", "templates-backup", "templating", "xfa", "xml", "zip"].map(
    (name) => `tests/upstream/${name}.test.ts`,
  ),
];

export default defineConfig({
  resolve: {
    alias: {
      "~": fileURLToPath(new URL("./app", import.meta.url)),
      "@contract": fileURLToPath(new URL("./upstream/contract", import.meta.url)),
    },
  },
  test: {
    environment: "node",
    pool: "forks",
    // A fork per core, two at least. Vitest's default keeps one core for itself, which on a two-core machine runs
    // every file in one fork, one after another; a file spends much of its time importing the app and waiting on
    // its database or a child server, so the second fork fills that time.
    maxWorkers: Math.max(2, availableParallelism()),
    testTimeout: 20_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: "parallel",
          include: ["tests/**/*.test.ts", "tests/**/*.test.tsx"],
          exclude: TIMED,
          sequence: { groupOrder: 0 },
          // A fork runs its files one after another in one module graph instead of importing the app afresh for each:
          // measured on a sample, 2.4 times less CPU. Safe because no file here mocks a module or changes the
          // environment (the one that mocks a module, durability, is a timed file with a fork of its own).
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: "timed", include: TIMED, sequence: { groupOrder: 1 }, poolOptions: { forks: { singleFork: true } } },
      },
    ],
  },
});
