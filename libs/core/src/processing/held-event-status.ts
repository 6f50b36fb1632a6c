/**
 * What a running subscription knows of one key's held events beyond what the store records: the
 * attempts and last error of the oldest, and when it is tried next. The store keeps only the
 * positions (with the checkpoint); the rest lives in the process that runs the subscription.
 */
export interface HeldKeyStatus {
  /** The aggregate (or process-manager instance) the events are held under. */
  key: string;
  /** Oldest first; only the first is being retried, the others wait behind it. */
  positions: number[];
  /** Failed attempts of the oldest one in this process (0 when it is held only behind others, or was restored at start). */
  attempts: number;
  lastError?: string;
  /** Epoch ms of its next attempt (0: at the subscription's next look). */
  nextAttemptAt: number;
}

/**
 * A read-only look at a running subscription's held keys (and the one lever an operator has on them:
 * try the oldest now instead of after its backoff). Implemented by the subscription pipeline; the
 * event processor hands it out only for subscriptions that run in this process.
 */
export interface HeldEventStatus {
  heldKeys(): HeldKeyStatus[];
  /** The key holding `position` is tried at the subscription's next look; false when nothing holds it here. */
  retryNow(position: number): boolean;
}
