import { availableParallelism } from 'node:os';
import { UnavailableError } from '../errors/index.js';
import { deferred } from './deferred.js';
import { DefaultAggregateSchedulerSupplier } from './default-aggregate-scheduler-supplier.js';
import { flush, settledFlag } from '../../../../test/support/settling.js';

describe('DefaultAggregateSchedulerSupplier', () => {
  it('creates one scheduler per named aggregate, even under concurrent first calls', async () => {
    const supplier = new DefaultAggregateSchedulerSupplier('app', 4);
    const callers = Array.from({ length: 50 }, async (_, i) => {
      for (let hop = 0; hop < i % 5; hop++) await Promise.resolve();
      return supplier.getOrInitialize(i % 2 === 0 ? 'player' : 'table');
    });
    const schedulers = await Promise.all(callers);
    const players = new Set(schedulers.filter((_, i) => i % 2 === 0));
    const tables = new Set(schedulers.filter((_, i) => i % 2 === 1));
    expect(players.size).toBe(1);
    expect(tables.size).toBe(1);
    const [player] = players;
    expect(player).not.toBe([...tables][0]);
    expect(player.name).toBe('app-player');
    expect(player.parallelism).toBe(4);
    expect(supplier.getOrInitialize('player')).toBe(player);
  });

  it('defaults parallelism to the available parallelism', () => {
    const supplier = new DefaultAggregateSchedulerSupplier('app');
    expect(supplier.parallelism).toBe(availableParallelism());
    expect(supplier.getOrInitialize('player').parallelism).toBe(availableParallelism());
  });

  it('refuses schedulers as soon as stopping begins, before the drain finished', async () => {
    const supplier = new DefaultAggregateSchedulerSupplier('app', 1);
    const gate = deferred();
    const running = supplier.getOrInitialize('player').schedule(() => gate.promise);
    const stopped = supplier.stopGracefully();

    expect(() => supplier.getOrInitialize('table')).toThrow(UnavailableError);
    // Documented choice: a cached key is refused too, the stopping supplier hands out nothing.
    expect(() => supplier.getOrInitialize('player')).toThrow(/app has stopped/);

    gate.resolve();
    await running;
    await stopped;
    expect(() => supplier.getOrInitialize('table')).toThrow(UnavailableError);
  });

  it('caches the graceful termination: every caller gets the same promise and each scheduler drains once', async () => {
    const supplier = new DefaultAggregateSchedulerSupplier('app', 1);
    const scheduler = supplier.getOrInitialize('player');
    // Call-through counter: ESM jest has no `jest` global and the real drain must still run.
    let drains = 0;
    const disposeGracefully = scheduler.disposeGracefully.bind(scheduler);
    scheduler.disposeGracefully = () => {
      drains++;
      return disposeGracefully();
    };
    const gate = deferred();
    const running = scheduler.schedule(() => gate.promise);

    const first = supplier.stopGracefully();
    const concurrent = await Promise.all([1, 2].map(() => Promise.resolve().then(() => ({ stop: supplier.stopGracefully() }))));
    for (const { stop } of concurrent) expect(stop).toBe(first);
    const firstFlag = settledFlag(first);
    await flush();
    expect(firstFlag.settled).toBe(false);

    gate.resolve();
    await running;
    await expect(first).resolves.toBeUndefined();
    expect(supplier.stopGracefully()).toBe(first);
    expect(drains).toBe(1);
  });

  it('lets a force stop take over a graceful stop in progress', async () => {
    const supplier = new DefaultAggregateSchedulerSupplier('app', 1);
    const scheduler = supplier.getOrInitialize('player');
    const gate = deferred();
    const longRunning = scheduler.schedule(async () => {
      await gate.promise;
      return 'done';
    });
    const queued = scheduler.schedule(() => 'never');
    // Marked handled now so that a failing assertion before the await below fails the test, not the run.
    queued.catch(() => undefined);
    const graceful = supplier.stopGracefully();
    const gracefulFlag = settledFlag(graceful);
    await flush();
    expect(gracefulFlag.settled).toBe(false);
    expect(scheduler.queued).toBe(1);

    const forced = supplier.forceStop();
    // Disposal starts synchronously: the queued task is dropped before forceStop's promise is awaited.
    expect(scheduler.queued).toBe(0);
    await forced;
    await expect(queued).rejects.toBeInstanceOf(UnavailableError);
    expect(gracefulFlag.settled).toBe(false);

    gate.resolve();
    await expect(longRunning).resolves.toBe('done');
    await graceful;
  });

  it('keeps rejecting new schedulers after a force stop', async () => {
    const supplier = new DefaultAggregateSchedulerSupplier('app', 2);
    const scheduler = supplier.getOrInitialize('player');
    await supplier.forceStop();

    expect(() => supplier.getOrInitialize('table')).toThrow(UnavailableError);
    await expect(scheduler.schedule(() => 'late')).rejects.toBeInstanceOf(UnavailableError);
    await supplier.stopGracefully();
    await supplier.forceStop();
    expect(() => supplier.getOrInitialize('table')).toThrow(UnavailableError);
  });
});
