import { UnavailableError } from '../errors/index.js';
import type { AggregateSchedulerSupplier } from './aggregate-scheduler-supplier.js';
import { assertParallelism } from './assert-parallelism.js';
import { deferred, type Deferred } from './deferred.js';
import { FifoQueue } from './fifo-queue.js';
import { DEFAULT_PARALLELISM, groupKey } from './group-key.js';

interface GroupEntry {
  readonly aggregateType: string;
  readonly task: () => Promise<unknown>;
  resolve(value: unknown): void;
  reject(reason: unknown): void;
}

/**
 * Orders work per aggregate id: an id maps to one of `parallelism` groups (per aggregate type),
 * a group runs its tasks one at a time in arrival order, groups run concurrently, each task on
 * the aggregate type's Scheduler. Different ids can collide into one group and then share its
 * serial order. The dispatcher borrows the supplier: stopping it never stops the supplier.
 */
export class AggregateDispatcher {
  /** Busy groups only, each holding the tasks waiting behind its running one; idle groups are dropped. */
  private readonly groups = new Map<string, FifoQueue<GroupEntry>>();
  private pending = 0;
  private stopping = false;
  private drained?: Deferred<void>;

  constructor(
    readonly name: string,
    private readonly supplier: AggregateSchedulerSupplier,
    readonly parallelism: number = DEFAULT_PARALLELISM,
  ) {
    assertParallelism(parallelism, `Aggregate dispatcher ${name}`);
  }

  /** Tasks accepted and not yet settled (waiting in a group, waiting for a Scheduler slot, or running). */
  get inFlight(): number {
    return this.pending;
  }

  /** Groups with work; 0 when idle, so memory does not grow with the number of ids seen. */
  get activeGroups(): number {
    return this.groups.size;
  }

  dispatch<T>(aggregateType: string, aggregateId: string, task: () => Promise<T>): Promise<T> {
    if (this.stopping) {
      return Promise.reject(new UnavailableError(`Aggregate dispatcher ${this.name} is stopping and accepts no new tasks`));
    }
    // The group number has no ':' so the key cannot be confused across aggregate types.
    const key = `${groupKey(aggregateId, this.parallelism)}:${aggregateType}`;
    return new Promise<T>((resolve, reject) => {
      const entry: GroupEntry = { aggregateType, task, resolve: resolve as (value: unknown) => void, reject };
      this.pending++;
      const waiting = this.groups.get(key);
      if (waiting) {
        waiting.push(entry);
      } else {
        this.groups.set(key, new FifoQueue<GroupEntry>());
        this.run(key, entry);
      }
    });
  }

  /** Refuses new tasks; resolves once every accepted task has settled. Idempotent. */
  stopGracefully(): Promise<void> {
    this.stopping = true;
    this.drained ??= deferred<void>();
    this.resolveIfDrained();
    return this.drained.promise;
  }

  /** Refuses new tasks and rejects the waiting ones now; running ones finish (JS cannot interrupt them). */
  forceStop(): Promise<void> {
    this.stopping = true;
    for (const waiting of this.groups.values()) {
      for (const entry of waiting.takeAll()) {
        this.pending--;
        entry.reject(new UnavailableError(`Aggregate dispatcher ${this.name} was force-stopped before the task started`));
      }
    }
    this.resolveIfDrained();
    return Promise.resolve();
  }

  private run(key: string, entry: GroupEntry): void {
    // getOrInitialize may throw (supplier stopped): inside then() that becomes this task's
    // rejection instead of an exception escaping into dispatch() or a previous task's settle.
    Promise.resolve()
      .then(() => this.supplier.getOrInitialize(entry.aggregateType).schedule(entry.task))
      .then(
        (value) => this.settle(key, () => entry.resolve(value)),
        (error: unknown) => this.settle(key, () => entry.reject(error)),
      );
  }

  /** Whatever the outcome, the group moves on: a failing task never stalls the tasks behind it. */
  private settle(key: string, deliver: () => void): void {
    this.pending--;
    deliver();
    const waiting = this.groups.get(key);
    const next = waiting?.shift();
    if (next) this.run(key, next);
    else this.groups.delete(key);
    this.resolveIfDrained();
  }

  private resolveIfDrained(): void {
    if (this.drained && this.pending === 0) this.drained.resolve();
  }
}
