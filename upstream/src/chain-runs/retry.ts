import { setTimeout as wait } from "node:timers/promises";
import { RUN_MESSAGES, type RunLimits } from "../../contract/chain-runs";
import type { ProviderError } from "../llm/provider";
import { RunFailure, type LiveRun, type RunRegistry } from "./engine";

/**
 * The run's answer to a provider failure (docs/decisions/chain-runs.md, retries are the run's, not the SDK's): a 429
 * or 5xx is retried up to `limits.retries` times, after a wait doubling from `retryBaseMs`, or the provider's
 * Retry-After when longer, at most `retryMaxMs`. Null when it is not retried.
 */
export function retryDelayMs(error: ProviderError, attempt: number, limits: RunLimits): number | null {
  if ((error.failure !== "rate-limit" && error.failure !== "server") || attempt > limits.retries) return null;
  const doubling = limits.retryBaseMs * 2 ** (attempt - 1);
  return Math.min(limits.retryMaxMs, Math.max(doubling, (error.retryAfterSeconds ?? 0) * 1000));
}

/**
 * When `error` is retried: the `retry` event of link `link` ('An error occured. Retrying...'), then the wait, which
 * Stop cuts short (the run cancelled); answers true once it is time to try again, false when it is not retried.
 */
export async function retried(registry: RunRegistry, run: LiveRun, link: number | null, error: ProviderError, attempt: number, limits: RunLimits): Promise<boolean> {
  const delayMs = retryDelayMs(error, attempt, limits);
  if (delayMs === null) return false;
  registry.emit(run, "retry", { link, message: RUN_MESSAGES.retrying, attempt, delayMs, reason: error.message });
  await wait(delayMs, undefined, { signal: run.signal }).catch(() => {
    throw new RunFailure(RUN_MESSAGES.cancelled, "cancelled");
  });
  return true;
}
