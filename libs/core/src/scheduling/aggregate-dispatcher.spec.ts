import { UnavailableError } from '../errors/index.js';
import { AggregateDispatcher } from './aggregate-dispatcher.js';
import { deferred } from './deferred.js';
import { DefaultAggregateSchedulerSupplier } from './default-aggregate-scheduler-supplier.js';
import { groupKey } from './group-key.js';
import { flush, settledFlag } from '../../../../test/support/settling.js';

/** Ids `a` and `b` (from a fixed candidate list) that land in different groups. */
function idsInDifferentGroups(parallelism: number): [string, string] {
  const a = 'player-0';
  const b = Array.from({ length: 100 }, (_, i) => `player-${i + 1}`).find(
    (id) => groupKey(id, parallelism) !== groupKey(a, parallelism),
  );
  if (!b) throw new Error('no id in another group');
  return [a, b];
}

describe('AggregateDispatcher', () => {
  it('never overlaps the commands of one id and keeps their arrival order', async () => {
    const supplier = new DefaultAggregateSchedulerSupplier('app', 8);
    // Few groups so that different ids collide and share lanes too.
    const dispatcher = new AggregateDispatcher('commands', supplier, 4);
    const inside = new Map<string, number>();
    const seen = new Map<string, number[]>();
    let maxInsideOneId = 0;
    let maxOverall = 0;
    let overall = 0;
    const results: Promise<unknown>[] = [];
    for (let n = 0; n < 12; n++) {
      for (let i = 0; i < 20; i++) {
        const id = `player-${i}`;
        results.push(
          dispatcher.dispatch('player', id, async () => {
            inside.set(id, (inside.get(id) ?? 0) + 1);
            overall++;
            maxInsideOneId = Math.max(maxInsideOneId, inside.get(id)!);
            maxOverall = Math.max(maxOverall, overall);
            seen.set(id, [...(seen.get(id) ?? []), n]);
            // Yield a varying number of turns so tasks of different lanes interleave.
            for (let hop = 0; hop < (i * 7 + n * 3) % 5; hop++) await flush();
            inside.set(id, inside.get(id)! - 1);
            overall--;
          }),
        );
      }
    }
    await Promise.all(results);
    expect(maxInsideOneId).toBe(1);
    expect(maxOverall).toBeGreaterThan(1);
    expect(maxOverall).toBeLessThanOrEqual(4);
    for (const order of seen.values()) expect(order).toEqual([...Array(12).keys()]);
    expect(dispatcher.inFlight).toBe(0);
    expect(dispatcher.activeGroups).toBe(0);
  });

  it('runs ids of different groups concurrently', async () => {
    const dispatcher = new AggregateDispatcher('commands', new DefaultAggregateSchedulerSupplier('app', 2), 64);
    const [a, b] = idsInDifferentGroups(64);
    const gate = deferred();
    let aFinished = false;
    let bStarted = false;
    const first = dispatcher.dispatch('player', a, async () => {
      await gate.promise;
      aFinished = true;
    });
    const second = dispatcher.dispatch('player', b, async () => {
      bStarted = true;
    });
    await flush();
    expect(bStarted).toBe(true);
    expect(aFinished).toBe(false);
    gate.resolve();
    await Promise.all([first, second]);
  });

  it('runs the same id of two aggregate types concurrently', async () => {
    const dispatcher = new AggregateDispatcher('commands', new DefaultAggregateSchedulerSupplier('app', 1), 64);
    const gate = deferred();
    let tableStarted = false;
    const player = dispatcher.dispatch('player', 'x', () => gate.promise);
    const table = dispatcher.dispatch('table', 'x', async () => {
      tableStarted = true;
    });
    await flush();
    expect(tableStarted).toBe(true);
    gate.resolve();
    await Promise.all([player, table]);
  });

  it("executes every task on the aggregate type's scheduler, so its bound holds across groups", async () => {
    const supplier = new DefaultAggregateSchedulerSupplier('app', 1);
    const dispatcher = new AggregateDispatcher('commands', supplier, 64);
    const [a, b] = idsInDifferentGroups(64);
    const gate = deferred();
    let bStarted = false;
    const first = dispatcher.dispatch('player', a, () => gate.promise);
    const second = dispatcher.dispatch('player', b, async () => {
      bStarted = true;
    });
    await flush();
    expect(bStarted).toBe(false);
    expect(supplier.getOrInitialize('player').queued).toBe(1);
    gate.resolve();
    await Promise.all([first, second]);
    expect(bStarted).toBe(true);
  });

  it('does not let a failing task stall its group', async () => {
    const dispatcher = new AggregateDispatcher('commands', new DefaultAggregateSchedulerSupplier('app', 2), 8);
    const failing = dispatcher.dispatch('player', 'p1', () => Promise.reject(new Error('boom')));
    const throwing = dispatcher.dispatch('player', 'p1', () => {
      throw new Error('sync boom');
    });
    const next = dispatcher.dispatch('player', 'p1', async () => 'next');
    await expect(failing).rejects.toThrow('boom');
    await expect(throwing).rejects.toThrow('sync boom');
    await expect(next).resolves.toBe('next');
    expect(dispatcher.activeGroups).toBe(0);
  });

  it('drops idle groups so memory stays flat', async () => {
    const dispatcher = new AggregateDispatcher('commands', new DefaultAggregateSchedulerSupplier('app', 4), 1024);
    const gate = deferred();
    const tasks = Array.from({ length: 500 }, (_, i) => dispatcher.dispatch('player', `player-${i}`, () => gate.promise));
    expect(dispatcher.inFlight).toBe(500);
    expect(dispatcher.activeGroups).toBeGreaterThan(1);
    gate.resolve();
    await Promise.all(tasks);
    expect(dispatcher.inFlight).toBe(0);
    expect(dispatcher.activeGroups).toBe(0);
  });

  it('graceful stop refuses new dispatches and waits for queued and running tasks', async () => {
    const dispatcher = new AggregateDispatcher('commands', new DefaultAggregateSchedulerSupplier('app', 2), 8);
    const gate = deferred();
    const order: string[] = [];
    const running = dispatcher.dispatch('player', 'p1', async () => {
      await gate.promise;
      order.push('running');
    });
    const queued = dispatcher.dispatch('player', 'p1', async () => {
      order.push('queued');
    });
    const stopped = dispatcher.stopGracefully();
    const stoppedFlag = settledFlag(stopped);
    expect(dispatcher.stopGracefully()).toBe(stopped);
    await expect(dispatcher.dispatch('player', 'p2', async () => 'late')).rejects.toBeInstanceOf(UnavailableError);

    await flush();
    expect(stoppedFlag.settled).toBe(false);
    expect(dispatcher.inFlight).toBe(2);
    gate.resolve();
    await stopped;
    await Promise.all([running, queued]);
    expect(order).toEqual(['running', 'queued']);
    expect(dispatcher.inFlight).toBe(0);
  });

  it('force stop rejects queued tasks, lets the running one finish and keeps refusing', async () => {
    const dispatcher = new AggregateDispatcher('commands', new DefaultAggregateSchedulerSupplier('app', 2), 8);
    const gate = deferred();
    const running = dispatcher.dispatch('player', 'p1', async () => {
      await gate.promise;
      return 'finished';
    });
    const ran: string[] = [];
    const queued = [
      dispatcher.dispatch('player', 'p1', async () => ran.push('q1')),
      dispatcher.dispatch('player', 'p1', async () => ran.push('q2')),
    ];
    // Marked handled now so that a failing assertion before the await below fails the test, not the run.
    for (const task of queued) task.catch(() => undefined);
    await flush();
    const graceful = dispatcher.stopGracefully();

    await dispatcher.forceStop();
    for (const task of queued) await expect(task).rejects.toThrow(/force-stopped/);
    expect(dispatcher.inFlight).toBe(1);
    await expect(dispatcher.dispatch('player', 'p1', async () => 'late')).rejects.toBeInstanceOf(UnavailableError);

    gate.resolve();
    await expect(running).resolves.toBe('finished');
    await graceful;
    expect(ran).toEqual([]);
    expect(dispatcher.activeGroups).toBe(0);
  });

  it('rejects a task whose scheduler supplier has stopped, without stalling the group', async () => {
    const supplier = new DefaultAggregateSchedulerSupplier('app', 2);
    const dispatcher = new AggregateDispatcher('commands', supplier, 8);
    await supplier.stopGracefully();
    const first = dispatcher.dispatch('player', 'p1', async () => 'never');
    const second = dispatcher.dispatch('player', 'p1', async () => 'never');
    await expect(first).rejects.toBeInstanceOf(UnavailableError);
    await expect(second).rejects.toBeInstanceOf(UnavailableError);
    expect(dispatcher.inFlight).toBe(0);
  });
});
