import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

/** What scripts/start.sh hands node (docs/decisions/memory-settings.md): a stand-in `node` prints its argv and env. */
function start(env: Record<string, string> = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), "start-sh-"));
  const fake = path.join(dir, "node");
  writeFileSync(fake, '#!/bin/sh\necho "args: $*"\necho "arena: $MALLOC_ARENA_MAX mmap: $MALLOC_MMAP_THRESHOLD_ trim: $MALLOC_TRIM_THRESHOLD_"\n');
  chmodSync(fake, 0o755);
  return execFileSync("sh", ["scripts/start.sh", "--extra"], { env: { NODE_ENV: "production", PATH: process.env.PATH!, NODE: fake, ...env }, encoding: "utf8" });
}

describe("scripts/start.sh", () => {
  it("starts the build with a 32 MB young generation and glibc told to give memory back", () => {
    expect(start()).toBe("args: --max-semi-space-size=32 build/server.js --extra\narena: 2 mmap: 131072 trim: 131072\n");
  });
  it("each setting can be overridden", () => {
    expect(start({ NODE_SEMI_SPACE_MB: "16", BUILD_DIR: "other", MALLOC_ARENA_MAX: "4" })).toBe(
      "args: --max-semi-space-size=16 other/server.js --extra\narena: 4 mmap: 131072 trim: 131072\n",
    );
  });
});
