import { ErrorCode, InvalidArgumentError, UnavailableError } from '../errors/index.js';
import { deferred, type Deferred } from './deferred.js';
import { ParallelScheduler } from './scheduler.js';
import { flush, settledFlag } from '../../../../test/support/settling.js';

describe('ParallelScheduler', () => {
  it('never runs more than `parallelism` tasks at once and queues the rest FIFO', async () => {
    const scheduler = new ParallelScheduler('bound', 3);
    const gates: Deferred<void>[] = Array.from({ length: 10 }, () => deferred());
    const started: number[] = [];
    let running = 0;
    let maxRunning = 0;
    const results = gates.map((gate, i) =>
      scheduler.schedule(async () => {
        started.push(i);
        running++;
        maxRunning = Math.max(maxRunning, running);
        await gate.promise;
        running--;
        return i;
      }),
    );
    await flush();
    expect(started).toEqual([0, 1, 2]);
    expect(scheduler.active).toBe(3);
    expect(scheduler.queued).toBe(7);

    // Release out of order: freed slots still go to the oldest waiting task.
    for (const i of [2, 0, 1, 5, 4, 3, 9, 8, 7, 6]) {
      gates[i].resolve();
      await flush();
    }
    await expect(Promise.all(results)).resolves.toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(maxRunning).toBe(3);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(scheduler.active).toBe(0);
  });

  it('delivers a task error to its caller only and keeps running the others', async () => {
    const scheduler = new ParallelScheduler('errors', 1);
    const failing = scheduler.schedule(() => Promise.reject(new Error('boom')));
    const throwing = scheduler.schedule(() => {
      throw new Error('sync boom');
    });
    const fine = scheduler.schedule(() => 'ok');
    await expect(failing).rejects.toThrow('boom');
    await expect(throwing).rejects.toThrow('sync boom');
    await expect(fine).resolves.toBe('ok');
  });

  it('does not run the task inside schedule()', async () => {
    const scheduler = new ParallelScheduler('async-start', 1);
    let ran = false;
    const result = scheduler.schedule(() => (ran = true));
    expect(ran).toBe(false);
    await result;
    expect(ran).toBe(true);
  });

  it('disposeGracefully refuses new tasks and resolves once queued and running tasks are done', async () => {
    const scheduler = new ParallelScheduler('graceful', 1);
    const gate = deferred();
    const order: string[] = [];
    const first = scheduler.schedule(async () => {
      await gate.promise;
      order.push('first');
    });
    const second = scheduler.schedule(() => order.push('second'));

    const stopped = scheduler.disposeGracefully();
    const stoppedFlag = settledFlag(stopped);
    expect(scheduler.isDisposed).toBe(true);
    expect(scheduler.disposeGracefully()).toBe(stopped);
    const refused = scheduler.schedule(() => order.push('late'));
    await expect(refused).rejects.toBeInstanceOf(UnavailableError);
    await expect(refused).rejects.toThrow(/graceful/);

    await flush();
    expect(stoppedFlag.settled).toBe(false);
    gate.resolve();
    await stopped;
    await Promise.all([first, second]);
    expect(order).toEqual(['first', 'second']);
  });

  it('dispose rejects queued tasks at once; running ones finish and a pending graceful stop waits for them', async () => {
    const scheduler = new ParallelScheduler('forced', 1);
    const gate = deferred();
    const running = scheduler.schedule(async () => {
      await gate.promise;
      return 'finished';
    });
    const queued = [scheduler.schedule(() => 'never'), scheduler.schedule(() => 'never')];
    // Marked handled now so that a failing assertion before the await below fails the test, not the run.
    for (const task of queued) task.catch(() => undefined);
    const graceful = scheduler.disposeGracefully();
    const gracefulFlag = settledFlag(graceful);
    await flush();

    scheduler.dispose();
    expect(scheduler.queued).toBe(0);
    for (const task of queued) {
      await expect(task).rejects.toMatchObject({ code: ErrorCode.UNAVAILABLE });
    }
    await flush();
    expect(gracefulFlag.settled).toBe(false);

    gate.resolve();
    await expect(running).resolves.toBe('finished');
    await graceful;
    expect(scheduler.active).toBe(0);
  });

  it('refuses a parallelism below 1', () => {
    expect(() => new ParallelScheduler('zero', 0)).toThrow(InvalidArgumentError);
    expect(() => new ParallelScheduler('fraction', 1.5)).toThrow(InvalidArgumentError);
  });
});
