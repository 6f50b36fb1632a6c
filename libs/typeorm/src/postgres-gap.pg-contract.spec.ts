// PostgreSQL only: readers never skip an event that a concurrent transaction commits late, and the
// unique indexes guard writers that do not take the append lock. A transaction held open mid-append
// is driven through a raw pg client with the store's own lock statement.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { openTestDataSource, type TestDataSource } from '../../../test/support/test-database.js';
import type { StoredEvent, StreamId } from '@nest-es/core';
import { sliceOfHash, stringHashCode } from '@nest-es/core/internal';
import { type Partition } from '@nest-es/core/adapter';
import type { CapableEventStore } from '@nest-es/core/internal';
import { ConcurrencyError, DuplicateCommandError } from '@nest-es/core/adapter';
import { APPEND_LOCK_SQL } from './postgres-append-lock.js';
import { ensureSchema } from './schema/migrate.js';
import { eventSourcingMigrations } from './schema/event-sourcing-migrations.js';
import { createDataSource } from './store-options.js';
import { TypeOrmEventStore } from './typeorm-event-store.js';

if (process.env.ES_TEST_DB !== 'postgres') {
  throw new Error(`postgres-gap.pg-contract.spec.ts needs ES_TEST_DB=postgres (the postgres jest project), got ${process.env.ES_TEST_DB}`);
}

let db: TestDataSource;
let store: CapableEventStore;
let url: string;
let schema: string;

beforeAll(async () => {
  db = await openTestDataSource();
  store = await TypeOrmEventStore.create(db.dataSource);
  ({ url, schema } = db.options as { url: string; schema: string });
});

afterAll(async () => {
  await db?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const newStream = (): StreamId => ({ aggregateType: 'gap', aggregateId: randomUUID() });
const newEvent = (n: number) => ({
  type: 'Ticked',
  payload: { n },
  metadata: { eventId: randomUUID(), commandId: null, correlationId: 'gap', causationId: null },
});

/** Another process's connection to the test schema. */
async function rawClient(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, options: `-c search_path=${schema}` });
  await client.connect();
  return client;
}

/** A new stream whose aggregate id is in the partition. */
function streamIn({ index, count }: Partition): StreamId {
  for (;;) {
    const stream = newStream();
    if (sliceOfHash(stringHashCode(stream.aggregateId), count) === index) return stream;
  }
}

/** Inserts an event at sequence 1 of a stream in the client's open transaction; its position. */
async function insertRaw(client: pg.Client, stream: StreamId): Promise<number> {
  const { rows } = await client.query<{ position: string }>(
    `INSERT INTO es_events (aggregate_type, aggregate_id, aggregate_hash, sequence, event_type, payload, occurred_at, event_id, correlation_id)
     VALUES ($1, $2, $3, 1, 'Late', '{}', now(), $4, 'gap') RETURNING position`,
    [stream.aggregateType, stream.aggregateId, stringHashCode(stream.aggregateId), randomUUID()],
  );
  return Number(rows[0].position);
}

/** One read of a subscriber: the events after its checkpoint, and where its checkpoint moves to. */
type Read = (afterPosition: number) => Promise<{ events: StoredEvent[]; to: number }>;

const readWholeLog: Read = async (afterPosition) => {
  const events = await store.readAll({ afterPosition });
  return { events, to: events.length === 0 ? afterPosition : events[events.length - 1].position };
};

/** A partition's read: its checkpoint moves to where the read scanned, past the other partitions' events. */
const readPartition =
  (partition: Partition): Read =>
  async (afterPosition) => {
    const { events, scannedTo } = await store.readPartition({ afterPosition, partition });
    return { events, to: scannedTo };
  };

/** A subscriber: polls its read from its checkpoint and moves the checkpoint as the read says. */
function startReader(from: number, read: Read = readWholeLog) {
  const seen: StoredEvent[] = [];
  let stopped = false;
  let checkpoint = from;
  const done = (async () => {
    while (!stopped) {
      const { events, to } = await read(checkpoint);
      seen.push(...events);
      checkpoint = to;
      await sleep(5);
    }
  })();
  return {
    seen,
    get checkpoint() {
      return checkpoint;
    },
    async stop(whenSeen: number) {
      for (let waited = 0; seen.length < whenSeen && waited < 5000; waited += 10) await sleep(10);
      stopped = true;
      await done;
    },
  };
}

