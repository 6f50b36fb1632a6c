import type { DataSource } from 'typeorm';

export type Dialect = 'sqlite' | 'postgres';

export function dialectOf(dataSource: DataSource): Dialect {
  const { type } = dataSource.options;
  if (type === 'better-sqlite3') return 'sqlite';
  if (type === 'postgres') return 'postgres';
  throw new Error(`the event store runs on TypeORM DataSources of type "better-sqlite3" or "postgres", not "${type}"`);
}

/**
 * The stores' way to the database. TypeORM opens the connections and runs the migrations; the stores
 * take a connection through TypeORM's public query-runner API (`createQueryRunner().connect()` hands
 * out the driver's own connection) and talk to it directly: TypeORM's `query()` adds work to every
 * query (logging and subscriber broadcasts, error wrapping, re-preparing or re-parsing the SQL),
 * which the hot path of an event store cannot afford.
 *
 * Placeholders are `?`, bound in order. Rows come back alike from both databases: JSON columns as
 * text, 64-bit integers as numbers, times as Unix milliseconds (SQLite) or Dates (PostgreSQL);
 * Date parameters are bound as Unix milliseconds on SQLite.
 */
export interface SqlClient {
  all<R>(sql: string, params?: readonly unknown[]): Promise<R[]>;
  run(sql: string, params?: readonly unknown[]): Promise<void>;
  /** Runs a write and tells how many rows it changed. */
  count(sql: string, params?: readonly unknown[]): Promise<number>;
}
