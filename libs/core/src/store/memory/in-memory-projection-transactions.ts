import type { HeldEvent } from '../checkpoint-store.js';
import type { ProjectionTransactions } from '../projection-transactions.js';
import type { InMemoryCheckpointStore } from './in-memory-checkpoint-store.js';

/**
 * Projector "transactions" in memory: batches take turns and the checkpoint moves only when the
 * work did not throw. There is nothing to roll back: a projector that keeps its read model in
 * memory and fails halfway through a batch sees that batch again (at least once, not exactly once).
 * Projectors get `undefined` as their transaction.
 */
export class InMemoryProjectionTransactions implements ProjectionTransactions<undefined> {
  private turn: Promise<unknown> = Promise.resolve();

  constructor(private readonly checkpoints: InMemoryCheckpointStore) {}

  run<T>(work: (tx: undefined) => Promise<T>): Promise<T> {
    const result = this.turn.then(() => work(undefined));
    this.turn = result.catch(() => undefined);
    return result;
  }

  async advanceCheckpoint(_tx: undefined, subscriber: string, from: number, to: number): Promise<boolean> {
    return this.checkpoints.advance(subscriber, from, to);
  }

  async resetCheckpoint(_tx: undefined, subscriber: string): Promise<void> {
    this.checkpoints.reset(subscriber);
  }

  async holdEvent(_tx: undefined, event: HeldEvent): Promise<void> {
    this.checkpoints.hold(event);
  }

  async releaseEvent(_tx: undefined, subscriber: string, position: number): Promise<boolean> {
    return this.checkpoints.release(subscriber, position);
  }
}
