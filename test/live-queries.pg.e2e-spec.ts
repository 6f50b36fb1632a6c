import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { filter } from 'rxjs';
import { CommandGateway, EventSourcingModule, LiveQueries } from '@nest-es/core';
import { typeorm } from '@nest-es/typeorm';
import { AddMany, CounterAggregate } from './support/counter.aggregate.js';
import { CounterTotals, CounterTotalsProjector } from './support/live-counter.js';
import { createTestStore, type TestStore } from './support/test-store.js';
import { until } from './support/until.js';

/**
 * Two instances on one PostgreSQL store: the projector runs on one, the client watches on the other.
 * The change reaches it through the checkpoint wake-up between instances, not through the poll
 * (set far beyond the test's wait).
 */
describe('live queries across instances on PostgreSQL', () => {
  let store: TestStore;
  const apps: INestApplication[] = [];

  async function instance(processing: boolean): Promise<INestApplication> {
    const moduleRef = await Test.createTestingModule({
      imports: [EventSourcingModule.forRoot({ adapter: typeorm(store.options), processing: { enabled: processing }, live: { pollMs: 600_000 } })],
      providers: [CounterAggregate, CounterTotalsProjector, CounterTotals],
    }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    await app.init();
    apps.push(app);
    return app;
  }

  beforeAll(async () => {
    store = await createTestStore();
  });

  afterAll(async () => {
    for (const app of apps) await app.close();
    await store?.cleanup();
  });

  it('a change committed by the projector on one instance reaches a client watching on the other', async () => {
    const projecting = await instance(true);
    const watching = await instance(false);
    const updates: number[] = [];
    const stream = await watching.get(LiveQueries).watch({ projector: 'counter-totals', key: 'x' }, () => watching.get(CounterTotals).total('x'));
    const subscription = stream.pipe(filter((message) => message.type === 'update')).subscribe((message) => updates.push((message.data as { total: number }).total));
    await projecting.get(CommandGateway).send(new AddMany('x', 3));
    await until(() => updates.at(-1) === 3, 'the total of 3 on the watching instance');
    subscription.unsubscribe();
    expect(updates[0]).toBe(0);
    expect(updates.at(-1)).toBe(3);
    expect(updates).toEqual([...new Set(updates)].sort((a, b) => a - b));
  });
});
