import type { AggregateSchedulerSupplier } from './aggregate-scheduler-supplier.js';
import type { Scheduler } from './scheduler.js';

/**
 * Non-owning view of a supplier for dispatchers that share their parent's schedulers:
 * stopping the view does nothing, so only the owner closes the real supplier.
 */
export class BorrowedAggregateSchedulerSupplier implements AggregateSchedulerSupplier {
  constructor(private readonly owner: AggregateSchedulerSupplier) {}

  getOrInitialize(namedAggregate: string): Scheduler {
    return this.owner.getOrInitialize(namedAggregate);
  }

  stopGracefully(): Promise<void> {
    return Promise.resolve();
  }

  forceStop(): Promise<void> {
    return Promise.resolve();
  }
}
