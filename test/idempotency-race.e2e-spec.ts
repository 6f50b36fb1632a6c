// Two instances on one store get the same Command-Id at the same moment: both looked it up before
// either recorded it, so one append wins and the other is refused by the store's command record.
// The loser answers with the winner's result, as a repeat would: never an error, never two appends.
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { CommandGateway, EVENT_STORE, EventSourcingModule, type EventStore } from '@nest-es/core';
import { typeorm } from '@nest-es/typeorm';
import { AddMany, CounterAggregate } from './support/counter.aggregate.js';
import { createTestStore, type TestStore } from './support/test-store.js';

const COMMANDS = 30;

async function boot(store: TestStore): Promise<INestApplication> {
  const moduleRef = await Test.createTestingModule({
    imports: [EventSourcingModule.forRoot({ adapter: typeorm(store.options), processing: { enabled: false } })],
    providers: [CounterAggregate],
  }).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  await app.init();
  return app;
}

describe('one Command-Id sent to two instances at once', () => {
  let store: TestStore;
  let instances: INestApplication[] = [];

  beforeAll(async () => {
    store = await createTestStore();
    instances = [await boot(store), await boot(store)];
  });

  afterAll(async () => {
    for (const app of instances) await app.close();
    await store?.cleanup();
  });

  it('appends once and answers both callers with the same result', async () => {
    const [one, two] = instances.map((app) => app.get(CommandGateway));
    let duplicates = 0;
    for (let i = 0; i < COMMANDS; i++) {
      const commandId = `race-${i}`;
      const [a, b] = await Promise.all([one.send(new AddMany('raced', 1), { commandId }), two.send(new AddMany('raced', 1), { commandId })]);
      expect(b.sequence).toBe(a.sequence);
      expect(b.events.map((event) => event.metadata.eventId)).toEqual(a.events.map((event) => event.metadata.eventId));
      expect([a.duplicate, b.duplicate].sort()).toEqual([false, true]);
      duplicates++;
    }
    expect(duplicates).toBe(COMMANDS);
    const stored = await instances[0].get<EventStore>(EVENT_STORE).readStream({ aggregateType: 'counter', aggregateId: 'raced' });
    expect(stored).toHaveLength(COMMANDS);
  });
});
