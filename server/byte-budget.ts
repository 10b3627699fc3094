/**
 * How many bytes of upload bodies the server holds at once (server/guard.ts; docs/decisions/request-guard.md,
 * "Uploads held at once"). A large upload is read whole and then parsed and passed on several times over (about
 * 7× its size at the peak: a 95 MB backup took the server from 218 to 877 MB), so each one reserves its size here
 * first; one that does not fit waits its turn, first come first served, not reading its body meanwhile, and gives
 * up after `waitMs`. A single body larger than the budget waits until it is the only one.
 */
export class ByteBudget {
  private used = 0;
  private readonly queue: { bytes: number; grant: (release: () => void) => void }[] = [];

  constructor(readonly capacity: number) {}

  /** Bytes reserved now (tests, logs). */
  get inUse(): number {
    return this.used;
  }

  /**
   * Reserves `bytes` (at most the capacity): resolves with the function that gives them back (once; later calls do
   * nothing), or null after `waitMs`, or when `signal` aborts first (the client went away).
   */
  acquire(bytes: number, waitMs: number, signal?: AbortSignal): Promise<(() => void) | null> {
    const want = Math.min(Math.max(0, bytes), this.capacity);
    if (this.queue.length === 0 && this.used + want <= this.capacity) return Promise.resolve(this.take(want));
    return new Promise((resolve) => {
      const entry = {
        bytes: want,
        grant: (release: () => void) => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", giveUp);
          resolve(release);
        },
      };
      const giveUp = () => {
        const at = this.queue.indexOf(entry);
        if (at < 0) return;
        this.queue.splice(at, 1);
        clearTimeout(timer);
        signal?.removeEventListener("abort", giveUp);
        resolve(null);
        // The head of the line left: those behind it may fit now.
        this.drain();
      };
      const timer = setTimeout(giveUp, waitMs);
      signal?.addEventListener("abort", giveUp);
      this.queue.push(entry);
      if (signal?.aborted) giveUp();
    });
  }

  private take(bytes: number): () => void {
    this.used += bytes;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.used -= bytes;
      this.drain();
    };
  }

  private drain() {
    while (this.queue.length && this.used + this.queue[0]!.bytes <= this.capacity) {
      const next = this.queue.shift()!;
      next.grant(this.take(next.bytes));
    }
  }
}
