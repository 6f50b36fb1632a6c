// PostgreSQL only: a group-commit batch is one statement (one round trip), and a batch planned on a
// state that no longer holds is planned again on the state the statement returns, not split apart
// by the unique indexes. Round trips are counted on the connections the store takes from its DataSource.
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { DataSource } from 'typeorm';
import { openTestDataSource, type TestDataSource } from '../../../test/support/test-database.js';
import type { StreamId } from '@nest-es/core';
import type { AppendRequest } from '@nest-es/core/adapter';
import type { EventStore } from '@nest-es/core';
import { ConcurrencyError, DuplicateCommandError } from '@nest-es/core/adapter';
import { stringHashCode } from '@nest-es/core/internal';
import type { PostgresSqlClient } from './postgres-sql-client.js';
import { sqlClientFor } from './sql-client-for.js';
import { ONE_EVENT_APPEND_SQL } from './postgres-one-event-append.js';
import { APPEND_LOCK_KEY, APPEND_LOCK_SQL } from './postgres-append-lock.js';
import { TypeOrmEventStore } from './typeorm-event-store.js';

if (process.env.ES_TEST_DB !== 'postgres') {
  throw new Error(`postgres-append.pg-contract.spec.ts needs ES_TEST_DB=postgres (the postgres jest project), got ${process.env.ES_TEST_DB}`);
}

let db: TestDataSource;
let store: EventStore;
let sql: PostgresSqlClient;
/** Statements sent on the DataSource's connections while counting; undefined while not. */
let statements: number | undefined;
/** Their texts, while counting. */
const texts: string[] = [];

/** The stores take their connections through query runners: each connection they get counts its statements. */
function countStatements(dataSource: DataSource): void {
  const counted = new WeakSet<pg.PoolClient>();
  const createQueryRunner = dataSource.createQueryRunner.bind(dataSource);
  dataSource.createQueryRunner = (mode) => {
    const runner = createQueryRunner(mode);
    const connect = runner.connect.bind(runner);
    runner.connect = async () => {
      const client = (await connect()) as pg.PoolClient;
      if (!counted.has(client)) {
        counted.add(client);
        const query = client.query.bind(client) as (...args: unknown[]) => unknown;
        client.query = ((...args: unknown[]) => {
          if (statements !== undefined) {
            statements++;
            texts.push(typeof args[0] === 'string' ? args[0] : (args[0] as pg.QueryConfig).text);
          }
          return query(...args);
        }) as typeof client.query;
      }
      return client;
    };
    return runner;
  };
}

beforeAll(async () => {
  db = await openTestDataSource();
  countStatements(db.dataSource);
  store = await TypeOrmEventStore.create(db.dataSource);
  sql = sqlClientFor(db.dataSource) as PostgresSqlClient;
});

afterAll(async () => {
  await db?.close();
});

const newStream = (): StreamId => ({ aggregateType: 'batch', aggregateId: randomUUID() });
const request = (stream: StreamId, expectedSequence: number, commandId?: string): AppendRequest => ({
  stream,
  expectedSequence,
  commandId,
  events: [{ type: 'Ticked', payload: { expectedSequence }, metadata: { eventId: randomUUID(), commandId: commandId ?? null, correlationId: 'batch', causationId: null } }],
});

/** Appends the requests in one turn of the event loop (one batch); the statements sent for them. */
async function appendTogether(requests: AppendRequest[]) {
  statements = 0;
  texts.length = 0;
  try {
    const outcomes = await Promise.allSettled(requests.map((r) => store.append(r)));
    return { outcomes, statements, texts: [...texts] };
  } finally {
    statements = undefined;
  }
}

