/**
 * Watches the event loop while `work` runs: how many times a 1 ms timer fired, and the longest wait between two
 * firings (a part parsed in one go holds the loop for its whole length; in slices each turn is a few ms).
 */
export async function watchEventLoop<T>(work: () => Promise<T>): Promise<{ result: T; ticks: number; longest: number }> {
  let last = performance.now();
  let longest = 0;
  let ticks = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    ticks++;
  }, 1);
  try {
    const result = await work();
    longest = Math.max(longest, performance.now() - last);
    return { result, ticks, longest };
  } finally {
    clearInterval(timer);
  }
}
