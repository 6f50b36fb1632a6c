import type { SubscriberKind } from '../decorators/subscriber-types.js';
import { AggregateDispatcher, type AggregateSchedulerSupplier, type EventDispatcherLifecycle } from '../scheduling/index.js';
import type { SubscriptionRunner } from './subscription-runner.js';

/**
 * The event dispatcher of one subscriber kind: its subscriptions, and the lanes (by aggregate id,
 * or by instance key for process managers) their events run in, on schedulers of a borrowed
 * supplier. Stopping it stops reading first, then lets the lanes drain.
 */
export class SubscriberKindDispatcher implements EventDispatcherLifecycle {
  readonly lanes: AggregateDispatcher;
  private runners: SubscriptionRunner[] = [];
  private readonly extras: Array<{ start(): void; stop(): Promise<void> }> = [];

  constructor(
    readonly kind: SubscriberKind,
    supplier: AggregateSchedulerSupplier,
    parallelism: number,
  ) {
    this.lanes = new AggregateDispatcher(`${kind}-events`, supplier, parallelism);
  }

  add(runner: SubscriptionRunner): void {
    this.runners.push(runner);
  }

  /** Something else that feeds these lanes (the timer poller) and stops with them. */
  addFeeder(feeder: { start(): void; stop(): Promise<void> }): void {
    this.extras.push(feeder);
  }

  get subscriptions(): readonly SubscriptionRunner[] {
    return this.runners;
  }

  async start(): Promise<void> {
    for (const runner of this.runners) await runner.start();
    for (const extra of this.extras) extra.start();
  }

  async stopGracefully(): Promise<void> {
    await Promise.all([...this.runners.map((runner) => runner.stop()), ...this.extras.map((extra) => extra.stop())]);
    await this.lanes.stopGracefully();
  }

  async forceStop(): Promise<void> {
    await this.lanes.forceStop();
    await Promise.all([...this.runners.map((runner) => runner.stop()), ...this.extras.map((extra) => extra.stop())]);
  }
}
