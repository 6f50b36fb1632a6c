import type { DataSource } from 'typeorm';

/**
 * Creates a read model's tables (statements with IF NOT EXISTS). On PostgreSQL they run in one
 * transaction under an advisory lock, so instances booting together do not collide: concurrent
 * CREATE TABLE IF NOT EXISTS of one name can fail there. SQLite needs no such care.
 */
export async function createTables(dataSource: DataSource, statements: string[]): Promise<void> {
  if (dataSource.options.type !== 'postgres') {
    for (const statement of statements) await dataSource.query(statement);
    return;
  }
  await dataSource.transaction(async (manager) => {
    await manager.query(`SELECT pg_advisory_xact_lock(hashtext('poker read models'))`);
    for (const statement of statements) await manager.query(statement);
  });
}
