import { UnavailableError } from '../errors/index.js';
import { assertParallelism } from './assert-parallelism.js';
import { deferred, type Deferred } from './deferred.js';
import { FifoQueue } from './fifo-queue.js';

/**
 * Node translation of a Reactor Scheduler: a bounded-concurrency async executor where
 * `parallelism` is the number of tasks in flight (there are no worker threads).
 */
export interface Scheduler {
  readonly name: string;
  readonly parallelism: number;
  /** Runs `task` once a slot is free; the returned promise carries its result or error. */
  schedule<T>(task: () => Promise<T> | T): Promise<T>;
  /** Refuses new tasks and resolves once every queued and running task has finished. */
  disposeGracefully(): Promise<void>;
  /** Refuses new tasks and rejects the queued ones at once; running ones cannot be interrupted. */
  dispose(): void;
  readonly isDisposed: boolean;
  /** Tasks started and not yet settled. */
  readonly active: number;
  /** Tasks waiting for a slot. */
  readonly queued: number;
}

interface PendingTask {
  start(): void;
  reject(reason: unknown): void;
}

export class ParallelScheduler implements Scheduler {
  private readonly waiting = new FifoQueue<PendingTask>();
  private running = 0;
  private disposed = false;
  private drained?: Deferred<void>;

  constructor(
    readonly name: string,
    readonly parallelism: number,
  ) {
    assertParallelism(parallelism, `Scheduler ${name}`);
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  get active(): number {
    return this.running;
  }

  get queued(): number {
    return this.waiting.size;
  }

  schedule<T>(task: () => Promise<T> | T): Promise<T> {
    if (this.disposed) {
      return Promise.reject(new UnavailableError(`Scheduler ${this.name} is disposed and accepts no new tasks`));
    }
    return new Promise<T>((resolve, reject) => {
      const pending: PendingTask = { start: () => this.run(task, resolve, reject), reject };
      if (this.running < this.parallelism) pending.start();
      else this.waiting.push(pending);
    });
  }

  disposeGracefully(): Promise<void> {
    this.disposed = true;
    this.drained ??= deferred<void>();
    this.resolveIfDrained();
    return this.drained.promise;
  }

  dispose(): void {
    this.disposed = true;
    for (const pending of this.waiting.takeAll()) {
      pending.reject(new UnavailableError(`Scheduler ${this.name} was disposed before the task started`));
    }
    this.resolveIfDrained();
  }

  private run<T>(task: () => Promise<T> | T, resolve: (value: T) => void, reject: (reason: unknown) => void): void {
    // The slot is taken synchronously so the bound holds, but the task body starts on a microtask:
    // schedule() never runs caller code re-entrantly, and a synchronous throw becomes a rejection.
    this.running++;
    Promise.resolve()
      .then(task)
      .then(
        (value) => this.settle(() => resolve(value)),
        (error: unknown) => this.settle(() => reject(error)),
      );
  }

  private settle(deliver: () => void): void {
    this.running--;
    deliver();
    this.pump();
  }

  private pump(): void {
    while (this.running < this.parallelism) {
      const next = this.waiting.shift();
      if (!next) break;
      next.start();
    }
    this.resolveIfDrained();
  }

  private resolveIfDrained(): void {
    if (this.drained && this.running === 0 && this.waiting.size === 0) this.drained.resolve();
  }
}