describe('PostgreSQL appends: one statement per batch', () => {
  it('commits a batch of fresh appends, with command ids and chained appends to one stream, in one statement', async () => {
    const streams = Array.from({ length: 20 }, newStream);
    const requests = [...streams.map((stream) => request(stream, 0, randomUUID())), request(streams[0], 1), request(streams[0], 2, randomUUID())];
    const { outcomes, statements } = await appendTogether(requests);
    expect(outcomes.every((o) => o.status === 'fulfilled')).toBe(true);
    expect(statements).toBe(1);
    expect((await store.readStream(streams[0])).map((e) => e.sequence)).toEqual([1, 2, 3]);
  });

  it('plans a batch again on the state it finds (a stale expectation, a recorded command id): two statements, only those refused', async () => {
    const moved = newStream();
    const repeated = { stream: newStream(), commandId: randomUUID() };
    await store.append(request(moved, 0));
    await store.append(request(repeated.stream, 0, repeated.commandId));
    const fresh = Array.from({ length: 5 }, newStream);
    const { outcomes, statements } = await appendTogether([
      ...fresh.map((stream) => request(stream, 0, randomUUID())),
      request(moved, 0),
      request(repeated.stream, 1, repeated.commandId),
    ]);
    // Split by the unique indexes instead, the batch of 7 would take a bisection's many statements.
    expect(statements).toBe(2);
    expect(outcomes.slice(0, 5).every((o) => o.status === 'fulfilled')).toBe(true);
    const [stale, duplicate] = outcomes.slice(5).map((o) => (o.status === 'rejected' ? o.reason : o.value));
    expect(stale).toBeInstanceOf(ConcurrencyError);
    expect(stale).toMatchObject({ expectedSequence: 0, actualSequence: 1 });
    expect(duplicate).toBeInstanceOf(DuplicateCommandError);
    expect(await store.streamSequence(moved)).toBe(1);
    expect(await store.streamSequence(repeated.stream)).toBe(1);
    for (const stream of fresh) expect(await store.streamSequence(stream)).toBe(1);
  });

  it('decides an append that expects a stream ahead of where it is, without writing', async () => {
    const stream = newStream();
    const { outcomes, statements } = await appendTogether([request(stream, 3), request(newStream(), 0)]);
    expect(statements).toBe(2);
    expect(outcomes[0]).toMatchObject({ status: 'rejected', reason: expect.any(ConcurrencyError) });
    expect(outcomes[1].status).toBe('fulfilled');
    expect(await store.streamSequence(stream)).toBe(0);
  });
});

describe('PostgreSQL appends: a lone append', () => {
  it('goes through es_append_stream in one statement: its events, their positions and its command record', async () => {
    const stream = newStream();
    await store.append(request(stream, 0));
    const commandId = randomUUID();
    const two: AppendRequest = { ...request(stream, 1, commandId), commandFingerprint: 'f-1' };
    two.events = [...two.events, { ...two.events[0], metadata: { ...two.events[0].metadata, eventId: randomUUID() } }];
    const { outcomes, texts } = await appendTogether([two]);
    expect(texts).toEqual([expect.stringContaining('es_append_stream(')]);
    expect(outcomes[0]).toMatchObject({ status: 'fulfilled', value: { sequence: 3 } });
    const stored = await store.readStream(stream);
    expect(stored.map((e) => e.sequence)).toEqual([1, 2, 3]);
    expect(stored[1].position).toBeLessThan(stored[2].position);
    const { rows } = await sql.query<{ sequence_before: number; sequence_after: number; fingerprint: string; aggregate_hash: number }>({
      text: `SELECT c.sequence_before, c.sequence_after, c.fingerprint,
               (SELECT e.aggregate_hash FROM es_events e WHERE e.aggregate_type = c.aggregate_type AND e.aggregate_id = c.aggregate_id AND e.sequence = 3) AS aggregate_hash
             FROM es_commands c WHERE c.command_id = $1`,
      values: [commandId],
    });
    expect(rows).toEqual([{ sequence_before: 1, sequence_after: 3, fingerprint: 'f-1', aggregate_hash: stringHashCode(stream.aggregateId) }]);
  });

  it('of one event with no command id goes as one plain statement, its columns and position stored as es_append_stream stores them', async () => {
    const stream = newStream();
    await store.append(request(stream, 0));
    const one = request(stream, 1);
    one.events[0] = {
      ...one.events[0],
      payload: { text: 'quote " and \\ backslash', nested: [1, { deep: null }] },
      metadata: { ...one.events[0].metadata, causationId: 'cause', externalId: 'ext-1', tenant: 't-1' },
    };
    const { outcomes, texts } = await appendTogether([one]);
    expect(texts).toEqual([ONE_EVENT_APPEND_SQL]);
    expect(outcomes[0]).toMatchObject({ status: 'fulfilled', value: { sequence: 2 } });
    const stored = await store.readStream(stream);
    expect(stored[1]).toMatchObject({ sequence: 2, type: 'Ticked', schemaVersion: 1, payload: one.events[0].payload, metadata: one.events[0].metadata });
    expect(stored[1].position).toBeGreaterThan(stored[0].position);
    const { rows } = await sql.query<{ aggregate_hash: number }>({
      text: 'SELECT aggregate_hash FROM es_events WHERE event_id = $1',
      values: [one.events[0].metadata.eventId],
    });
    expect(rows).toEqual([{ aggregate_hash: stringHashCode(stream.aggregateId) }]);
  });

  it('refuses a stale expectation and a recorded command id in one statement each, writing nothing', async () => {
    const stream = newStream();
    const commandId = randomUUID();
    await store.append(request(stream, 0, commandId));
    const stale = await appendTogether([request(stream, 0)]);
    expect(stale.texts).toHaveLength(1);
    expect(stale.outcomes[0]).toMatchObject({ status: 'rejected', reason: { expectedSequence: 0, actualSequence: 1 } });
    expect((stale.outcomes[0] as PromiseRejectedResult).reason).toBeInstanceOf(ConcurrencyError);
    const repeated = await appendTogether([request(stream, 1, commandId)]);
    expect(repeated.texts).toHaveLength(1);
    expect((repeated.outcomes[0] as PromiseRejectedResult).reason).toBeInstanceOf(DuplicateCommandError);
    expect(await store.streamSequence(stream)).toBe(1);
  });
});

