import type { StoredEvent } from '../model/event-envelope.js';
import type { HeldEvent } from '../store/checkpoint-store.js';
import type { AfterCommit } from './after-commit.js';

/**
 * What one kind of subscriber does with an event: the only part in which projectors, sagas and
 * process managers differ. Reading, lanes, holding, retries, dead letters and the checkpoint are the
 * pipeline's (see SubscriptionPipeline).
 */
export interface Reactor {
  /** The lane an event belongs to: one key's events are handled in order, different keys side by side. */
  keyOf(event: StoredEvent): string;
  /** The key of a held event from its record, when the record says enough (undefined: the pipeline reads the event). */
  keyOfHeld(held: HeldEvent): string | undefined;
  /** True when `react` writes through the commit's transaction (projectors); false when it acts before the commit. */
  readonly inTransaction: boolean;
  /**
   * Handles one event; `tx` is the commit's transaction when `inTransaction`, and `afterCommit`
   * collects what must wait for that commit. Throws when it fails.
   */
  react(event: StoredEvent, tx: unknown, afterCommit?: AfterCommit): Promise<void>;
  /**
   * Handles one key's events outside the commit, in order, with the outcome `react` on each in turn
   * would have, where that can take fewer commits (process managers). Resolves to the first that failed.
   */
  reactInOrder?(events: StoredEvent[]): Promise<KeyFailure | undefined>;
  /** Forgets what it learned from its own deliveries: the subscription starts again from its stored checkpoint. */
  restart?(): void;
}

/** The first of a key's events whose reaction failed (by its index), and why. */
export interface KeyFailure {
  index: number;
  error: unknown;
}

/** The lane key of an aggregate's events. */
export function aggregateKey(event: { aggregateType: string; aggregateId: string }): string {
  return JSON.stringify([event.aggregateType, event.aggregateId]);
}
