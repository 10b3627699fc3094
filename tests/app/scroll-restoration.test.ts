import { describe, expect, it } from "vitest";
import { RESTORE_SCRIPT, SCROLL_POSITIONS_KEY, keyHistoryEntry } from "~/ui/scroll-restoration";
import { appAsAdmin } from "../helpers/app";

/** Scroll restoration without a history write before the first paint. */
describe("scroll restoration", () => {
  function run(state: unknown, stored: string | null) {
    const scrolled: number[] = [];
    const removed: string[] = [];
    const history = { state };
    const sessionStorage = {
      getItem: (k: string) => (k === SCROLL_POSITIONS_KEY ? stored : null),
      removeItem: (k: string) => void removed.push(k),
    };
    new Function("history", "sessionStorage", "scrollTo", RESTORE_SCRIPT)(history, sessionStorage, (_x: number, y: number) => scrolled.push(y));
    return { scrolled, removed };
  }

  it("scrolls to the position stored under the entry's key, before any module runs", () => {
    expect(run({ key: "k1" }, JSON.stringify({ k1: 640, k2: 10 }))).toEqual({ scrolled: [640], removed: [] });
  });

  it("does nothing for an entry without a key or without a stored position, and forgets positions it cannot read", () => {
    expect(run(null, JSON.stringify({ k1: 640 }))).toEqual({ scrolled: [], removed: [] });
    expect(run({ usr: null }, JSON.stringify({ k1: 640 }))).toEqual({ scrolled: [], removed: [] });
    expect(run({ key: "k3" }, JSON.stringify({ k1: 640 }))).toEqual({ scrolled: [], removed: [] });
    expect(run({ key: "k1" }, null)).toEqual({ scrolled: [], removed: [] });
    expect(run({ key: "k1" }, "{not json")).toEqual({ scrolled: [], removed: [SCROLL_POSITIONS_KEY] });
  });

  it("gives a history entry without a key one before hydration, and leaves a keyed entry alone", () => {
    const writes: unknown[] = [];
    const fresh = { state: null as unknown, replaceState: (s: unknown) => void writes.push(s) };
    keyHistoryEntry(fresh);
    expect(writes).toEqual([{ key: expect.stringMatching(/^[0-9a-v]+$/) }]);
    keyHistoryEntry({ state: { key: "abc", idx: 3 }, replaceState: (s: unknown) => void writes.push(s) });
    expect(writes).toHaveLength(1);
  });

  const { admin } = appAsAdmin();
  it("a page's inline scripts write no history entry: only the read-only restore runs before the first paint", async () => {
    const html = await (await admin.get("/people")).text();
    expect(html).toContain(RESTORE_SCRIPT);
    expect(html).not.toContain("replaceState");
  });
});
