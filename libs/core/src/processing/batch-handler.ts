import type { StoredEvent } from '../model/event-envelope.js';

/** What a retry of held events settled, and when the next retry is due (undefined: nothing is held). */
export interface HeldRetry {
  settled: number;
  nextDueAt?: number;
}

/** How one kind of subscriber handles what its subscription reads. */
export interface BatchHandler {
  /**
   * Handles the events of a batch that the subscriber subscribes to and moves the stored
   * checkpoint from `from` to `to` (the batch's last position). False when the stored checkpoint
   * was not at `from` any more (another instance ran the same subscriber): nothing was committed.
   */
  handle(events: StoredEvent[], from: number, to: number): Promise<boolean>;
  /** One more delivery of a dead-lettered event, without retries: throws if it fails again. */
  redeliver(event: StoredEvent): Promise<void>;
  /** Reloads what the handler keeps of its stored checkpoint besides the position: at start, and after another instance moved it. */
  restore?(): Promise<void>;
  /** Retries the held events that are due (see SubscriptionPipeline). */
  retryHeld?(): Promise<HeldRetry>;
  /** True while the checkpoint has held events (sync waits then read which ones from the store); absent: it never holds any. */
  holding?(): boolean;
}
