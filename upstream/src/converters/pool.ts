/** The pool is full and so is its queue: the caller answers 503 (try again later) rather than wait without end. */
export class PoolBusy extends Error {
  constructor() {
    super("converter pool busy");
    this.name = "PoolBusy";
  }
}

/**
 * At most `size` conversions at once in this process (each is a child process of a few hundred MB); up to `queue`
 * more wait their turn in order; beyond that `use` refuses at once with `PoolBusy`.
 */
export class ConverterPool {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly size: number,
    readonly queue: number,
  ) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError("pool size must be a positive integer");
    if (!Number.isInteger(queue) || queue < 0) throw new RangeError("pool queue must be a non-negative integer");
  }

  get active(): number {
    return this.running;
  }

  get queued(): number {
    return this.waiting.length;
  }

  async use<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.size) {
      if (this.waiting.length >= this.queue) throw new PoolBusy();
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next in line, so `running` never dips and a newcomer cannot jump the queue.
      if (next) next();
      else this.running--;
    }
  }
}
