import type { HeldEvent } from '../store/checkpoint-store.js';
import { retryDelay, type RetryPolicy } from './retry-policy.js';

/** One aggregate's held events, oldest first, and when the oldest is tried again. */
export interface HeldQueue {
  aggregateType: string;
  aggregateId: string;
  positions: number[];
  /** Failed attempts of the oldest one. */
  failures: number;
  dueAt: number;
}

type AggregateRef = { aggregateType: string; aggregateId: string };

function keyOf(ref: AggregateRef): string {
  return JSON.stringify([ref.aggregateType, ref.aggregateId]);
}

/**
 * A projector's held events by aggregate, as it knows them in memory (the store has them too, with
 * the checkpoint). While an aggregate has any, its later events are held behind them, so each
 * aggregate's events are still projected in order; other aggregates go on.
 */
export class HeldAggregates {
  private readonly queues = new Map<string, HeldQueue>();

  constructor(private readonly policy: RetryPolicy) {}

  isHeld(ref: AggregateRef): boolean {
    return this.queues.has(keyOf(ref));
  }

  /** What the store holds (at start, or after another instance moved the checkpoint): every oldest one is due now. */
  replace(events: readonly HeldEvent[]): void {
    this.queues.clear();
    for (const event of events) this.queueOf(event).positions.push(event.position);
  }

  /** Held behind an earlier event of its aggregate. */
  append(ref: AggregateRef & { position: number }): void {
    this.queueOf(ref).positions.push(ref.position);
  }

  /** Held because it failed once: tried again after the policy's first delay. */
  failedFirst(ref: AggregateRef & { position: number }, now: number): void {
    const queue = this.queueOf(ref);
    queue.positions.push(ref.position);
    this.failed(queue, now);
  }

  /** The oldest one failed (again): true when its attempts are used up. */
  failed(queue: HeldQueue, now: number): boolean {
    queue.failures++;
    queue.dueAt = now + retryDelay(this.policy, queue.failures);
    return queue.failures >= this.policy.maxAttempts;
  }

  /** The oldest one is settled (projected or dead-lettered): the next is due now. */
  shift(queue: HeldQueue): void {
    queue.positions.shift();
    queue.failures = 0;
    queue.dueAt = 0;
    if (queue.positions.length === 0) this.queues.delete(keyOf(queue));
  }

  due(now: number): HeldQueue[] {
    return [...this.queues.values()].filter((queue) => queue.dueAt <= now);
  }

  /** When the next retry is due; undefined when nothing is held. */
  get nextDueAt(): number | undefined {
    const times = [...this.queues.values()].map((queue) => queue.dueAt);
    return times.length === 0 ? undefined : Math.min(...times);
  }

  private queueOf(ref: AggregateRef): HeldQueue {
    const key = keyOf(ref);
    let queue = this.queues.get(key);
    if (!queue) {
      queue = { aggregateType: ref.aggregateType, aggregateId: ref.aggregateId, positions: [], failures: 0, dueAt: 0 };
      this.queues.set(key, queue);
    }
    return queue;
  }
}
