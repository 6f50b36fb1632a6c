import { Injectable } from '@nestjs/common';

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
  private readonly appendListeners = new Set<(position: number) => void>();

  appended(position: number): void {
    for (const listener of this.appendListeners) listener(position);
    this.wakeAll('appendWaiters');
  }

  checkpointed(): void {
    this.wakeAll('checkpointWaiters');
  }

  /** Resolves on the next append, or after `ms` (the polling backstop), or when `abort` fires. */
  nextAppend(ms: number, abort?: AbortSignal): Promise<void> {
    return this.wait(this.appendWaiters, ms, abort);
  }

  nextCheckpoint(ms: number): Promise<void> {
    return this.wait(this.checkpointWaiters, ms);
  }

  /** Calls `listener` with the last position of every append made in this process. */
  onAppend(listener: (position: number) => void): () => void {
    this.appendListeners.add(listener);
    return () => this.appendListeners.delete(listener);
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
