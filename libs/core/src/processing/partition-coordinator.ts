import { Logger } from '@nestjs/common';
import type { PartitionLeases } from '../store/partition-leases.js';
import { BackgroundLoop } from './background-loop.js';
import type { SubscriptionRunner } from './subscription-runner.js';

export const DEFAULT_REBALANCE_INTERVAL_MS = 500;

/**
 * Runs this instance's share of the subscribers' partitions. Every instance lists the same units
 * (subscriber partitions, in the same order) and the same live instances, so they agree without
 * talking: unit i belongs to live instance i mod n. An instance hands a unit over by stopping its
 * runner (the batch in hand finishes and is checkpointed) and only then releasing the lease; the
 * next owner takes the lease and starts from that checkpoint. A dead instance's leases are free at
 * once, and the others take its units at their next look (at most one interval later).
 */
export class PartitionCoordinator {
  private readonly logger = new Logger('PartitionCoordinator');
  private readonly loop = new BackgroundLoop();
  private readonly running = new Set<string>();
  /** Stops after a lost lease connection, awaited before the next look. */
  private stopping: Promise<unknown> = Promise.resolve();
  private readonly onLost = () => this.lost();

  constructor(
    private readonly units: ReadonlyMap<string, SubscriptionRunner>,
    private readonly leases: PartitionLeases,
    private readonly intervalMs: number,
  ) {}

  /** True when the unit (a subscriber partition's checkpoint name) runs in this instance now. */
  runs(unit: string): boolean {
    return this.running.has(unit);
  }

  start(): void {
    this.loop.start(
      () => this.look(),
      () => this.leaveAll(),
    );
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  private async look(): Promise<void> {
    try {
      await this.stopping;
      await this.leases.join(this.onLost);
      const { self, live } = await this.leases.members();
      const names = [...this.units.keys()];
      const mine = new Set(live.length === 0 ? [] : names.filter((_, i) => live[i % live.length] === self));
      for (const unit of [...this.running]) {
        if (mine.has(unit) || this.loop.stopped) continue;
        await this.units.get(unit)!.stop();
        this.running.delete(unit);
        await this.leases.release(unit);
      }
      for (const unit of mine) {
        if (this.running.has(unit) || this.loop.stopped) continue;
        if (!(await this.leases.tryAcquire(unit))) continue;
        await this.units.get(unit)!.start();
        this.running.add(unit);
      }
    } catch (error) {
      this.logger.warn(`partition assignment failed (${(error as Error).message}); trying again`);
    }
    await this.loop.sleep(this.intervalMs);
  }

  /** Every lease is gone with the connection: someone else may run these units already, so stop them. */
  private lost(): void {
    this.logger.warn(`lost the partition leases; stopping ${this.running.size} partition(s) until they are taken again`);
    const runners = [...this.running].map((unit) => this.units.get(unit)!);
    this.running.clear();
    this.stopping = Promise.all(runners.map((runner) => runner.stop())).catch(() => undefined);
  }

  private async leaveAll(): Promise<void> {
    await Promise.all([...this.running].map((unit) => this.units.get(unit)!.stop()));
    this.running.clear();
    await this.leases.leave();
  }
}