/**
 * Runs `append` while another writer holds the append lock (as a concurrent es_append does): once the
 * append waits for the lock, so its statement's snapshot is taken, the holder runs `write` and commits.
 */
async function appendWhileLockHeld<T>(append: () => Promise<T>, write: (client: pg.Client) => Promise<unknown>): Promise<PromiseSettledResult<T>> {
  const holder = sql.dedicatedConnection();
  await holder.connect();
  try {
    await holder.query('BEGIN');
    await holder.query(APPEND_LOCK_SQL);
    let settled = false;
    const appended = Promise.allSettled([append()]).finally(() => (settled = true));
    // An append that does not wait for the lock settles first: the holder's write then decides the test.
    await untilWaitingForAppendLock(() => settled);
    await write(holder);
    await holder.query('COMMIT');
    return (await appended)[0];
  } finally {
    await holder.end();
  }
}

/**
 * Resolves once a statement waits for this schema's append lock, or once `settled()` says the append
 * ended. The lock is told apart by its key (an advisory lock on a bigint shows its high and low halves
 * as classid and objid): suites that run beside this one wait for their own schemas' locks.
 */
async function untilWaitingForAppendLock(settled: () => boolean): Promise<void> {
  while (!settled()) {
    const { rows } = await sql.query<{ waiting: number }>({
      text: `SELECT count(*)::int AS waiting
        FROM pg_locks l, (SELECT ${APPEND_LOCK_KEY} AS key) k
        WHERE l.locktype = 'advisory' AND NOT l.granted AND l.objsubid = 1
          AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
          AND l.classid = ((k.key >> 32) & 4294967295)::oid AND l.objid = (k.key & 4294967295)::oid`,
    });
    if (rows[0].waiting > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const insertEvent = (client: pg.Client, stream: StreamId) =>
  client.query<{ position: string }>(
    `INSERT INTO es_events (aggregate_type, aggregate_id, sequence, event_type, schema_version, payload, occurred_at, event_id, correlation_id)
     VALUES ($1, $2, 1, 'Ticked', 1, '{}', now(), $3, 'other') RETURNING position`,
    [stream.aggregateType, stream.aggregateId, randomUUID()],
  );

describe('PostgreSQL appends: a lone append racing another writer', () => {
  // The one-event statement reads the stream's state from its snapshot, taken before it waits for the
  // append lock: what the lock's holder commits meanwhile is caught by the unique keys instead.
  // es_append_stream (a command id to record) reads after the lock.
  it('is refused with the stream as it now is when the holder wrote the same sequence, and writes nothing', async () => {
    const stream = newStream();
    const outcome = await appendWhileLockHeld(() => store.append(request(stream, 0)), (client) => insertEvent(client, stream));
    expect(outcome).toMatchObject({ status: 'rejected', reason: { expectedSequence: 0, actualSequence: 1 } });
    expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(ConcurrencyError);
    expect((await store.readStream(stream)).map((e) => e.metadata.correlationId)).toEqual(['other']);
  });

  it('is refused as a duplicate when the holder recorded the same command id, and writes nothing', async () => {
    const stream = newStream();
    const commandId = randomUUID();
    const outcome = await appendWhileLockHeld(
      () => store.append(request(stream, 0, commandId)),
      (client) =>
        client.query(
          `INSERT INTO es_commands (aggregate_type, aggregate_id, command_id, sequence_before, sequence_after, created_at)
           VALUES ($1, $2, $3, 0, 0, now())`,
          [stream.aggregateType, stream.aggregateId, commandId],
        ),
    );
    expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(DuplicateCommandError);
    expect(await store.streamSequence(stream)).toBe(0);
  });

  it('takes its positions only once it holds the lock, so they follow commit order', async () => {
    const stream = newStream();
    let held = 0;
    const outcome = await appendWhileLockHeld(
      () => store.append(request(stream, 0)),
      async (client) => {
        held = Number((await insertEvent(client, newStream())).rows[0].position);
      },
    );
    expect(outcome.status).toBe('fulfilled');
    const [event] = await store.readStream(stream);
    expect(event.position).toBeGreaterThan(held);
  });
});

describe('PostgreSQL appends: the wake-up of a lone append', () => {
  it('is sent once per append that wrote events, of one event or more, with the payload announced, and not for one refused', async () => {
    const announcing = await TypeOrmEventStore.create(db.dataSource);
    announcing.announceAppends('from-this-instance');
    const listener = sql.dedicatedConnection();
    await listener.connect();
    const heard: string[] = [];
    listener.on('notification', (message) => heard.push(message.payload ?? ''));
    try {
      const { rows } = await listener.query<{ channel: string }>(`SELECT 'es_wake_' || current_schema() AS channel`);
      await listener.query(`LISTEN ${listener.escapeIdentifier(rows[0].channel)}`);
      const stream = newStream();
      const two = request(stream, 0);
      two.events = [...two.events, { ...two.events[0], metadata: { ...two.events[0].metadata, eventId: randomUUID() } }];
      await announcing.append(two);
      await announcing.append(request(stream, 2));
      await expect(announcing.append(request(stream, 0))).rejects.toBeInstanceOf(ConcurrencyError);
      // A round trip on the listener's own connection: notifications sent before it have arrived.
      await listener.query('SELECT 1');
      expect(heard).toEqual(['from-this-instance', 'from-this-instance']);
    } finally {
      await listener.end();
    }
  });
});

describe('PostgreSQL appends: planned once per connection', () => {
  // Left to choose, PostgreSQL planned es_append's array-fed statements anew on every append, which
  // cost more server time than the inserts. Every version of the function must keep the setting (a
  // CREATE OR REPLACE drops it unless repeated).
  it('runs every es_append with generic plans', async () => {
    const { rows } = await sql.query<{ args: string; config: string[] | null }>({
      text: `SELECT pg_get_function_identity_arguments(oid) AS args, proconfig AS config FROM pg_proc
       WHERE proname IN ('es_append', 'es_append_stream') AND pronamespace = current_schema()::regnamespace`,
    });
    expect(rows.length).toBeGreaterThanOrEqual(3);
    for (const { args, config } of rows) expect({ args, config }).toEqual({ args, config: ['plan_cache_mode=force_generic_plan'] });
  });
});
