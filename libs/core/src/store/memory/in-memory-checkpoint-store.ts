import type { CheckpointStore, HeldEvent } from '../checkpoint-store.js';

/**
 * Checkpoints in memory. Commits take turns, and the checkpoint moves and held events of one whose
 * work throws are put back. A read model is not: a projector that keeps its read model in memory and
 * fails halfway through a batch sees that batch again (at least once, not exactly once). Projectors
 * get `undefined` as their transaction.
 */
export class InMemoryCheckpointStore implements CheckpointStore<undefined> {
  private readonly positions = new Map<string, number>();
  /** Held events by checkpoint name, then position. */
  private readonly held = new Map<string, Map<number, HeldEvent>>();
  private turn: Promise<unknown> = Promise.resolve();
  /** How to put back each subscriber the running commit changed (commits take turns: one at a time). */
  private rollback = new Map<string, () => void>();

  async load(subscriber: string): Promise<number> {
    return this.positions.get(subscriber) ?? 0;
  }

  async save(subscriber: string, position: number): Promise<void> {
    this.positions.set(subscriber, position);
  }

  async loadAll(): Promise<Map<string, number>> {
    return new Map(this.positions);
  }

  async loadHeld(subscriber?: string): Promise<HeldEvent[]> {
    const lists = subscriber === undefined ? [...this.held.values()] : [this.held.get(subscriber) ?? new Map<number, HeldEvent>()];
    return lists.flatMap((events) => [...events.values()].sort((a, b) => a.position - b.position).map((event) => ({ ...event })));
  }

  run<T>(work: (tx: undefined) => Promise<T>): Promise<T> {
    const result = this.turn.then(() => this.transaction(work));
    this.turn = result.catch(() => undefined);
    return result;
  }

  moveCheckpoint(subscriber: string, from: number, to: number): Promise<boolean> {
    return this.run((tx) => this.advanceCheckpoint(tx, subscriber, from, to));
  }

  async advanceCheckpoint(_tx: undefined, subscriber: string, from: number, to: number): Promise<boolean> {
    this.changing(subscriber);
    if ((this.positions.get(subscriber) ?? 0) !== from) return false;
    this.positions.set(subscriber, to);
    return true;
  }

  async resetCheckpoint(_tx: undefined, subscriber: string): Promise<void> {
    this.changing(subscriber);
    this.positions.delete(subscriber);
    this.held.delete(subscriber);
  }

  async holdEvent(_tx: undefined, event: HeldEvent): Promise<void> {
    this.changing(event.subscriber);
    const events = this.held.get(event.subscriber) ?? new Map<number, HeldEvent>();
    events.set(event.position, { ...event });
    this.held.set(event.subscriber, events);
  }

  async releaseEvent(_tx: undefined, subscriber: string, position: number): Promise<boolean> {
    this.changing(subscriber);
    return this.held.get(subscriber)?.delete(position) ?? false;
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

  /** Before the running commit first changes the subscriber: how to put it back. */
  private changing(subscriber: string): void {
    if (this.rollback.has(subscriber)) return;
    const position = this.positions.get(subscriber);
    const held = new Map(this.held.get(subscriber));
    this.rollback.set(subscriber, () => {
      if (position === undefined) this.positions.delete(subscriber);
      else this.positions.set(subscriber, position);
      if (held.size === 0) this.held.delete(subscriber);
      else this.held.set(subscriber, held);
    });
  }
}