/** Whether the promise is still pending after `ms`. */
async function pendingAfter(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await sleep(ms);
  return !settled;
}

describe('PostgreSQL event store: the global-position gap', () => {
  it('never lets a reader skip an event committed late with a smaller position', async () => {
    const reader = startReader(await store.headPosition());
    const late = await rawClient();
    try {
      await late.query('BEGIN');
      await late.query(APPEND_LOCK_SQL);
      const latePosition = await insertRaw(late, newStream());

      const appended = store.append({ stream: newStream(), expectedSequence: 0, events: [newEvent(1)] });
      // The later append cannot take a position, let alone commit, while the earlier transaction is open.
      expect(await pendingAfter(appended, 300)).toBe(true);
      expect(reader.seen).toEqual([]);

      await late.query('COMMIT');
      const { events } = await appended;
      expect(events[0].position).toBeGreaterThan(latePosition);
      await reader.stop(2);
      expect(reader.seen.map((e) => e.position)).toEqual([latePosition, events[0].position]);
    } finally {
      await reader.stop(0);
      await late.end();
    }
  });

  it('would skip it without the lock (the hazard the lock removes)', async () => {
    const reader = startReader(await store.headPosition());
    const late = await rawClient();
    try {
      await late.query('BEGIN');
      const latePosition = await insertRaw(late, newStream());
      const { events } = await store.append({ stream: newStream(), expectedSequence: 0, events: [newEvent(1)] });
      expect(events[0].position).toBeGreaterThan(latePosition);
      for (let waited = 0; reader.seen.length === 0 && waited < 5000; waited += 10) await sleep(10);
      await late.query('COMMIT');
      await sleep(100);
      await reader.stop(0);
      expect(reader.seen.map((e) => e.position)).toEqual([events[0].position]);
    } finally {
      await reader.stop(0);
      await late.end();
    }
  });

  it('never lets a partition reader move past an event of its partition committed late with a smaller position', async () => {
    const ours = { index: 0, count: 2 };
    const reader = startReader(await store.headPosition(), readPartition(ours));
    const late = await rawClient();
    try {
      await late.query('BEGIN');
      await late.query(APPEND_LOCK_SQL);
      const latePosition = await insertRaw(late, streamIn(ours));

      const appended = store.append({ stream: streamIn({ index: 1, count: 2 }), expectedSequence: 0, events: [newEvent(1)] });
      expect(await pendingAfter(appended, 300)).toBe(true);

      await late.query('COMMIT');
      const { events } = await appended;
      for (let waited = 0; reader.checkpoint < events[0].position && waited < 5000; waited += 10) await sleep(10);
      await reader.stop(1);
      expect(reader.seen.map((e) => e.position)).toEqual([latePosition]);
      expect(reader.checkpoint).toBe(events[0].position);
    } finally {
      await reader.stop(0);
      await late.end();
    }
  });

  it('would let a partition reader scan past it without the lock (the hazard the lock removes)', async () => {
    const ours = { index: 0, count: 2 };
    const reader = startReader(await store.headPosition(), readPartition(ours));
    const late = await rawClient();
    try {
      await late.query('BEGIN');
      const latePosition = await insertRaw(late, streamIn(ours));
      const { events } = await store.append({ stream: streamIn({ index: 1, count: 2 }), expectedSequence: 0, events: [newEvent(1)] });
      expect(events[0].position).toBeGreaterThan(latePosition);
      for (let waited = 0; reader.checkpoint < events[0].position && waited < 5000; waited += 10) await sleep(10);
      await late.query('COMMIT');
      await sleep(100);
      await reader.stop(0);
      expect(reader.seen).toEqual([]);
    } finally {
      await reader.stop(0);
      await late.end();
    }
  });

  it('delivers every event in position order to a reader while appends and slow transactions interleave', async () => {
    const reader = startReader(await store.headPosition());
    const slowWriters = await Promise.all([rawClient(), rawClient(), rawClient()]);
    try {
      const slow = slowWriters.map(async (client, k) => {
        const positions: number[] = [];
        for (let round = 0; round < 3; round++) {
          await client.query('BEGIN');
          await client.query(APPEND_LOCK_SQL);
          positions.push(await insertRaw(client, newStream()));
          await sleep(20 + 15 * k);
          await client.query('COMMIT');
        }
        return positions;
      });
      const fast = Array.from({ length: 120 }, async (_, i) => {
        await sleep(i % 40);
        const { events } = await store.append({ stream: newStream(), expectedSequence: 0, events: [newEvent(i), newEvent(i + 1)] });
        return events.map((e) => e.position);
      });
      const written = (await Promise.all([...slow, ...fast])).flat().sort((a, b) => a - b);

      await reader.stop(written.length);
      expect(reader.seen.map((e) => e.position)).toEqual(written);
    } finally {
      await reader.stop(0);
      await Promise.all(slowWriters.map((client) => client.end()));
    }
  });
});

