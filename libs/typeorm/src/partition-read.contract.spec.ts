// A partition read across a stretch of positions wider than one statement scans (here positions
// skipped, as rolled-back appends leave them): it goes on window by window, so a filter that matches
// little never needs one long statement, and it still finds what lies beyond.
import { randomUUID } from 'node:crypto';
import { openTestDataSource, type TestDataSource } from '../../../test/support/test-database.js';
import type { StoredEvent } from '@nest-es/core';
import { PARTITION_SCAN_WINDOW, TypeOrmEventStore } from './typeorm-event-store.js';

let db: TestDataSource;
let store: TypeOrmEventStore;

beforeAll(async () => {
  db = await openTestDataSource();
  store = await TypeOrmEventStore.create(db.dataSource);
});

afterAll(async () => {
  await db?.close();
});

async function append(type: string): Promise<StoredEvent> {
  const { events } = await store.append({
    stream: { aggregateType: 'windowed', aggregateId: randomUUID() },
    expectedSequence: 0,
    events: [{ type, payload: {}, metadata: { eventId: randomUUID(), commandId: null, correlationId: 'w', causationId: null } }],
  });
  return events[0];
}

/** The next append takes a position `by` beyond the head. */
async function skipPositions(by: number): Promise<void> {
  await db.dataSource.query(
    process.env.ES_TEST_DB === 'postgres'
      ? `SELECT setval(pg_get_serial_sequence('es_events', 'position'), (SELECT max(position) FROM es_events) + ${by})`
      : `UPDATE sqlite_sequence SET seq = seq + ${by} WHERE name = 'es_events'`,
  );
}

describe('TypeORM partition reads', () => {
  it('scan window by window: a sparse filter finds events more than a window apart, and reaches the head', async () => {
    const start = await store.headPosition();
    const first = await append('Rare');
    await skipPositions(Math.round(1.5 * PARTITION_SCAN_WINDOW));
    await append('Common');
    await skipPositions(Math.round(1.5 * PARTITION_SCAN_WINDOW));
    const second = await append('Rare');
    const last = await append('Common');
    const whole = { index: 0, count: 1 };

    expect(second.position - first.position).toBeGreaterThan(3 * PARTITION_SCAN_WINDOW);
    expect(await store.readPartition({ afterPosition: start, partition: whole, types: ['Rare'] })).toEqual({ events: [first, second], scannedTo: last.position });
    expect(await store.readPartition({ afterPosition: first.position, partition: whole, types: ['Rare'], limit: 1 })).toEqual({
      events: [second],
      scannedTo: second.position,
    });
    expect(await store.readPartition({ afterPosition: second.position, partition: whole, types: ['Rare'] })).toEqual({ events: [], scannedTo: last.position });
  });
});
