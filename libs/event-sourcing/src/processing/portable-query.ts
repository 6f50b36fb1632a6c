import { type DataSource, EntityManager } from 'typeorm';

/** A DataSource for reads, or a projector's transactional EntityManager for writes. */
export type Queryable = DataSource | EntityManager;

/**
 * Runs SQL written with PostgreSQL's `$1, $2 ...` on either database of the store, so a projector
 * (or its read queries) has one text for both: SQLite gets `?` and the parameters in the order they
 * appear (so one `$n` may be used twice).
 */
export function portableQuery<T = Record<string, unknown>>(db: Queryable, text: string, params: unknown[] = []): Promise<T[]> {
  const dataSource = db instanceof EntityManager ? db.connection : db;
  if (dataSource.options.type === 'postgres') return db.query(text, params);
  const ordered: unknown[] = [];
  const sqlite = text.replace(/\$(\d+)/g, (_match, n: string) => {
    ordered.push(params[Number(n) - 1]);
    return '?';
  });
  return db.query(sqlite, ordered);
}
