import type { RunLimits } from "../../contract/chain-runs";
import type { ProviderError } from "../llm/provider";

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
