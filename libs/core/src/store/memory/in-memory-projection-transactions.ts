import type { HeldEvent } from '../checkpoint-store.js';
import type { ProjectionTransactions } from '../projection-transactions.js';
import type { InMemoryCheckpointStore } from './in-memory-checkpoint-store.js';

/**
 * Projector "transactions" in memory: batches take turns, and the checkpoint moves and held events
 * of one whose work throws are put back. The read model is not: a projector that keeps its read
 * model in memory and fails halfway through a batch sees that batch again (at least once, not
 * exactly once). Projectors get `undefined` as their transaction.
 */
export class InMemoryProjectionTransactions implements ProjectionTransactions<undefined> {
  private turn: Promise<unknown> = Promise.resolve();
  /** How to put back each subscriber the running transaction changed (runs take turns: one at a time). */
  private rollback = new Map<string, () => void>();

  constructor(private readonly checkpoints: InMemoryCheckpointStore) {}

  run<T>(work: (tx: undefined) => Promise<T>): Promise<T> {
    const result = this.turn.then(() => this.transaction(work));
    this.turn = result.catch(() => undefined);
    return result;
  }

  async advanceCheckpoint(_tx: undefined, subscriber: string, from: number, to: number): Promise<boolean> {
    this.changing(subscriber);
    return this.checkpoints.advance(subscriber, from, to);
  }

  async resetCheckpoint(_tx: undefined, subscriber: string): Promise<void> {
    this.changing(subscriber);
    this.checkpoints.reset(subscriber);
  }

  async holdEvent(_tx: undefined, event: HeldEvent): Promise<void> {
    this.changing(event.subscriber);
    this.checkpoints.hold(event);
  }

  async releaseEvent(_tx: undefined, subscriber: string, position: number): Promise<boolean> {
    this.changing(subscriber);
    return this.checkpoints.release(subscriber, position);
  }

  private async transaction<T>(work: (tx: undefined) => Promise<T>): Promise<T> {
    this.rollback = new Map();
    try {
      return await work(undefined);
    } catch (error) {
      for (const putBack of this.rollback.values()) putBack();
      throw error;
    } finally {
      this.rollback = new Map();
    }
  }

  /** Before the running transaction first changes the subscriber: how it was. */
  private changing(subscriber: string): void {
    if (!this.rollback.has(subscriber)) this.rollback.set(subscriber, this.checkpoints.capture(subscriber));
  }
}
