import { Injectable } from '@nestjs/common';
import type { StoredEvent } from '../model/event-envelope.js';

type Wake = () => void;

/** A checkpoint of this process that moved: where to, and whether its subscriber holds events now. */
export interface CheckpointMove {
  /** The checkpoint name (of the subscriber, or of one of its partitions). */
  checkpoint: string;
  /** Its stored position now. */
  position: number;
  /** True while any event of this checkpoint is held (failed, or behind one that failed). */
  holding: boolean;
}

/**
 * In-process wake-ups: subscriptions sleep until an append (or the poll backstop), sync waits
 * until a checkpoint moves. They only make things fast; the store stays the truth, so waits
 * also work when the append or the checkpoint happened in another instance.
 */
@Injectable()
export class EventNotifier {
  private appendWaiters = new Set<Wake>();
  private checkpointWaiters = new Set<Wake>();
  private readonly abortable = new WeakMap<AbortSignal, Set<Wake>>();
  private appends = 0;
  private checkpoints = 0;
  private readonly appendListeners = new Set<(events: readonly StoredEvent[]) => void>();
  private readonly checkpointListeners = new Set<(moved: CheckpointMove) => void>();
  private readonly elsewhereAppendListeners = new Set<() => void>();
  private readonly elsewhereCheckpointListeners = new Set<() => void>();

  /** Called by every append site right after its append committed, with the events it stored. */
  appended(events: readonly StoredEvent[]): void {
    if (events.length === 0) return;
    for (const listener of this.appendListeners) listener(events);
    this.appends++;
    this.wakeAll('appendWaiters');
  }

  /** Called when a subscriber of this process moved its checkpoint (or settled held events), after the commit. */
  checkpointed(moved: CheckpointMove): void {
    for (const listener of this.checkpointListeners) listener(moved);
    this.checkpoints++;
    this.wakeAll('checkpointWaiters');
  }

  /** Another instance appended or checkpointed: wakes the waiters of this process only. */
  wokenFromElsewhere(kind: 'append' | 'checkpoint'): void {
    if (kind === 'append') {
      this.appends++;
      for (const listener of this.elsewhereAppendListeners) listener();
    } else {
      this.checkpoints++;
      for (const listener of this.elsewhereCheckpointListeners) listener();
    }
    this.wakeAll(kind === 'append' ? 'appendWaiters' : 'checkpointWaiters');
  }

  /**
   * How many appends this process has heard of. A reader notes it before it reads and passes it to
   * `nextAppend`: an append heard of while it was reading then wakes it at once instead of being lost.
   */
  get appendCount(): number {
    return this.appends;
  }

  /** How many checkpoint moves this process has heard of; for `nextCheckpoint` as `appendCount` is for `nextAppend`. */
  get checkpointCount(): number {
    return this.checkpoints;
  }

  /** Resolves on the next append (at once if one came since `seen`), or after `ms` (the polling backstop), or when `abort` fires. */
  nextAppend(ms: number, abort?: AbortSignal, seen?: number): Promise<void> {
    if (seen !== undefined && seen !== this.appends) return Promise.resolve();
    return this.wait(this.appendWaiters, ms, abort);
  }

  /** Resolves on the next checkpoint move (at once if one came since `seen`), after `ms`, or when `abort` fires. */
  nextCheckpoint(ms: number, abort?: AbortSignal, seen?: number): Promise<void> {
    if (seen !== undefined && seen !== this.checkpoints) return Promise.resolve();
    return this.wait(this.checkpointWaiters, ms, abort);
  }

  /** Calls `listener` with the events of every append committed in this process; it must not throw. */
  onAppend(listener: (events: readonly StoredEvent[]) => void): () => void {
    this.appendListeners.add(listener);
    return () => this.appendListeners.delete(listener);
  }

  /** Calls `listener` whenever a subscriber of this process checkpointed; it must not throw. */
  onCheckpoint(listener: (moved: CheckpointMove) => void): () => void {
    this.checkpointListeners.add(listener);
    return () => this.checkpointListeners.delete(listener);
  }

  /** Calls `listener` whenever another instance announced an append; it must not throw. */
  onAppendElsewhere(listener: () => void): () => void {
    this.elsewhereAppendListeners.add(listener);
    return () => this.elsewhereAppendListeners.delete(listener);
  }

  /** Calls `listener` whenever another instance announced a checkpoint move; it must not throw. */
  onCheckpointElsewhere(listener: () => void): () => void {
    this.elsewhereCheckpointListeners.add(listener);
    return () => this.elsewhereCheckpointListeners.delete(listener);
  }

  private wait(waiters: Set<Wake>, ms: number, abort?: AbortSignal): Promise<void> {
    if (abort?.aborted) return Promise.resolve();
    const aborts = abort && this.abortWaiters(abort);
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        waiters.delete(wake);
        aborts?.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      waiters.add(wake);
      aborts?.add(wake);
    });
  }

  /**
   * The waits `signal` ends when it aborts. A subscription waits on its loop's signal after every
   * append; one listener per signal spares each of those waits adding and removing its own.
   */
  private abortWaiters(signal: AbortSignal): Set<Wake> {
    const known = this.abortable.get(signal);
    if (known) return known;
    const waiters = new Set<Wake>();
    // A copy: each wake takes itself out of the set.
    signal.addEventListener('abort', () => [...waiters].forEach((wake) => wake()), { once: true });
    this.abortable.set(signal, waiters);
    return waiters;
  }

  private wakeAll(which: 'appendWaiters' | 'checkpointWaiters'): void {
    const waiters = this[which];
    if (waiters.size === 0) return;
    this[which] = new Set();
    for (const wake of waiters) wake();
  }
}
