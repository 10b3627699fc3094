import { describe, expect, it } from "vitest";
import { ByteBudget } from "../server/byte-budget";

/** The uploads held at once (server/byte-budget.ts), used by the form guard. */
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe("ByteBudget", () => {
  it("grants what fits at once and queues the rest, first come first served", async () => {
    const budget = new ByteBudget(100);
    const a = (await budget.acquire(60, 1000))!;
    expect(budget.inUse).toBe(60);
    const order: string[] = [];
    const b = budget.acquire(50, 1000).then((r) => (order.push("b"), r!));
    // 30 would fit beside a, but b came first: it waits behind b.
    const c = budget.acquire(30, 1000).then((r) => (order.push("c"), r!));
    await tick();
    expect(order).toEqual([]);
    a();
    a(); // a second call gives nothing back twice
    const releaseB = await b;
    const releaseC = await c;
    expect(order).toEqual(["b", "c"]);
    expect(budget.inUse).toBe(80);
    releaseB();
    releaseC();
    expect(budget.inUse).toBe(0);
  });

  it("gives up after the wait, and those behind move up", async () => {
    const budget = new ByteBudget(100);
    const a = (await budget.acquire(90, 1000))!;
    const late = budget.acquire(50, 20);
    const small = budget.acquire(5, 1000);
    expect(await late).toBeNull();
    const releaseSmall = await small;
    expect(releaseSmall).toBeTypeOf("function");
    expect(budget.inUse).toBe(95);
    a();
    releaseSmall!();
    expect(budget.inUse).toBe(0);
  });

  it("gives up when the client goes away", async () => {
    const budget = new ByteBudget(10);
    const a = (await budget.acquire(10, 1000))!;
    const gone = new AbortController();
    const waiting = budget.acquire(5, 10_000, gone.signal);
    gone.abort();
    expect(await waiting).toBeNull();
    a();
    expect(budget.inUse).toBe(0);
  });

  it("lets a body larger than the whole budget through once it is alone", async () => {
    const budget = new ByteBudget(100);
    const a = (await budget.acquire(10, 1000))!;
    const big = budget.acquire(500, 1000);
    await tick();
    expect(budget.inUse).toBe(10);
    a();
    const release = (await big)!;
    expect(budget.inUse).toBe(100);
    release();
    expect(budget.inUse).toBe(0);
  });
});
