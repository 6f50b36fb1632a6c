import { Test } from '@nestjs/testing';
import { CommandGateway, EventSourcingModule, EVENT_STORE, type EventStore } from '@nest-es/core';
import { AddMany, CounterAggregate } from './support/counter.aggregate.js';
import { createTestStore, type TestStore } from './support/test-store.js';

async function boot(store: TestStore) {
  const moduleRef = await Test.createTestingModule({
    imports: [EventSourcingModule.forRoot({ store: store.options })],
    providers: [CounterAggregate],
  }).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  await app.init();
  return app;
}

describe('command idempotency by command id', () => {
  let store: TestStore;

  beforeEach(async () => {
    store = await createTestStore();
  });

  afterEach(async () => {
    await store.cleanup();
  });

  it('answers a repeated command id with the first result, also after a restart, and appends nothing', async () => {
    let app = await boot(store);
    const first = await app.get(CommandGateway).send(new AddMany('idem', 3), { commandId: 'cmd-1' });
    expect(first).toMatchObject({ sequence: 3, duplicate: false });
    await app.close();

    app = await boot(store);
    const gateway = app.get(CommandGateway);
    const again = await gateway.send(new AddMany('idem', 3), { commandId: 'cmd-1' });
    expect(again).toMatchObject({ sequence: 3, duplicate: true, commandId: 'cmd-1' });
    expect(again.events.map((event) => [event.sequence, event.position, event.metadata.eventId])).toEqual(
      first.events.map((event) => [event.sequence, event.position, event.metadata.eventId]),
    );
    // The same id on another aggregate is another command.
    expect(await gateway.send(new AddMany('other', 1), { commandId: 'cmd-1' })).toMatchObject({ sequence: 1, duplicate: false });
    // Concurrent repeats of a new id store it once.
    const racing = await Promise.all(Array.from({ length: 10 }, () => gateway.send(new AddMany('idem', 2), { commandId: 'cmd-2' })));
    expect(new Set(racing.map((result) => result.sequence))).toEqual(new Set([5]));
    expect(racing.filter((result) => !result.duplicate)).toHaveLength(1);
    expect(await app.get<EventStore>(EVENT_STORE).streamSequence({ aggregateType: 'counter', aggregateId: 'idem' })).toBe(5);
    await app.close();
  });
});
