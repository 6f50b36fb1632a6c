import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { firstValueFrom, filter, take, toArray, type Observable, type Subscription } from 'rxjs';
import { CommandGateway, ErrorCode, EventSourcingError, EventSourcingModule, LiveQueries, SyncMode, type LiveMessage } from '@nest-es/core';
import { typeorm } from '@nest-es/typeorm';
import { AddMany, CounterAggregate } from './support/counter.aggregate.js';
import { CounterTotals, CounterTotalsProjector } from './support/live-counter.js';
import { createTestStore, type TestStore } from './support/test-store.js';
import { until } from './support/until.js';

type Total = { counterId: string; total: number };

/** Collects a live query's updates (heartbeats left out) as they come. */
function collect(stream: Observable<LiveMessage<Total>>): { updates: Total[]; subscription: Subscription } {
  const updates: Total[] = [];
  const subscription = stream.pipe(filter((message) => message.type === 'update')).subscribe((message) => updates.push(message.data as Total));
  return { updates, subscription };
}

/** LiveQueries on a real store: a projector says what it changed, and the queries watching it hear of it once committed. */
describe('live queries', () => {
  let store: TestStore;
  let app: INestApplication;
  let live: LiveQueries;
  let gateway: CommandGateway;
  let totals: CounterTotals;

  beforeAll(async () => {
    store = await createTestStore();
    const moduleRef = await Test.createTestingModule({
      imports: [EventSourcingModule.forRoot({ adapter: typeorm(store.options), live: { maxWatchers: 5, heartbeatMs: 200 } })],
      providers: [CounterAggregate, CounterTotalsProjector, CounterTotals],
    }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.init();
    live = app.get(LiveQueries);
    gateway = app.get(CommandGateway);
    totals = app.get(CounterTotals);
  });

  afterAll(async () => {
    await app?.close();
    await store?.cleanup();
  });

  it('sends the answer at once, then each new answer after the change that made it is committed', async () => {
    await gateway.send(new AddMany('a', 2), { syncMode: SyncMode.SIMPLE });
    const { updates, subscription } = collect(await live.watch({ projector: 'counter-totals', key: 'a' }, () => totals.total('a')));
    expect(updates).toEqual([{ counterId: 'a', total: 2 }]);
    await gateway.send(new AddMany('a', 3));
    await until(() => updates.at(-1)?.total === 5, 'the total of 5');
    // Every update sent is a committed answer, in order, and none is sent twice.
    const seen = updates.map((update) => update.total);
    expect(seen).toEqual([...new Set(seen)].sort((x, y) => x - y));
    expect(seen[0]).toBe(2);
    subscription.unsubscribe();
  });

  it('does not send what did not change: another key, or the same answer', async () => {
    const { updates, subscription } = collect(await live.watch({ projector: 'counter-totals', key: 'b' }, () => totals.total('b')));
    await gateway.send(new AddMany('other', 4), { syncMode: SyncMode.SIMPLE });
    await gateway.send(new AddMany('b', 1), { syncMode: SyncMode.SIMPLE });
    await until(() => updates.length === 2, 'the change of b');
    expect(updates).toEqual([
      { counterId: 'b', total: 0 },
      { counterId: 'b', total: 1 },
    ]);
    subscription.unsubscribe();
  });

  it('watches every key of a projector when the trigger names none', async () => {
    const { updates, subscription } = collect(await live.watch({ projector: 'counter-totals' }, () => totals.total('c')));
    await gateway.send(new AddMany('c', 1), { syncMode: SyncMode.SIMPLE });
    await until(() => updates.length === 2, 'the change of c');
    subscription.unsubscribe();
  });

  it('sends heartbeats between updates', async () => {
    const stream = await live.watch({ projector: 'counter-totals', key: 'd' }, () => totals.total('d'));
    const messages = await firstValueFrom(stream.pipe(take(2), toArray()));
    expect(messages.map((message) => message.type)).toEqual(['update', 'heartbeat']);
  });

  it('refuses a projector that does not exist, and what the first run throws', async () => {
    await expect(live.watch({ projector: 'nope' }, () => totals.total('a'))).rejects.toMatchObject({ code: ErrorCode.INVALID_ARGUMENT });
    await expect(
      live.watch({ projector: 'counter-totals' }, () => Promise.reject(new EventSourcingError(ErrorCode.NOT_FOUND, 'no such counter'))),
    ).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
  });

  it('refuses one more than live.maxWatchers with UNAVAILABLE, and takes one again once a client left', async () => {
    const open = await Promise.all(Array.from({ length: 5 }, () => live.watch({ projector: 'counter-totals', key: 'e' }, () => totals.total('e'))));
    const subscriptions = open.map((stream) => stream.subscribe());
    await expect(live.watch({ projector: 'counter-totals', key: 'e' }, () => totals.total('e'))).rejects.toMatchObject({ code: ErrorCode.UNAVAILABLE });
    subscriptions[0].unsubscribe();
    const again = (await live.watch({ projector: 'counter-totals', key: 'e' }, () => totals.total('e'))).subscribe();
    for (const subscription of [...subscriptions, again]) subscription.unsubscribe();
    expect(live.size).toBe(0);
  });
});
