import type { StoredEvent } from '../model/event-envelope.js';

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
}
