// The store contracts on the TypeORM adapter, on SQLite or PostgreSQL (ES_TEST_DB, set by the jest project).
import type { DataSource } from 'typeorm';
import {
  describeCheckpointStoreContract,
  describeDeadLetterStoreContract,
  describeEventStoreContract,
  describeCheckpointCommitContract,
  describeSnapshotStoreContract,
  describeStreamLoadsContract,
  describeTimerStoreContract,
} from '@nest-es/core/testing';
import { TypeOrmDeadLetterStore } from './typeorm-dead-letter-store.js';
import { openTestDataSource, type TestDataSource } from '../../../test/support/test-database.js';
import { ensureSchema } from './schema/migrate.js';
import { createDataSource } from './store-options.js';
import { TypeOrmCheckpointStore } from './typeorm-checkpoint-store.js';
import { TypeOrmEventStore } from './typeorm-event-store.js';
import { TypeOrmSnapshotStore } from './typeorm-snapshot-store.js';
import { TypeOrmTimerStore } from './typeorm-timer-store.js';

const kind = process.env.ES_TEST_DB ?? 'sqlite';

describeEventStoreContract(
  `TypeORM, ${kind}`,
  async () => {
    const db = await openTestDataSource();
    return {
      store: await TypeOrmEventStore.create(db.dataSource),
      close: () => db.close(),
      second: async () => {
        const other = createDataSource(db.options);
        await other.initialize();
        return { store: await TypeOrmEventStore.create(other), close: () => other.destroy() };
      },
    };
  },
  { twoProcesses: true },
);

let corrupting: ((sql: string) => Promise<void>) | undefined;
describeSnapshotStoreContract(
  `TypeORM, ${kind}`,
  async () => {
    const db = await openTestDataSource();
    corrupting = async (sql) => {
      await db.dataSource.query(sql);
    };
    return { store: await TypeOrmSnapshotStore.create(db.dataSource), close: () => db.close() };
  },
  { corrupt: (stream) => corrupting!(`UPDATE es_snapshots SET state = '{"seats": 4' WHERE aggregate_id = '${stream.aggregateId}'`) },
);

// The event store's one-read loads, against the snapshots the snapshot store keeps in the same database.
let corruptingLoads: ((sql: string) => Promise<void>) | undefined;
describeStreamLoadsContract(
  `TypeORM, ${kind}`,
  async () => {
    const db = await openTestDataSource();
    corruptingLoads = async (sql) => {
      await db.dataSource.query(sql);
    };
    const events = await TypeOrmEventStore.create(db.dataSource);
    return { store: { events, snapshots: new TypeOrmSnapshotStore(db.dataSource) }, close: () => db.close() };
  },
  { corrupt: (stream) => corruptingLoads!(`UPDATE es_snapshots SET state = '{"seats": 4' WHERE aggregate_id = '${stream.aggregateId}'`) },
);

describeTimerStoreContract(`TypeORM, ${kind}`, async () => {
  const db = await openTestDataSource();
  await TypeOrmEventStore.create(db.dataSource);
  return { store: new TypeOrmTimerStore(db.dataSource), close: () => db.close() };
});

describeDeadLetterStoreContract(`TypeORM, ${kind}`, async () => {
  const db = await openTestDataSource();
  await TypeOrmEventStore.create(db.dataSource);
  return { store: new TypeOrmDeadLetterStore(db.dataSource), close: () => db.close() };
});

/** Another DataSource on the test database, as a second process would open it. */
async function secondDataSource(db: TestDataSource): Promise<DataSource> {
  const other = createDataSource(db.options);
  await other.initialize();
  return other;
}

describeCheckpointStoreContract(
  `TypeORM, ${kind}`,
  async () => {
    const db = await openTestDataSource();
    await ensureSchema(db.dataSource);
    return {
      store: new TypeOrmCheckpointStore(db.dataSource),
      close: () => db.close(),
      second: async () => {
        const other = await secondDataSource(db);
        return { store: new TypeOrmCheckpointStore(other), close: () => other.destroy() };
      },
    };
  },
  { twoProcesses: true },
);

describeCheckpointCommitContract(
  `TypeORM, ${kind}`,
  async () => {
    const db = await openTestDataSource();
    await ensureSchema(db.dataSource);
    return {
      store: new TypeOrmCheckpointStore(db.dataSource),
      close: () => db.close(),
      second: async () => {
        const other = await secondDataSource(db);
        return { store: new TypeOrmCheckpointStore(other), close: () => other.destroy() };
      },
    };
  },
  // Two SQLite connections in one process cannot race: better-sqlite3 waits for a file lock synchronously,
  // so the waiting one blocks the event loop that would commit the other, until its busy timeout fails it.
  { twoProcesses: kind === 'postgres' },
);
