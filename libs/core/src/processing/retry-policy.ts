export interface RetryPolicy {
  maxAttempts: number;
  /** Delay before the second attempt; each later one waits 4x longer, up to `maxDelayMs`. */
  initialDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 5, initialDelayMs: 20, maxDelayMs: 2_000 };

export class RetriesExhaustedError extends Error {
  constructor(
    readonly attempts: number,
    readonly lastError: unknown,
  ) {
    super(`failed ${attempts} times: ${lastError instanceof Error ? lastError.message : String(lastError)}`);
    this.name = 'RetriesExhaustedError';
  }
}

/** How long to wait after the `attempt`-th failed attempt (1-based) before the next one. */
export function retryDelay(policy: RetryPolicy, attempt: number): number {
  return Math.min(policy.initialDelayMs * 4 ** (attempt - 1), policy.maxDelayMs);
}

/**
 * Runs `work` until it succeeds or the attempts run out. `isFinal` errors (shutting down) are
 * rethrown at once: retrying them would only delay the stop.
 */
export async function withRetries<T>(policy: RetryPolicy, work: () => Promise<T>, isFinal: (error: unknown) => boolean): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (isFinal(error)) throw error;
      if (attempt >= policy.maxAttempts) throw new RetriesExhaustedError(attempt, error);
      await new Promise((resolve) => setTimeout(resolve, retryDelay(policy, attempt)));
    }
  }
}
