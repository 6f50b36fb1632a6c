import type { Scheduler } from './scheduler.js';

export interface GracefullyStoppable {
  /** Stops after in-flight work finished; idempotent. */
  stopGracefully(): Promise<void>;
}

/** Hands out one Scheduler per named aggregate to command and event dispatchers. */
export interface AggregateSchedulerSupplier extends GracefullyStoppable {
  /** `namedAggregate` is the aggregate type name, e.g. 'player'. */
  getOrInitialize(namedAggregate: string): Scheduler;
  /**
   * Disposes at once: queued tasks are rejected. The disposal starts synchronously; the
   * promise resolves once it is done (running tasks cannot be interrupted and are not awaited).
   */
  forceStop(): Promise<void>;
}
