// PostgreSQL only: the instances' slots and the units' leases as advisory locks. Each "instance" here
// is its own PostgresPartitionLeases, with its own lease connection, as in separate processes.
import { TypeOrmEventStore } from './typeorm-event-store.js';
import { openTestDataSource, type TestDataSource } from '../../../test/support/test-database.js';
import { MEMBER_CLASS, PostgresPartitionLeases } from './postgres-partition-leases.js';
import type { PostgresSqlClient } from './postgres-sql-client.js';
import { sqlClientFor } from './sql-client-for.js';

if (process.env.ES_TEST_DB !== 'postgres') {
  throw new Error(`postgres-partition-leases.pg-contract.spec.ts needs ES_TEST_DB=postgres (the postgres jest project), got ${process.env.ES_TEST_DB}`);
}

let db: TestDataSource;
let sql: PostgresSqlClient;
const opened: PostgresPartitionLeases[] = [];

beforeAll(async () => {
  db = await openTestDataSource();
  // The schema the leases are scoped to.
  await TypeOrmEventStore.create(db.dataSource);
  sql = sqlClientFor(db.dataSource) as PostgresSqlClient;
});

afterEach(async () => {
  await Promise.all(opened.splice(0).map((leases) => leases.leave()));
});

afterAll(async () => {
  await db?.close();
});

const noop = () => undefined;

function instance(): PostgresPartitionLeases {
  const leases = new PostgresPartitionLeases(sql);
  opened.push(leases);
  return leases;
}

describe('PostgresPartitionLeases', () => {
  it('takes one slot per instance when its users join at the same time (the processor and the publisher)', async () => {
    const leases = instance();
    await Promise.all([leases.join(noop), leases.join(() => undefined), leases.join(noop)]);
    const { self, live } = await leases.members();
    expect(live).toEqual([self]);
  });

  it('gives each instance its own slot, and both see the same members', async () => {
    const a = instance();
    const b = instance();
    await a.join(noop);
    await b.join(noop);
    const [ofA, ofB] = await Promise.all([a.members(), b.members()]);
    expect(ofA.live).toEqual(ofB.live);
    expect(ofA.live).toHaveLength(2);
    expect(ofA.self).not.toBe(ofB.self);
  });

  it('grants a unit to one instance at a time, and frees it when its holder releases it or leaves', async () => {
    const a = instance();
    const b = instance();
    await a.join(noop);
    await b.join(noop);
    expect(await a.tryAcquire('unit-1')).toBe(true);
    expect(await a.tryAcquire('unit-1')).toBe(true);
    expect(await b.tryAcquire('unit-1')).toBe(false);
    await a.release('unit-1');
    expect(await b.tryAcquire('unit-1')).toBe(true);
    expect(await a.tryAcquire('unit-2')).toBe(true);
    await a.leave();
    expect(await b.tryAcquire('unit-2')).toBe(true);
    expect((await b.members()).live).toHaveLength(1);
  });

  it('leaves no member behind when it leaves while still joining', async () => {
    const a = instance();
    const joining = a.join(noop);
    await a.leave();
    await joining.catch(() => undefined);
    const b = instance();
    await b.join(noop);
    const { self, live } = await b.members();
    expect(live).toEqual([self]);
  });

  it('tells its users when the lease connection is lost, and joins again on a new one', async () => {
    const a = instance();
    let lost = 0;
    const onLost = () => lost++;
    await a.join(onLost);
    expect(await a.tryAcquire('unit-3')).toBe(true);
    const { self } = await a.members();
    // Another session ends the lease connection, as a failover or an administrator would.
    await sql.query({
      text: `SELECT pg_terminate_backend(pid) FROM pg_locks
        WHERE locktype = 'advisory' AND granted AND objsubid = 2 AND objid = $1
          AND classid = (${MEMBER_CLASS}::bigint & 4294967295)::oid`,
      values: [self],
    });
    for (let waited = 0; lost === 0 && waited < 5_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(lost).toBe(1);
    const b = instance();
    await b.join(noop);
    expect(await b.tryAcquire('unit-3')).toBe(true);
    await a.join(onLost);
    expect(await a.tryAcquire('unit-3')).toBe(false);
    expect((await a.members()).live).toHaveLength(2);
  });
});
