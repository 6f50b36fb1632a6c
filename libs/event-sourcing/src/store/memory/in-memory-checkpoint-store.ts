import type { CheckpointStore } from '../checkpoint-store.js';

/** Checkpoints in memory. */
export class InMemoryCheckpointStore implements CheckpointStore {
  private readonly positions = new Map<string, number>();

  async load(subscriber: string): Promise<number> {
    return this.positions.get(subscriber) ?? 0;
  }

  async save(subscriber: string, position: number): Promise<void> {
    this.positions.set(subscriber, position);
  }

  async loadAll(): Promise<Map<string, number>> {
    return new Map(this.positions);
  }

  /** Moves the checkpoint from `from` to `to`; false when it is not at `from`. */
  advance(subscriber: string, from: number, to: number): boolean {
    if ((this.positions.get(subscriber) ?? 0) !== from) return false;
    this.positions.set(subscriber, to);
    return true;
  }

  reset(subscriber: string): void {
    this.positions.delete(subscriber);
  }
}
