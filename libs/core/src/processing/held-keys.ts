import { retryDelay, type RetryPolicy } from './retry-policy.js';
import { errorMessage } from '../errors/error-message.js';

/** One key's held events, oldest first, and when the oldest is tried again. */
export interface HeldQueue {
  key: string;
  positions: number[];
  /** Failed attempts of the oldest one. */
  failures: number;
  dueAt: number;
  /** Why the oldest one last failed (absent when it has not failed in this process yet). */
  lastError?: string;
}

/**
 * A subscription's held events by key (aggregate, or process-manager instance), as it knows them in
 * memory (the store has them too, with the checkpoint). While a key has any, its later events are
 * held behind them, so each key's events are still handled in order; other keys go on.
 */
export class HeldKeys {
  private readonly queues = new Map<string, HeldQueue>();

  constructor(private readonly policy: RetryPolicy) {}

  /** True while any key holds events. */
  get holdsAny(): boolean {
    return this.queues.size > 0;
  }

  isHeld(key: string): boolean {
    return this.queues.has(key);
  }

  /** What the store holds (at start, or after another instance moved the checkpoint): every oldest one is due now. */
  replace(events: ReadonlyArray<{ key: string; position: number }>): void {
    this.queues.clear();
    for (const event of events) this.queueOf(event.key).positions.push(event.position);
  }

  /** Held behind an earlier event of its key. */
  append(key: string, position: number): void {
    this.queueOf(key).positions.push(position);
  }

  /** Held because it failed once: tried again after the policy's first delay. */
  failedFirst(key: string, position: number, now: number, error?: unknown): void {
    const queue = this.queueOf(key);
    queue.positions.push(position);
    this.failed(queue, now, error);
  }

  /** The oldest one failed (again): true when its attempts are used up. */
  failed(queue: HeldQueue, now: number, error?: unknown): boolean {
    queue.failures++;
    if (error !== undefined) queue.lastError = errorMessage(error);
    queue.dueAt = now + retryDelay(this.policy, queue.failures);
    return queue.failures >= this.policy.maxAttempts;
  }

  /** The oldest one is settled (handled or dead-lettered): the next is due now. */
  shift(queue: HeldQueue): void {
    queue.positions.shift();
    queue.failures = 0;
    queue.dueAt = 0;
    queue.lastError = undefined;
    if (queue.positions.length === 0) this.queues.delete(queue.key);
  }

  /**
   * An operator asked for the held event at `position` to be tried now: its key's oldest one becomes
   * due (a later one waits behind it anyway). False when no key holds that position.
   */
  dueNow(position: number): boolean {
    const queue = [...this.queues.values()].find((held) => held.positions.includes(position));
    if (!queue) return false;
    queue.dueAt = 0;
    return true;
  }

  /** A copy of every key's queue, for status reports: the caller cannot change what is held. */
  snapshot(): HeldQueue[] {
    return [...this.queues.values()].map((queue) => ({ ...queue, positions: [...queue.positions] }));
  }

  due(now: number): HeldQueue[] {
    return [...this.queues.values()].filter((queue) => queue.dueAt <= now);
  }

  /** When the next retry is due; undefined when nothing is held. */
  get nextDueAt(): number | undefined {
    const times = [...this.queues.values()].map((queue) => queue.dueAt);
    return times.length === 0 ? undefined : Math.min(...times);
  }

  private queueOf(key: string): HeldQueue {
    let queue = this.queues.get(key);
    if (!queue) {
      queue = { key, positions: [], failures: 0, dueAt: 0 };
      this.queues.set(key, queue);
    }
    return queue;
  }
}
