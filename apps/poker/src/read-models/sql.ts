import { type DataSource, EntityManager } from 'typeorm';

/** The app's connection for reads, or a projector's transaction for writes. */
export type Queryable = DataSource | EntityManager;

/**
 * Runs SQL written with PostgreSQL's `$1, $2 ...` on either database: SQLite gets `?` and the
 * parameters in the order they appear (so one `$n` may be used twice).
 */
export function query<T = Record<string, unknown>>(db: Queryable, text: string, params: unknown[] = []): Promise<T[]> {
  const dataSource = db instanceof EntityManager ? db.connection : db;
  if (dataSource.options.type === 'postgres') return db.query(text, params);
  const ordered: unknown[] = [];
  const sqlite = text.replace(/\$(\d+)/g, (_match, n: string) => {
    ordered.push(params[Number(n) - 1]);
    return '?';
  });
  return db.query(sqlite, ordered);
}

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