describe('PostgreSQL event store: writers that bypass the append lock', () => {
  it('turns a unique-index violation on the sequence into ConcurrencyError with the actual sequence', async () => {
    const stream = newStream();
    const other = await rawClient();
    try {
      await other.query('BEGIN');
      await insertRaw(other, stream);
      const appended = store.append({ stream, expectedSequence: 0, events: [newEvent(1)] });
      // The store's insert waits on the index entry of the uncommitted row.
      expect(await pendingAfter(appended, 200)).toBe(true);
      await other.query('COMMIT');

      const error = await appended.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConcurrencyError);
      expect(error).toMatchObject({ stream, expectedSequence: 0, actualSequence: 1 });
      expect((await store.readStream(stream)).map((e) => e.type)).toEqual(['Late']);
    } finally {
      await other.end();
    }
  });

  it('turns a primary-key violation on the command id into DuplicateCommandError', async () => {
    const stream = newStream();
    const other = await rawClient();
    try {
      await other.query('BEGIN');
      await other.query(
        `INSERT INTO es_commands (aggregate_type, aggregate_id, command_id, sequence_before, sequence_after, created_at)
         VALUES ($1, $2, 'raced', 0, 0, now())`,
        [stream.aggregateType, stream.aggregateId],
      );
      const appended = store.append({ stream, expectedSequence: 0, events: [newEvent(1)], commandId: 'raced' });
      const bystander = store.append({ stream: newStream(), expectedSequence: 0, events: [newEvent(2)] });
      expect(await pendingAfter(appended, 200)).toBe(true);
      await other.query('COMMIT');

      await expect(appended).rejects.toBeInstanceOf(DuplicateCommandError);
      await expect(bystander).resolves.toMatchObject({ sequence: 1 });
      expect(await store.streamSequence(stream)).toBe(0);
    } finally {
      await other.end();
    }
  });
});

describe('PostgreSQL schema migration', () => {
  it('lets two processes boot on a fresh schema at once', async () => {
    const fresh = `es_test_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
    const sources = [createDataSource({ type: 'postgres', url, schema: fresh }), createDataSource({ type: 'postgres', url, schema: fresh })];
    try {
      await Promise.all(sources.map((source) => source.initialize()));
      await Promise.all(sources.map((source) => ensureSchema(source)));
      const rows = (await sources[0].query('SELECT version FROM es_schema_migrations ORDER BY version')) as { version: number }[];
      expect(rows.map((row) => row.version)).toEqual(eventSourcingMigrations.map((Migration) => new Migration().version));
      const [{ count }] = (await sources[1].query('SELECT count(*)::int AS count FROM es_events')) as { count: number }[];
      expect(count).toBe(0);
    } finally {
      await sources[0].query(`DROP SCHEMA IF EXISTS ${fresh} CASCADE`).catch(() => undefined);
      await Promise.all(sources.filter((source) => source.isInitialized).map((source) => source.destroy()));
    }
  });

  it('refuses a DataSource whose connections do not resolve tables in its schema', async () => {
    const fresh = `es_test_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
    const source = new DataSource({ type: 'postgres', url, schema: fresh });
    await source.initialize();
    try {
      await expect(ensureSchema(source)).rejects.toThrow(/search_path/);
    } finally {
      await source.query(`DROP SCHEMA IF EXISTS ${fresh} CASCADE`);
      await source.destroy();
    }
  });
});
