export interface RetryPolicy {
  maxAttempts: number;
  /** Delay before the second attempt; each later one waits 4x longer, up to `maxDelayMs`. */
  initialDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 5, initialDelayMs: 20, maxDelayMs: 2_000 };

/** How long to wait after the `attempt`-th failed attempt (1-based) before the next one. */
export function retryDelay(policy: RetryPolicy, attempt: number): number {
  return Math.min(policy.initialDelayMs * 4 ** (attempt - 1), policy.maxDelayMs);
}
