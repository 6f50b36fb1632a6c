import { availableParallelism } from 'node:os';
import { UnavailableError } from '../errors/index.js';
import type { AggregateSchedulerSupplier } from './aggregate-scheduler-supplier.js';
import { assertParallelism } from './assert-parallelism.js';
import { ParallelScheduler, type Scheduler } from './scheduler.js';

/**
 * Owns one cached ParallelScheduler per named aggregate, named `${name}-${aggregate}`.
 *
 * Once stopping begins (graceful or forced) the cache is handed over to a terminal snapshot
 * and getOrInitialize() throws UnavailableError for every key, cached or not: a stopping
 * supplier hands out nothing, so a late caller fails at once with one error naming the
 * supplier instead of receiving a disposed scheduler. Every scheduler ever created is in the
 * snapshot, so none escapes disposal.
 */
export class DefaultAggregateSchedulerSupplier implements AggregateSchedulerSupplier {
  private readonly schedulers = new Map<string, Scheduler>();
  private terminal?: readonly Scheduler[];
  private gracefulTermination?: Promise<void>;

  constructor(
    readonly name: string,
    readonly parallelism: number = availableParallelism(),
  ) {
    assertParallelism(parallelism, `Aggregate scheduler supplier ${name}`);
  }

  // JS runs this to completion without yielding, so the lookup, the stop check and the
  // insertion are atomic: concurrent first callers all get the one instance.
  getOrInitialize(namedAggregate: string): Scheduler {
    if (this.terminal) {
      throw new UnavailableError(
        `Aggregate scheduler supplier ${this.name} has stopped; no scheduler for aggregate ${namedAggregate}`,
      );
    }
    let scheduler = this.schedulers.get(namedAggregate);
    if (!scheduler) {
      scheduler = new ParallelScheduler(`${this.name}-${namedAggregate}`, this.parallelism);
      this.schedulers.set(namedAggregate, scheduler);
    }
    return scheduler;
  }

  /** Closes creation now; the drain result is cached so every caller observes the same termination. */
  stopGracefully(): Promise<void> {
    this.gracefulTermination ??= Promise.all(
      this.closeAndSnapshot().map((scheduler) => scheduler.disposeGracefully()),
    ).then(() => undefined);
    return this.gracefulTermination;
  }

  /**
   * Disposes the same terminal snapshot at once, so it can take over a graceful stop in
   * progress: that stop's promise then resolves as soon as the running tasks have finished.
   */
  forceStop(): Promise<void> {
    for (const scheduler of this.closeAndSnapshot()) scheduler.dispose();
    return Promise.resolve();
  }

  private closeAndSnapshot(): readonly Scheduler[] {
    if (!this.terminal) {
      this.terminal = [...this.schedulers.values()];
      this.schedulers.clear();
    }
    return this.terminal;
  }
}
