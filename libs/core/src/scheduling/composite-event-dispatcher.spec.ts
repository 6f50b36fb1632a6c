import { UnavailableError } from '../errors/index.js';
import { AggregateDispatcher } from './aggregate-dispatcher.js';
import type { AggregateSchedulerSupplier } from './aggregate-scheduler-supplier.js';
import { BorrowedAggregateSchedulerSupplier } from './borrowed-aggregate-scheduler-supplier.js';
import { CompositeEventDispatcher, type EventDispatcherLifecycle } from './composite-event-dispatcher.js';
import { deferred } from './deferred.js';
import { DefaultAggregateSchedulerSupplier } from './default-aggregate-scheduler-supplier.js';

/**
 * A child event dispatcher built on a real AggregateDispatcher. Like a stand-alone dispatcher
 * it also stops the supplier it was given, which must be a no-op for the borrowed view.
 */
function child(name: string, log: string[], seen: AggregateSchedulerSupplier[], owner: DefaultAggregateSchedulerSupplier) {
  return (borrowed: AggregateSchedulerSupplier): EventDispatcherLifecycle & { dispatcher: AggregateDispatcher } => {
    seen.push(borrowed);
    const dispatcher = new AggregateDispatcher(name, borrowed);
    return {
      dispatcher,
      start: () => {
        log.push(`start ${name}`);
      },
      stopGracefully: async () => {
        await dispatcher.stopGracefully();
        await borrowed.stopGracefully();
        // The real supplier must still serve work while children stop.
        await owner.getOrInitialize('player').schedule(() => log.push(`stop ${name}, supplier alive`));
      },
      forceStop: async () => {
        await dispatcher.forceStop();
        await borrowed.forceStop();
        log.push(`force ${name}, supplier alive: ${!owner.getOrInitialize('player').isDisposed}`);
      },
    };
  };
}

describe('CompositeEventDispatcher', () => {
  it('gives every child one borrowed view and only the parent stops the real supplier', async () => {
    const supplier = new DefaultAggregateSchedulerSupplier('app', 2);
    let ownerStops = 0;
    const stopOwner = supplier.stopGracefully.bind(supplier);
    supplier.stopGracefully = () => {
      ownerStops++;
      return stopOwner();
    };
    const log: string[] = [];
    const seen: AggregateSchedulerSupplier[] = [];
    const composite = new CompositeEventDispatcher('events', supplier, [
      child('projector', log, seen, supplier),
      child('saga', log, seen, supplier),
    ]);

    expect(seen).toHaveLength(2);
    expect(seen[0]).toBeInstanceOf(BorrowedAggregateSchedulerSupplier);
    expect(seen[1]).toBe(seen[0]);
    expect(seen[0].getOrInitialize('player')).toBe(supplier.getOrInitialize('player'));

    await composite.start();
    const stopped = composite.stopGracefully();
    expect(composite.stopGracefully()).toBe(stopped);
    await stopped;

    expect(log).toEqual(['start projector', 'start saga', 'stop saga, supplier alive', 'stop projector, supplier alive']);
    expect(ownerStops).toBe(1);
    expect(() => supplier.getOrInitialize('player')).toThrow(UnavailableError);
  });

  it('force-stops the children in reverse order, then the supplier, rejecting queued work', async () => {
    const supplier = new DefaultAggregateSchedulerSupplier('app', 1);
    const log: string[] = [];
    const seen: AggregateSchedulerSupplier[] = [];
    const composite = new CompositeEventDispatcher('events', supplier, [
      child('projector', log, seen, supplier),
      child('saga', log, seen, supplier),
    ]);
    const scheduler = supplier.getOrInitialize('player');
    const gate = deferred();
    const running = scheduler.schedule(() => gate.promise);
    const queued = scheduler.schedule(() => 'never');
    // Marked handled now so that a failing assertion before the await below fails the test, not the run.
    queued.catch(() => undefined);

    const forced = composite.forceStop();
    expect(composite.forceStop()).toBe(forced);
    await forced;
    expect(log).toEqual(['force saga, supplier alive: true', 'force projector, supplier alive: true']);
    await expect(queued).rejects.toBeInstanceOf(UnavailableError);
    expect(scheduler.isDisposed).toBe(true);
    gate.resolve();
    await running;
  });

  it('still stops the other children and the supplier when one child fails to stop', async () => {
    const supplier = new DefaultAggregateSchedulerSupplier('app', 1);
    const log: string[] = [];
    const composite = new CompositeEventDispatcher('events', supplier, [
      () => ({ start: () => undefined, stopGracefully: async () => void log.push('first'), forceStop: async () => undefined }),
      () => ({ start: () => undefined, stopGracefully: () => Promise.reject(new Error('stuck')), forceStop: async () => undefined }),
    ]);
    await expect(composite.stopGracefully()).rejects.toThrow('stuck');
    expect(log).toEqual(['first']);
    expect(() => supplier.getOrInitialize('player')).toThrow(UnavailableError);
  });
});
