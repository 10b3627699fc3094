import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/** Every source file of the app. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return /\.(ts|tsx)$/.test(entry.name) ? [file] : [];
  });
}

describe("modal dialogs", () => {
  const files = sources("app").map((file) => ({ file, text: readFileSync(file, "utf8") }));

  it("open only through openModal, which puts focus on the safe choice", () => {
    const callers = files.filter(({ file, text }) => file !== path.join("app", "ui", "modal.ts") && /\.showModal\(/.test(text));
    expect(callers.map((c) => c.file)).toEqual([]);
  });

  it("mark the safe choice of every destructive dialog", () => {
    // A file rendering a <dialog> with a destructive button must say where focus starts (React's autoFocus is lost
    // to showModal: app/ui/modal.ts).
    const unmarked = files.filter(({ text }) => /<dialog\b/.test(text) && /btn-danger/.test(text) && !/data-initial-focus/.test(text));
    expect(unmarked.map((c) => c.file)).toEqual([]);
  });
});
