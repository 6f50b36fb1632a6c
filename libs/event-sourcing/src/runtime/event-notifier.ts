import { Injectable } from '@nestjs/common';
import type { StoredEvent } from '../model/event-envelope.js';

type Wake = () => void;

/**
 * In-process wake-ups: subscriptions sleep until an append (or the poll backstop), sync waits
 * until a checkpoint moves. They only make things fast; the store stays the truth, so waits
 * also work when the append or the checkpoint happened in another instance.
 */
@Injectable()
export class EventNotifier {
  private appendWaiters = new Set<Wake>();
  private checkpointWaiters = new Set<Wake>();
  private readonly appendListeners = new Set<(events: readonly StoredEvent[]) => void>();
  private readonly checkpointListeners = new Set<() => void>();

  /** Called by every append site right after its append committed, with the events it stored. */
  appended(events: readonly StoredEvent[]): void {
    if (events.length === 0) return;
    for (const listener of this.appendListeners) listener(events);
    this.wakeAll('appendWaiters');
  }

  /** Called when a subscriber of this process moved its checkpoint. */
  checkpointed(): void {
    for (const listener of this.checkpointListeners) listener();
    this.wakeAll('checkpointWaiters');
  }

  /** Another instance appended or checkpointed: wakes the waiters of this process only. */
  wokenFromElsewhere(kind: 'append' | 'checkpoint'): void {
    this.wakeAll(kind === 'append' ? 'appendWaiters' : 'checkpointWaiters');
  }

  /** Resolves on the next append, or after `ms` (the polling backstop), or when `abort` fires. */
  nextAppend(ms: number, abort?: AbortSignal): Promise<void> {
    return this.wait(this.appendWaiters, ms, abort);
  }

  nextCheckpoint(ms: number, abort?: AbortSignal): Promise<void> {
    return this.wait(this.checkpointWaiters, ms, abort);
  }

  /** Calls `listener` with the events of every append committed in this process; it must not throw. */
  onAppend(listener: (events: readonly StoredEvent[]) => void): () => void {
    this.appendListeners.add(listener);
    return () => this.appendListeners.delete(listener);
  }

  /** Calls `listener` whenever a subscriber of this process checkpointed; it must not throw. */
  onCheckpoint(listener: () => void): () => void {
    this.checkpointListeners.add(listener);
    return () => this.checkpointListeners.delete(listener);
  }

  private wait(waiters: Set<Wake>, ms: number, abort?: AbortSignal): Promise<void> {
    if (abort?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        waiters.delete(wake);
        abort?.removeEventListener('abort', wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      waiters.add(wake);
      abort?.addEventListener('abort', wake, { once: true });
    });
  }

  private wakeAll(which: 'appendWaiters' | 'checkpointWaiters'): void {
    const waiters = this[which];
    if (waiters.size === 0) return;
    this[which] = new Set();
    for (const wake of waiters) wake();
  }
}
