// PostgreSQL only: a projector's writes through portableQuery run as named (server-side prepared)
// statements, parsed and planned once per connection, and still behave as TypeORM's query does
// (result shape, QueryFailedError); statements that return rows stay unnamed.
import { randomUUID } from 'node:crypto';
import { QueryFailedError } from 'typeorm';
import { openTestDataSource, type TestDataSource } from '../../../test/support/test-database.js';
import { ensureSchema } from './schema/migrate.js';
import { portableQuery } from './portable-query.js';

if (process.env.ES_TEST_DB !== 'postgres') {
  throw new Error(`portable-query.pg-contract.spec.ts needs ES_TEST_DB=postgres (the postgres jest project), got ${process.env.ES_TEST_DB}`);
}

let db: TestDataSource;
const table = `portable_${randomUUID().replace(/-/g, '')}`;

beforeAll(async () => {
  db = await openTestDataSource();
  await ensureSchema(db.dataSource);
  await db.dataSource.query(`CREATE TABLE ${table} (id text PRIMARY KEY, n integer NOT NULL)`);
});

afterAll(async () => {
  await db?.close();
});

/** The statements prepared over the protocol on this transaction's connection. */
const preparedTexts = async (manager: Parameters<typeof portableQuery>[0]) =>
  (await portableQuery<{ statement: string }>(manager, 'SELECT statement FROM pg_prepared_statements WHERE NOT from_sql')).map((row) => row.statement);

describe('portableQuery on PostgreSQL', () => {
  it('prepares writes that return no rows once per connection, and leaves reads and RETURNING unnamed', async () => {
    const insert = `INSERT INTO ${table} (id, n) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET n = ${table}.n + $2`;
    const returning = `UPDATE ${table} SET n = n + 1 WHERE id = $1 RETURNING n`;
    const read = `SELECT n FROM ${table} WHERE id = $1`;
    await db.dataSource.transaction(async (manager) => {
      await portableQuery(manager, insert, ['a', 1]);
      await portableQuery(manager, insert, ['a', 2]);
      await portableQuery(manager, returning, ['a']);
      await expect(portableQuery(manager, read, ['a'])).resolves.toEqual([{ n: 4 }]);
      const prepared = await preparedTexts(manager);
      expect(prepared).toContain(insert);
      expect(prepared).not.toContain(returning);
      expect(prepared).not.toContain(read);
    });
  });

  it('keeps TypeORM’s result shape and error for a named write', async () => {
    await portableQuery(db.dataSource, `INSERT INTO ${table} (id, n) VALUES ($1, $2)`, ['b', 1]);
    // TypeORM answers an UPDATE with its rows and the number it changed.
    await expect(portableQuery(db.dataSource, `UPDATE ${table} SET n = $2 WHERE id = $1`, ['b', 5])).resolves.toEqual([[], 1]);
    const error = await portableQuery(db.dataSource, `INSERT INTO ${table} (id, n) VALUES ($1, $2)`, ['b', 1]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QueryFailedError);
    expect((error as { driverError: { code: string } }).driverError.code).toBe('23505');
    expect(String((error as QueryFailedError).query)).toBe(`INSERT INTO ${table} (id, n) VALUES ($1, $2)`);
  });
});
