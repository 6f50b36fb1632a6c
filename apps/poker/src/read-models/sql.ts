import type { DataSource } from 'typeorm';

/**
 * Creates a read model's tables (statements with IF NOT EXISTS). On PostgreSQL they run in one
 * transaction under an advisory lock, so instances booting together do not collide: concurrent
 * CREATE TABLE IF NOT EXISTS of one name can fail there. SQLite needs no such care. `postgres` runs
 * there only, after the others (see `widenToBigint`).
 */
export async function createTables(dataSource: DataSource, statements: string[], postgres: string[] = []): Promise<void> {
  if (dataSource.options.type !== 'postgres') {
    for (const statement of statements) await dataSource.query(statement);
    return;
  }
  await dataSource.transaction(async (manager) => {
    await manager.query(`SELECT pg_advisory_xact_lock(hashtext('poker read models'))`);
    for (const statement of [...statements, ...postgres]) await manager.query(statement);
  });
}

/**
 * For PostgreSQL: turns columns an earlier version created as INTEGER into BIGINT, which CREATE TABLE
 * IF NOT EXISTS leaves as they were; a 32-bit column refuses a value past 2^31 and dead-letters the
 * projector. A no-op once done (SQLite's INTEGER is 64-bit already).
 */
export function widenToBigint(table: string, columns: string[]): string {
  const names = columns.map((column) => `'${column}'`).join(', ');
  return `DO $$ BEGIN
    IF EXISTS (SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = '${table}'
               AND column_name IN (${names}) AND data_type = 'integer') THEN
      ALTER TABLE ${table} ${columns.map((column) => `ALTER COLUMN ${column} TYPE BIGINT`).join(', ')};
    END IF;
  END $$`;
}
