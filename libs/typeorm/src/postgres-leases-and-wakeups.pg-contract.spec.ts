// PostgreSQL only: the adapter's optional ports, held to the core's contract suites. Each "instance"
// is its own leases or channel with its own connection, as in separate processes.
import { describePartitionLeasesContract, describeWakeChannelContract } from '@nest-es/core/testing';
import { openTestDataSource, type TestDataSource } from '../../../test/support/test-database.js';
import { PostgresPartitionLeases } from './postgres-partition-leases.js';
import type { PostgresSqlClient } from './postgres-sql-client.js';
import { PostgresWakeChannel } from './postgres-wake-channel.js';
import { sqlClientFor } from './sql-client-for.js';
import { TypeOrmEventStore } from './typeorm-event-store.js';

if (process.env.ES_TEST_DB !== 'postgres') {
  throw new Error(`postgres-leases-and-wakeups.pg-contract.spec.ts needs ES_TEST_DB=postgres (the postgres jest project), got ${process.env.ES_TEST_DB}`);
}

let db: TestDataSource;
let sql: PostgresSqlClient;
let events: TypeOrmEventStore;

beforeAll(async () => {
  db = await openTestDataSource();
  events = await TypeOrmEventStore.create(db.dataSource);
  sql = sqlClientFor(db.dataSource) as PostgresSqlClient;
});

afterAll(async () => {
  await db?.close();
});

function leases() {
  const store = new PostgresPartitionLeases(sql);
  return { store, close: () => store.leave(), second: async () => leases() };
}

function channel() {
  const store = new PostgresWakeChannel(sql, events);
  return { store, close: () => store.close(), second: async () => channel() };
}

describePartitionLeasesContract('postgres', async () => leases(), { twoProcesses: true });
describeWakeChannelContract('postgres', async () => channel());
