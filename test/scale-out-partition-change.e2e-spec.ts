import type { INestApplication } from '@nestjs/common';
import { CommandGateway, SyncMode } from '@nest-es/core';
import { CHECKPOINT_STORE, type CheckpointStore, EventProcessor, ProjectionRebuilder } from '@nest-es/core/internal';
import { drain } from '@nest-es/core/testing';
import { createShopApp } from './support/shop-app.js';
import { PlaceOrder, ShopReadModel } from './support/shop.domain.js';
import { createTestStore, type TestStore } from './support/test-store.js';
import { until } from './support/until.js';

const ORDERS = 12;
/** The shop's three subscribers (projector, saga, process manager), each in `partitions` partitions. */
const scaleOut = (partitions: number) => ({ processing: { scaleOut: { partitions, rebalanceIntervalMs: 50 } } });

/**
 * Turning scale-out on, and changing the number of partitions, on one instance (SQLite's leases are
 * the process's own). The shop's projector counts each order's projections and sums the stock
 * reserved, so an event handled twice shows; each order has a product of its own, so no stock runs out.
 */
describe('scale-out turned on or its partitions changed: no event handled twice', () => {
  let store: TestStore;
  let app: INestApplication | undefined;

  beforeEach(async () => {
    store = await createTestStore();
  });

  afterEach(async () => {
    await app?.close();
    app = undefined;
    await store.cleanup();
  });

  async function placeOrders(prefix: string, count: number): Promise<void> {
    const gateway = app!.get(CommandGateway);
    for (let i = 0; i < count; i++) await gateway.send(new PlaceOrder(`${prefix}${i}`, `sku-${prefix}${i}`, 1), { syncMode: SyncMode.SIMPLE });
  }

  async function restart(options: Parameters<typeof createShopApp>[1], partitions: number): Promise<void> {
    await app?.close();
    app = await createShopApp(store.options, options);
    await until(() => app!.get(EventProcessor).runningPartitions().length === 3 * partitions, `the ${3 * partitions} partitions to run`);
  }

  /** Each order projected once, and the one unit its saga reserved counted once. */
  async function expectEachOrderOnce(orders: string[]): Promise<void> {
    await drain(app!);
    const view = app!.get(ShopReadModel);
    for (const order of orders) expect([order, await view.order(order), await view.reserved(`sku-${order}`)]).toEqual([order, { status: 'placed', projections: 1 }, 1]);
  }

  it('a partition with no checkpoint starts where the subscriber got to without scale-out', async () => {
    await restart({}, 1);
    await placeOrders('before-', ORDERS);

    await restart(scaleOut(3), 3);
    await placeOrders('after-', 2);
    await expectEachOrderOnce(['before-0', `before-${ORDERS - 1}`, 'after-0', 'after-1']);
  });

  it('after the number of partitions changed, a rebuild without scale-out (as the maintenance CLI runs it) clears the old partitions, and the new ones start from it', async () => {
    await restart(scaleOut(2), 2);
    await placeOrders('before-', ORDERS);
    // Inside an application that shares it among instances, a rebuild is refused, saying where to run it.
    await expect(app!.get(ProjectionRebuilder).rebuild('shop-view')).rejects.toThrow(/shared among instances \(processing.scaleOut\): stop the instances and rebuild it from the maintenance CLI/);

    // The maintenance CLI boots the application with only the projector to rebuild running.
    await app!.close();
    app = await createShopApp(store.options, { processing: { subscribers: ['shop-view'] } });
    await app.get(ProjectionRebuilder).rebuild('shop-view');
    const checkpoints = [...(await app.get<CheckpointStore>(CHECKPOINT_STORE).loadAll()).keys()];
    expect(checkpoints.filter((name) => name.startsWith('shop-view'))).toEqual(['shop-view']);

    await restart(scaleOut(3), 3);
    await placeOrders('after-', 2);
    await expectEachOrderOnce(['before-0', `before-${ORDERS - 1}`, 'after-0', 'after-1']);
  });
});
