import type pg from 'pg';
import type { DataSource } from 'typeorm';
import { guardConnection } from './connection-guard.js';
import { dedicatedConnectionConfig, pgModuleOf, type PostgresOptions } from './postgres-driver.js';
import { pgQuery } from './postgres-statements.js';
import type { SqlClient } from './sql-client.js';

const JSON_OID = 114;
const INT8_OID = 20;

/** JSON stays text (parsed by the stores, as on SQLite); bigint positions fit a JS number. */
function storeTypes(driverTypes: typeof pg.types): pg.CustomTypesConfig {
  return {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
      if (oid === JSON_OID) return (value: string) => value;
      if (oid === INT8_OID) return Number;
      return driverTypes.getTypeParser(oid, format);
    }) as pg.CustomTypesConfig['getTypeParser'],
  };
}

/**
 * PostgreSQL through the pool of TypeORM's driver. Each query takes a connection with a query runner
 * of its own (`connect()` resolves to the pooled pg client, `release()` gives it back): the public way
 * to the pool, at about a microsecond over a bare checkout, with TypeORM's listener for a lost
 * connection while it is held. The query goes to the client itself, as a named statement.
 */
export class PostgresSqlClient implements SqlClient {
  /** The store's type parsers, falling back to those of the pg module. */
  readonly types: pg.CustomTypesConfig;
  private readonly pg: typeof pg;

  constructor(private readonly dataSource: DataSource) {
    this.pg = pgModuleOf(dataSource);
    this.types = storeTypes(this.pg.types);
  }

  async all<R>(sql: string, params: readonly unknown[] = []): Promise<R[]> {
    return (await this.query(pgQuery(sql, params, this.types))).rows as R[];
  }

  async run(sql: string, params: readonly unknown[] = []): Promise<void> {
    await this.query(pgQuery(sql, params, this.types));
  }

  async count(sql: string, params: readonly unknown[] = []): Promise<number> {
    return (await this.query(pgQuery(sql, params, this.types))).rowCount ?? 0;
  }

  /** One statement on a pooled connection. */
  async query<R extends pg.QueryResultRow = pg.QueryResultRow>(config: pg.QueryConfig): Promise<pg.QueryResult<R>> {
    // Said as better-sqlite3 says it, so late work after a shutdown fails as unavailable on both databases
    // (TypeORM's own "Driver not Connected" reads as a bug).
    if (!this.dataSource.isInitialized) throw new Error('the database connection is not open: its DataSource was destroyed');
    const runner = this.dataSource.createQueryRunner('master');
    const client = (await runner.connect()) as pg.PoolClient;
    guardConnection(client);
    try {
      return await client.query<R>(config);
    } catch (error) {
      // A statement the server refused leaves the session idle and usable. Any other failure (the
      // client's read timeout, a broken socket) may leave it mid-query: ended, the pool drops it on
      // release instead of handing a stuck connection to the next query (pg-pool's pool.query drops
      // the connection after every failed query).
      if (!refusedByServer(error)) client.end().catch(() => undefined);
      throw error;
    } finally {
      await runner.release();
    }
  }

  /** A connection of its own, outside the pool, set up like the pooled ones; not connected yet. */
  dedicatedConnection(): pg.Client {
    return new this.pg.Client(dedicatedConnectionConfig(this.dataSource.options as PostgresOptions));
  }
}

/**
 * Whether the server answered with an error (it carries a severity, localized, so only its presence
 * says anything). A session the server ends with it (FATAL) closes its socket: pg then emits 'error'
 * and the pool, which listens on its idle clients, drops it.
 */
function refusedByServer(error: unknown): boolean {
  return typeof (error as { severity?: unknown } | null)?.severity === 'string';
}
