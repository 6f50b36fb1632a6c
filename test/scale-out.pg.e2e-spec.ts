import type { INestApplication } from '@nestjs/common';
import pg from 'pg';
import { CommandGateway, SyncMode } from '@nest-es/core';
import { createShopApp } from './support/shop-app.js';
import { PlaceOrder, ShopReadModel } from './support/shop.domain.js';
import { createTestStore, TEST_DATABASE_URL, type TestStore } from './support/test-store.js';
import { EventProcessor } from '@nest-es/core/internal';

const PARTITIONS = 4;
const REBALANCE_MS = 100;
const scaleOut = { scaleOut: { partitions: PARTITIONS, rebalanceIntervalMs: REBALANCE_MS } };
/** Every unit of work: 3 subscribers of the shop (projector, saga, process manager) times the partitions. */
const UNITS = 3 * PARTITIONS;

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 10_000, pollMs = 20): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

const running = (apps: INestApplication[]) => apps.map((app) => app.get(EventProcessor).runningPartitions());

/** Each unit runs on exactly one of the apps. */
function partitionedOnce(apps: INestApplication[]): boolean {
  const all = running(apps).flat();
  return all.length === UNITS && new Set(all).size === UNITS;
}

describe('scale-out on PostgreSQL: subscriber partitions leased to one instance each', () => {
  let store: TestStore;
  const apps: INestApplication[] = [];

  beforeAll(async () => {
    store = await createTestStore();
    for (let i = 0; i < 3; i++) apps.push(await createShopApp(store.options, { syncTimeoutMs: 5_000, processing: scaleOut }));
  });

  afterAll(async () => {
    for (const app of apps) await app.close();
    await store?.cleanup();
  });

  it('spreads the partitions over the instances, each running on exactly one', async () => {
    await until(() => partitionedOnce(apps) && running(apps).every((units) => units.length === UNITS / 3));
  });

  it('projects every event once, whichever instance takes the command', async () => {
    for (let i = 0; i < 30; i++) {
      await apps[i % 3].get(CommandGateway).send(new PlaceOrder(`s${i}`, `sku-${i}`, 1), { syncMode: SyncMode.SIMPLE });
    }
    const view = apps[0].get(ShopReadModel);
    for (let i = 0; i < 30; i++) expect(await view.order(`s${i}`)).toEqual({ status: 'placed', projections: 1 });
  });

  it('hands a stopped instance\'s partitions to the others, and takes a share back when one joins', async () => {
    const leaving = apps.pop()!;
    await leaving.close();
    await until(() => partitionedOnce(apps));
    apps.push(await createShopApp(store.options, { syncTimeoutMs: 5_000, processing: scaleOut }));
    await until(() => partitionedOnce(apps) && running(apps).every((units) => units.length === UNITS / 3));
  });

  it('stops the work of an instance whose lease connection dies, and shares the partitions again', async () => {
    const schema = (store.options as { schema: string }).schema;
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    try {
      // The lease connections of this schema's instances: the holders of its member-slot locks.
      const { rows } = await admin.query<{ pid: number }>(
        `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 2
           AND classid = (hashtext('es_members:' || $1::text)::bigint & 4294967295)::oid ORDER BY pid`,
        [schema],
      );
      expect(rows).toHaveLength(3);
      await admin.query('SELECT pg_terminate_backend($1)', [rows[0].pid]);
    } finally {
      await admin.end();
    }
    // One instance lost every lease at once and stopped its partitions; it joins again and all is shared out.
    // A passing state (until the next rebalance, 100 ms): looked for every millisecond, or a loaded machine misses it.
    await until(() => running(apps).some((units) => units.length === 0), 10_000, 1);
    await until(() => partitionedOnce(apps) && running(apps).every((units) => units.length === UNITS / 3));
    await apps[1].get(CommandGateway).send(new PlaceOrder('after-loss', 'sku-x', 1), { syncMode: SyncMode.SIMPLE });
    expect(await apps[0].get(ShopReadModel).order('after-loss')).toEqual({ status: 'placed', projections: 1 });
  });
});
