import { DataSource, type EntityManager } from 'typeorm';

/**
 * Creates a read model's tables (statements with IF NOT EXISTS), in the transaction given or in one
 * of its own. On PostgreSQL they run under an advisory lock, so instances booting together do not
 * collide: concurrent CREATE TABLE IF NOT EXISTS of one name can fail there. SQLite needs no such
 * care. `postgres` runs there only, after the others (see `widenToBigint`).
 */
export async function createTables(target: DataSource | EntityManager, statements: string[], postgres: string[] = []): Promise<void> {
  const dataSource = target instanceof DataSource ? target : target.connection;
  if (dataSource.options.type !== 'postgres') {
    for (const statement of statements) await target.query(statement);
    return;
  }
  const create = async (manager: EntityManager) => {
    await manager.query(`SELECT pg_advisory_xact_lock(hashtext('poker read models'))`);
    for (const statement of [...statements, ...postgres]) await manager.query(statement);
  };
  await (target instanceof DataSource ? target.transaction(create) : create(target));
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
