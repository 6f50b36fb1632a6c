import type { SubscriberKind } from '../decorators/subscriber-types.js';
import type { CheckpointMove, EventNotifier } from '../runtime/event-notifier.js';
import type { CheckpointStore } from '../store/checkpoint-store.js';
import { loadCheckpointsAndHeld } from '../store/checkpoints-and-held.js';

/** What a checkpoint must pass (a command's consequences it handles), and its subscriber's kind. */
export interface Need {
  kind: SubscriberKind;
  positions: number[];
}

/** A checkpoint not done yet with what it must pass: the position it has still to reach. */
export interface Pending {
  subscriber: string;
  position: number;
}

/**
 * What one sync wait knows of the checkpoints: the store's as of its last read, brought forward by
 * this process's own checkpoint moves as they are announced, so a wait reads the store once instead
 * of at every move. A move of this process is the truth when it is announced (it is committed); it
 * is trusted only when its subscriber holds no events then, as holding is what the store tells and
 * the announcement does not. Anything else (a move in another instance, a poll with no move, a
 * subscriber holding events) makes the next look a read of the store. A view opened before the
 * command appended needs no first read: no checkpoint can have passed events that did not exist yet,
 * and every move of this process since is in it.
 */
export class CheckpointView {
  private positions = new Map<string, number>();
  /** The held positions by checkpoint, as the last read found them. */
  private held = new Map<string, Set<number>>();
  private stale: boolean;
  /** Whether any of what this view knows came from a read of the store (it may then be other instances' work). */
  private everRead = false;
  /** The moves announced while a read is in flight: applied again on top of what it returns. */
  private duringRead?: CheckpointMove[];
  private readonly unsubscribe: Array<() => void>;

  constructor(
    notifier: EventNotifier,
    private readonly checkpoints: CheckpointStore,
    /** True when opened before the events it will be asked about were appended. */
    openedBeforeAppend = false,
  ) {
    this.stale = !openedBeforeAppend;
    this.unsubscribe = [notifier.onCheckpoint((moved) => this.moved(moved)), notifier.onCheckpointElsewhere(() => this.invalidate())];
  }

  /** The next look reads the store (nothing here could have shown the change). */
  invalidate(): void {
    this.stale = true;
  }

  /** True while everything this view knows is this process's own checkpoint moves. */
  get onlyOwnMoves(): boolean {
    return !this.everRead;
  }

  /** The checkpoints of `needed` not done yet, read from the store only when this view may be behind it. */
  async pending(needed: ReadonlyMap<string, Need>): Promise<Pending[]> {
    if (needed.size === 0) return [];
    if (this.stale) await this.read();
    return [...needed].flatMap(([subscriber, { positions }]) => {
      const position = Math.max(...positions);
      if ((this.positions.get(subscriber) ?? 0) < position) return [{ subscriber, position }];
      // A checkpoint moves past an event it holds (failed, retried): not handled until released.
      const held = this.held.get(subscriber);
      const waiting = held ? positions.filter((at) => held.has(at)) : [];
      return waiting.length > 0 ? [{ subscriber, position: Math.max(...waiting) }] : [];
    });
  }

  close(): void {
    for (const stop of this.unsubscribe) stop();
  }

  private async read(): Promise<void> {
    this.stale = false;
    this.everRead = true;
    this.duringRead = [];
    try {
      const { positions, held } = await loadCheckpointsAndHeld(this.checkpoints);
      this.positions = positions;
      this.held = new Map();
      for (const event of held) this.held.set(event.subscriber, (this.held.get(event.subscriber) ?? new Set()).add(event.position));
    } catch (error) {
      this.stale = true;
      throw error;
    } finally {
      const moves = this.duringRead;
      this.duringRead = undefined;
      for (const move of moves) this.moved(move);
    }
  }

  private moved(move: CheckpointMove): void {
    if (this.duringRead) {
      this.duringRead.push(move);
      return;
    }
    if (move.holding) {
      this.stale = true;
      return;
    }
    this.positions.set(move.checkpoint, Math.max(this.positions.get(move.checkpoint) ?? 0, move.position));
    this.held.delete(move.checkpoint);
  }
}
