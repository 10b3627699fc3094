/**
 * Counts failures per key in a sliding window: `isLimited` once `max` failures happened in the last `windowMs`.
 * In memory (one process); restarting the server forgets the counts.
 */
export class FailureLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly options: { max: number; windowMs: number; now: () => number },
  ) {}

  private recent(key: string): number[] {
    const since = this.options.now() - this.options.windowMs;
    const times = (this.failures.get(key) ?? []).filter((t) => t > since);
    if (times.length) this.failures.set(key, times);
    else this.failures.delete(key);
    return times;
  }

  /** Seconds until another attempt is allowed (at least 1), or 0 when `key` is not limited. */
  retryAfter(key: string): number {
    const times = this.recent(key);
    if (times.length < this.options.max) return 0;
    // The window frees up when the oldest failure that keeps the count at `max` leaves it.
    const blocking = times[times.length - this.options.max] ?? this.options.now();
    return Math.max(1, Math.ceil((blocking + this.options.windowMs - this.options.now()) / 1000));
  }

  fail(key: string): void {
    const times = this.recent(key);
    times.push(this.options.now());
    this.failures.set(key, times);
    if (this.failures.size > 10_000) this.sweep();
  }

  clear(key: string): void {
    this.failures.delete(key);
  }

  /** Drops every key with no failure left in the window (bounds memory). */
  sweep(): void {
    for (const key of [...this.failures.keys()]) this.recent(key);
  }
}
