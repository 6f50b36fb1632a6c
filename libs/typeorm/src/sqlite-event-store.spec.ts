// SQLite only: the store shares TypeORM's single connection with other code.
import { randomUUID } from 'node:crypto';
import { openTestDataSource, type TestDataSource } from '../../../test/support/test-database.js';
import { TypeOrmEventStore } from './typeorm-event-store.js';

let db: TestDataSource;

beforeAll(async () => {
  db = await openTestDataSource();
});

afterAll(async () => {
  await db?.close();
});

describe('SQLite event store on a shared connection', () => {
  it('waits for a transaction other code holds open, and does not commit or roll back with it', async () => {
    const store = await TypeOrmEventStore.create(db.dataSource);
    const stream = { aggregateType: 'shared', aggregateId: randomUUID() };
    const runner = db.dataSource.createQueryRunner();
    await runner.startTransaction();
    await runner.query(
      `INSERT INTO es_snapshots (aggregate_type, aggregate_id, sequence, state_version, state, taken_at) VALUES ('shared', 'x', 1, 1, '{}', 0)`,
    );

    let settled = false;
    const appended = store
      .append({
        stream,
        expectedSequence: 0,
        events: [{ type: 'Noted', payload: {}, metadata: { eventId: randomUUID(), commandId: null, correlationId: 'c', causationId: null } }],
      })
      .finally(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(settled).toBe(false);

    await runner.rollbackTransaction();
    await runner.release();
    await expect(appended).resolves.toMatchObject({ sequence: 1 });
    expect(await store.streamSequence(stream)).toBe(1);
    expect(await db.dataSource.query(`SELECT count(*) AS n FROM es_snapshots WHERE aggregate_type = 'shared'`)).toEqual([{ n: 0 }]);
  });
});
