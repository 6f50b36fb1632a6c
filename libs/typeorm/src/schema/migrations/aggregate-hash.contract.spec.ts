// Migration 8's aggregate hash on the database under test: the backfill of rows written before it and
// (PostgreSQL) the append of an older release, which sends no hash, store the hash the partitions
// compute in JavaScript, so an aggregate's events stay in one partition whoever wrote them.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { openTestDataSource, type TestDataSource } from '../../../../../test/support/test-database.js';
import { stringHashCode } from '@nest-es/core/internal';
import { TypeOrmEventStore } from '../../typeorm-event-store.js';
import { BACKFILL_CHUNK, EventSourcingAggregateHash1764547200008 } from './aggregate-hash.migration.js';

let db: TestDataSource;
let store: TypeOrmEventStore;

beforeAll(async () => {
  db = await openTestDataSource();
  store = await TypeOrmEventStore.create(db.dataSource);
});

afterAll(async () => {
  await db?.close();
});

// Beyond ASCII and beyond the BMP (surrogate pairs), and random ones; NUL is no valid PostgreSQL text.
const ids = [
  ...new Set([
    'a',
    'hello',
    'polygenelubricants',
    'Zürich-7',
    '東京-3',
    '😀',
    'a😀b𝄞c',
    randomUUID(),
    ...fc.sample(fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }), { numRuns: 200, seed: 7 }).filter((id) => !id.includes('\u0000')),
  ]),
];

const event = () => ({ type: 'Hashed', payload: {}, metadata: { eventId: randomUUID(), commandId: null, correlationId: 'hash', causationId: null } });

/** Each stored event's aggregate id and hash, of the aggregate type given. */
async function storedHashes(aggregateType: string): Promise<{ id: string; hash: number | null }[]> {
  const rows = (await db.dataSource.query(`SELECT aggregate_id AS id, aggregate_hash AS hash FROM es_events WHERE aggregate_type = '${aggregateType}'`)) as {
    id: string;
    hash: number | null;
  }[];
  return rows.map((row) => ({ id: row.id, hash: row.hash === null ? null : Number(row.hash) }));
}

const expected = (rows: { id: string }[]) => rows.map((row) => ({ id: row.id, hash: stringHashCode(row.id) }));

describe('Migration 8: the aggregate hash of each event', () => {
  it('is written by the append as JavaScript computes it', async () => {
    for (const aggregateId of ids) await store.append({ stream: { aggregateType: 'appended', aggregateId }, expectedSequence: 0, events: [event()] });
    const rows = await storedHashes('appended');
    expect(rows).toHaveLength(ids.length);
    expect(rows).toEqual(expected(rows));
  });

  it('is backfilled for the events stored before the migration, as JavaScript computes it, over several chunks', async () => {
    for (const aggregateId of ids) await store.append({ stream: { aggregateType: 'backfilled', aggregateId }, expectedSequence: 0, events: [event()] });
    // More than two chunks of positions, and a chunk boundary inside a stream.
    for (let i = 0; i * 1000 < 2 * BACKFILL_CHUNK + 500; i++) {
      await store.append({ stream: { aggregateType: 'backfilled', aggregateId: `bulk-${i}` }, expectedSequence: 0, events: Array.from({ length: 1000 }, event) });
    }
    const migration = new EventSourcingAggregateHash1764547200008();
    const runner = db.dataSource.createQueryRunner();
    try {
      await migration.down(runner);
      await migration.up(runner);
    } finally {
      await runner.release();
    }
    const rows = await storedHashes('backfilled');
    expect(rows).toHaveLength(ids.length + 21_000);
    expect(rows).toEqual(expected(rows));
  });

  if (process.env.ES_TEST_DB === 'postgres') {
    it('is computed by es_append for a caller of an older release, which sends none', async () => {
      const rows = ids.map((aggregateId) => ({
        aggregate_type: 'older',
        aggregate_id: aggregateId,
        sequence: 1,
        event_type: 'Hashed',
        schema_version: 1,
        payload: {},
        metadata: null,
        occurred_at: new Date().toISOString(),
        event_id: randomUUID(),
        command_id: null,
        correlation_id: 'hash',
        causation_id: null,
        external_id: null,
      }));
      await db.dataSource.query('SELECT * FROM es_append($1, $2, $3, $4, $5, $6, $7, $8, $9)', [
        ids.map(() => 'older'),
        ids,
        ids.map(() => 0),
        [],
        [],
        [],
        JSON.stringify(rows),
        '[]',
        null,
      ]);
      const stored = await storedHashes('older');
      expect(stored).toHaveLength(ids.length);
      expect(stored).toEqual(expected(stored));
    });
  }
});
