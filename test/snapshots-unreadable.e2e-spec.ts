// Snapshots that cannot be read at all never fail a command: the load replays every event. The
// TypeORM adapter reads the snapshot and the events in one statement, which then fails as a whole;
// the loader falls back to reading them apart, where the snapshot read alone fails, as before.
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { DataSource } from 'typeorm';
import { AggregateReader, CommandGateway, EventSourcingModule } from '@nest-es/core';
import { EVENT_SOURCING_DATA_SOURCE, typeorm } from '@nest-es/typeorm';
import { CapturingLogger } from './support/capturing-logger.js';
import { Count, tallyAggregate } from './support/tally.aggregate.js';
import { createTestStore, type TestStore } from './support/test-store.js';

let store: TestStore;
let app: INestApplication | undefined;

beforeAll(async () => {
  store = await createTestStore();
});

afterAll(async () => {
  await app?.close();
  await store?.cleanup();
});

describe(`snapshots that cannot be read (${process.env.ES_TEST_DB})`, () => {
  it('replays every event, and the command succeeds', async () => {
    const logs = new CapturingLogger();
    const moduleRef = await Test.createTestingModule({
      // No aggregate cache: every command loads from the store.
      imports: [EventSourcingModule.forRoot({ adapter: typeorm(store.options), aggregateCacheSize: 0 })],
      providers: [tallyAggregate({ snapshot: { every: 5 } })],
    }).compile();
    app = moduleRef.createNestApplication({ logger: logs });
    await app.init();
    const gateway = app.get(CommandGateway);
    await gateway.send(new Count('unreadable', 6));
    await gateway.send(new Count('unreadable', 1));

    // This store's schema is discarded after the suite.
    await app.get<DataSource>(EVENT_SOURCING_DATA_SOURCE).query('DROP TABLE es_snapshots');

    expect((await app.get(AggregateReader).state('tally', 'unreadable')).state).toEqual({ total: 7, milestones: 0 });
    const result = await gateway.send(new Count('unreadable', 1));
    expect(result.sequence).toBe(8);
    expect((await app.get(AggregateReader).state('tally', 'unreadable')).state).toEqual({ total: 8, milestones: 0 });
    expect(logs.warnings.some((line) => line.includes('one read of tally/unreadable failed, reading its snapshot and events apart'))).toBe(true);
    expect(logs.warnings.some((line) => line.includes('ignoring the snapshots of tally/unreadable, replaying every event'))).toBe(true);
  });
});
