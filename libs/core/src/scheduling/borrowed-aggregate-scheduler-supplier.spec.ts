import { BorrowedAggregateSchedulerSupplier } from './borrowed-aggregate-scheduler-supplier.js';
import { DefaultAggregateSchedulerSupplier } from './default-aggregate-scheduler-supplier.js';

describe('BorrowedAggregateSchedulerSupplier', () => {
  it("hands out the owner's schedulers and its stop methods leave them working", async () => {
    const owner = new DefaultAggregateSchedulerSupplier('app', 2);
    const borrowed = new BorrowedAggregateSchedulerSupplier(owner);
    const scheduler = borrowed.getOrInitialize('player');
    expect(scheduler).toBe(owner.getOrInitialize('player'));

    await borrowed.stopGracefully();
    await borrowed.forceStop();

    expect(scheduler.isDisposed).toBe(false);
    await expect(scheduler.schedule(() => 'still running')).resolves.toBe('still running');
    expect(owner.getOrInitialize('table').name).toBe('app-table');

    await owner.stopGracefully();
    expect(scheduler.isDisposed).toBe(true);
  });
});
