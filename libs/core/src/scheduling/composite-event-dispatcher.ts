import type { AggregateSchedulerSupplier } from './aggregate-scheduler-supplier.js';
import { BorrowedAggregateSchedulerSupplier } from './borrowed-aggregate-scheduler-supplier.js';

export interface EventDispatcherLifecycle {
  start(): Promise<void> | void;
  stopGracefully(): Promise<void>;
  forceStop(): Promise<void>;
}

/**
 * Runs several event dispatchers on one scheduler supplier. Children get a single borrowed
 * view, so their own stop calls leave the supplier alone; this composite is its only owner
 * and closes it after the children stopped (reverse start order, like the runtime's cleanup).
 */
export class CompositeEventDispatcher implements EventDispatcherLifecycle {
  private readonly children: readonly EventDispatcherLifecycle[];
  private gracefulStop?: Promise<void>;
  private forcedStop?: Promise<void>;

  constructor(
    readonly name: string,
    private readonly supplier: AggregateSchedulerSupplier,
    children: Array<(borrowed: AggregateSchedulerSupplier) => EventDispatcherLifecycle>,
  ) {
    const borrowed = new BorrowedAggregateSchedulerSupplier(supplier);
    this.children = children.map((create) => create(borrowed));
  }

  async start(): Promise<void> {
    for (const child of this.children) await child.start();
  }

  /** Idempotent: every caller gets the same promise. */
  stopGracefully(): Promise<void> {
    this.gracefulStop ??= this.stopAll(
      (child) => child.stopGracefully(),
      () => this.supplier.stopGracefully(),
    );
    return this.gracefulStop;
  }

  /** Idempotent; may take over a graceful stop in progress (the supplier's force does). */
  forceStop(): Promise<void> {
    this.forcedStop ??= this.stopAll(
      (child) => child.forceStop(),
      () => this.supplier.forceStop(),
    );
    return this.forcedStop;
  }

  /**
   * Stops the children in reverse order, then the supplier. A failing child does not keep the
   * others or the supplier running; its error is reported once everything was asked to stop.
   */
  private async stopAll(
    stopChild: (child: EventDispatcherLifecycle) => Promise<void>,
    stopSupplier: () => Promise<void>,
  ): Promise<void> {
    const errors: unknown[] = [];
    const attempt = async (stop: () => Promise<void>): Promise<void> => {
      try {
        await stop();
      } catch (error) {
        errors.push(error);
      }
    };
    for (const child of [...this.children].reverse()) await attempt(() => stopChild(child));
    await attempt(stopSupplier);
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, `Composite event dispatcher ${this.name} failed to stop cleanly`);
  }
}
