import type { CheckpointStore, HeldEvent } from '../checkpoint-store.js';

/** Checkpoints in memory. */
export class InMemoryCheckpointStore implements CheckpointStore {
  private readonly positions = new Map<string, number>();
  /** Held events by checkpoint name, then position. */
  private readonly held = new Map<string, Map<number, HeldEvent>>();

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

  /** Moves the checkpoint from `from` to `to`; false when it is not at `from`. */
  advance(subscriber: string, from: number, to: number): boolean {
    if ((this.positions.get(subscriber) ?? 0) !== from) return false;
    this.positions.set(subscriber, to);
    return true;
  }

  reset(subscriber: string): void {
    this.positions.delete(subscriber);
    this.held.delete(subscriber);
  }

  hold(event: HeldEvent): void {
    const events = this.held.get(event.subscriber) ?? new Map<number, HeldEvent>();
    events.set(event.position, { ...event });
    this.held.set(event.subscriber, events);
  }

  /** False when the event was not held. */
  release(subscriber: string, position: number): boolean {
    return this.held.get(subscriber)?.delete(position) ?? false;
  }

  /** Puts the subscriber's checkpoint and held events back as they are now (a transaction's rollback). */
  capture(subscriber: string): () => void {
    const position = this.positions.get(subscriber);
    const held = new Map(this.held.get(subscriber));
    return () => {
      if (position === undefined) this.positions.delete(subscriber);
      else this.positions.set(subscriber, position);
      if (held.size === 0) this.held.delete(subscriber);
      else this.held.set(subscriber, held);
    };
  }
}
