/** Most keys a limiter remembers; past it, keys with nothing left in their window go, then the oldest. */
const MAX_KEYS = 50_000;

/** Drops the oldest tenth of `map`'s keys (a Map iterates in insertion order; updates re-insert). */
function dropOldest<K, V>(map: Map<K, V>): void {
  let n = Math.ceil(map.size / 10);
  for (const key of map.keys()) {
    if (n-- <= 0) break;
    map.delete(key);
  }
}

/**
 * Counts failures per key in a sliding window: `retryAfter` > 0 once `max` failures happened in the last `windowMs`.
 * In memory (one process); restarting the server forgets the counts. Bounded: at most `max` times per key and
 * `maxKeys` keys.
 */
export class FailureLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly options: { max: number; windowMs: number; now: () => number; maxKeys?: number },
  ) {}

  private recent(key: string): number[] {
    const since = this.options.now() - this.options.windowMs;
    const times = (this.failures.get(key) ?? []).filter((t) => t > since);
    if (times.length) this.failures.set(key, times);
    else this.failures.delete(key);
    return times;
  }

  /** Failures of `key` in the window. */
  count(key: string): number {
    return this.recent(key).length;
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
    // Only the newest `max` matter for retryAfter.
    if (times.length > this.options.max) times.splice(0, times.length - this.options.max);
    this.failures.delete(key);
    this.failures.set(key, times);
    if (this.failures.size > (this.options.maxKeys ?? MAX_KEYS)) {
      this.sweep();
      if (this.failures.size > (this.options.maxKeys ?? MAX_KEYS)) dropOldest(this.failures);
    }
  }

  clear(key: string): void {
    this.failures.delete(key);
  }

  /** Drops every key with no failure left in the window (bounds memory). */
  sweep(): void {
    for (const key of [...this.failures.keys()]) this.recent(key);
  }

  /** How many keys are remembered (tests). */
  get size(): number {
    return this.failures.size;
  }
}

export type LoginLimits = {
  /** Per (account, address): `free` failures, then a delay of baseDelayMs·2^(n−free) after the n-th, at most maxDelayMs. */
  perPair: { free: number; baseDelayMs: number; maxDelayMs: number; forgetMs: number };
  /** Per account across addresses: over `max` failures in `windowMs`, addresses that have failed are refused. */
  perAccount: { max: number; windowMs: number };
  /** Per client address, across accounts. */
  perAddress: { max: number; windowMs: number };
};

type Pair = { failures: number; last: number };

/**
 * Sign-in throttling without lockout. Nobody can lock an account: the delays grow per (account, address), so failures
 * from one address never slow down the right password from another. Distributed guessing hits a per-account ceiling,
 * past which only addresses that have not failed on that account may still try. One address guessing across accounts
 * hits the per-address limit, past which it may no longer try unknown accounts nor accounts over their ceiling; it
 * still may try an account that is not under attack, because one address is often a whole office behind a NAT or
 * proxy, and one attacker there must not lock everyone out (the caller answers a wrong password from such an address
 * as it answers an unknown account there: `addressRetryAfter`). In memory and bounded (`maxKeys` per map).
 */
export class LoginThrottle {
  private readonly pairs = new Map<string, Pair>();
  private readonly accounts: FailureLimiter;
  private readonly addresses: FailureLimiter;

  constructor(
    private readonly limits: LoginLimits,
    private readonly now: () => number,
    private readonly maxKeys = MAX_KEYS,
  ) {
    this.accounts = new FailureLimiter({ ...limits.perAccount, now, maxKeys });
    this.addresses = new FailureLimiter({ ...limits.perAddress, now, maxKeys });
  }

  private pairKey(account: string, address: string | undefined): string {
    return `${account}\n${address ?? ""}`;
  }

  private pair(key: string): Pair | null {
    const pair = this.pairs.get(key);
    if (pair && this.now() - pair.last > this.limits.perPair.forgetMs) {
      this.pairs.delete(key);
      return null;
    }
    return pair ?? null;
  }

  /** The delay after `failures` failures of one (account, address), in ms. */
  delayAfter(failures: number): number {
    const { free, baseDelayMs, maxDelayMs } = this.limits.perPair;
    if (failures < free) return 0;
    return Math.min(maxDelayMs, baseDelayMs * 2 ** Math.min(failures - free, 40));
  }

  /**
   * Seconds to wait before this attempt may check a password (at least 1), or 0 when it may go ahead. `known`: the
   * account exists (an unknown one has no password to get right, so an address over its limit may not try it).
   */
  retryAfter(account: string, address: string | undefined, known: boolean): number {
    const pair = this.pair(this.pairKey(account, address));
    if (pair) {
      const until = pair.last + this.delayAfter(pair.failures);
      if (until > this.now()) return Math.max(1, Math.ceil((until - this.now()) / 1000));
    }
    // An address that has not failed on this account is not blocked by the account's failures, unless it is over its
    // own limit too (an account under attack, tried from an address that is attacking).
    const accountWait = this.accounts.retryAfter(account);
    if (pair && accountWait > 0) return accountWait;
    const addressWait = this.addressRetryAfter(address);
    if (addressWait > 0 && (!known || accountWait > 0)) return addressWait;
    return 0;
  }

  /** Seconds until `address` is under its limit again, or 0 when it is (or no address is known). */
  addressRetryAfter(address: string | undefined): number {
    return address ? this.addresses.retryAfter(address) : 0;
  }

  fail(account: string, address: string | undefined): void {
    const key = this.pairKey(account, address);
    const failures = (this.pair(key)?.failures ?? 0) + 1;
    this.pairs.delete(key);
    this.pairs.set(key, { failures, last: this.now() });
    if (this.pairs.size > this.maxKeys) {
      for (const k of [...this.pairs.keys()]) this.pair(k);
      if (this.pairs.size > this.maxKeys) dropOldest(this.pairs);
    }
    this.accounts.fail(account);
    if (address) this.addresses.fail(address);
  }

  /** A successful sign-in forgets that (account, address)'s failures; the account and address counts stay. */
  succeed(account: string, address: string | undefined): void {
    this.pairs.delete(this.pairKey(account, address));
  }

  /** How many keys are remembered, per map (tests). */
  get sizes(): { pairs: number; accounts: number; addresses: number } {
    return { pairs: this.pairs.size, accounts: this.accounts.size, addresses: this.addresses.size };
  }
}
