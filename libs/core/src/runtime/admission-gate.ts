import { Injectable } from '@nestjs/common';
import { UnavailableError } from '../errors/index.js';

/**
 * Counts commands in flight and closes admission at shutdown, so that "every accepted command
 * is stored or refused" can be waited for.
 */
@Injectable()
export class AdmissionGate {
  private open = true;
  private inFlight = 0;
  private idleWaiters: Array<() => void> = [];

  get isOpen(): boolean {
    return this.open;
  }

  get active(): number {
    return this.inFlight;
  }

  /**
   * Runs `work` if admission is open; UNAVAILABLE otherwise. `internal` work (commands and facts
   * that sagas and process managers emit while finishing their current batch) is still admitted
   * while closing, and counted, so the drain waits for it.
   */
  async run<T>(work: () => Promise<T>, internal = false): Promise<T> {
    if (!this.open && !internal) throw new UnavailableError('the service is shutting down and accepts no new commands');
    this.inFlight++;
    try {
      return await work();
    } finally {
      if (--this.inFlight === 0) this.wakeIdle();
    }
  }

  close(): void {
    this.open = false;
  }

  /** Resolves when nothing admitted is still running. */
  idle(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private wakeIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const wake of waiters) wake();
  }
}
