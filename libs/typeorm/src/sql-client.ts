import type BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';
import type { DataSource } from 'typeorm';
import { guardPool } from './pool-guard.js';

export type Dialect = 'sqlite' | 'postgres';

export function dialectOf(dataSource: DataSource): Dialect {
  const { type } = dataSource.options;
  if (type === 'better-sqlite3') return 'sqlite';
  if (type === 'postgres') return 'postgres';
  throw new Error(`the event store runs on TypeORM DataSources of type "better-sqlite3" or "postgres", not "${type}"`);
}

/**
 * The stores' way to the database. TypeORM opens the connections and runs the migrations, but the
 * stores talk to the driver handle it holds: TypeORM's query runner adds work to every query
 * (logging and subscriber broadcasts, error wrapping, re-preparing or re-parsing the SQL), which the
 * hot path of an event store cannot afford.
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

export function sqlClientFor(dataSource: DataSource): SqliteSqlClient | PostgresSqlClient {
  if (!dataSource.isInitialized) throw new Error('initialize the DataSource before creating a store on it');
  // The handles TypeORM's drivers hold (typed any there): better-sqlite3's Database; pg's Pool and module.
  const driver = dataSource.driver as unknown as { databaseConnection: BetterSqlite3.Database; master: pg.Pool; postgres: typeof pg };
  return dialectOf(dataSource) === 'sqlite'
    ? new SqliteSqlClient(driver.databaseConnection)
    : new PostgresSqlClient(guardedPool(driver.master), driver.postgres);
}

function guardedPool(pool: pg.Pool): pg.Pool {
  guardPool(pool);
  return pool;
}

/**
 * TypeORM shares the one SQLite connection: a transaction that other code (a projector) holds open
 * across an await would swallow our writes, committing or rolling back with it. Writers wait for it.
 */
export async function idleConnection(db: BetterSqlite3.Database): Promise<void> {
  while (db.inTransaction) await new Promise((resolve) => setImmediate(resolve));
}

export class SqliteSqlClient implements SqlClient {
  private readonly statements = new Map<string, BetterSqlite3.Statement>();

  constructor(readonly db: BetterSqlite3.Database) {}

  /** Prepared once per SQL text. */
  statement(sql: string): BetterSqlite3.Statement {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  async all<R>(sql: string, params: readonly unknown[] = []): Promise<R[]> {
    return this.statement(sql).all(...params.map(bindable)) as R[];
  }

  async run(sql: string, params: readonly unknown[] = []): Promise<void> {
    await idleConnection(this.db);
    this.statement(sql).run(...params.map(bindable));
  }

  async count(sql: string, params: readonly unknown[] = []): Promise<number> {
    await idleConnection(this.db);
    return this.statement(sql).run(...params.map(bindable)).changes;
  }

  /** Runs `work` synchronously in one write transaction, once no other transaction is open. */
  async transaction<T>(work: () => T): Promise<T> {
    await idleConnection(this.db);
    return this.db.transaction(work).immediate();
  }
}

const bindable = (value: unknown): unknown => (value instanceof Date ? value.getTime() : value);

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

/** `?` placeholders as PostgreSQL's `$1, $2, ...`. */
export function numberPlaceholders(sql: string): string {
  let index = 0;
  return sql.replace(/\?/g, () => `$${++index}`);
}

const preparedStatements = new Map<string, { name: string; text: string }>();
/**
 * Most SQL texts given a name. Past it (SQL built anew per call, say) statements run unnamed, so no
 * connection keeps an ever-growing set of prepared statements.
 */
const MAX_PREPARED_STATEMENTS = 1000;

/**
 * A SQL text as a named (server-side prepared) statement with PostgreSQL's `$n` placeholders, `toText`
 * turning the given SQL into that text (once per SQL); unnamed past MAX_PREPARED_STATEMENTS texts.
 * Names are process-wide so that one pooled connection never sees a name reused for other SQL.
 */
export function preparedStatement(sql: string, toText: (sql: string) => string = (text) => text): { name?: string; text: string } {
  const prepared = preparedStatements.get(sql);
  if (prepared !== undefined) return prepared;
  if (preparedStatements.size >= MAX_PREPARED_STATEMENTS) return { text: toText(sql) };
  const statement = { name: `es_${preparedStatements.size + 1}`, text: toText(sql) };
  preparedStatements.set(sql, statement);
  return statement;
}

/** A named query for one of the stores' SQL texts, written with `?` placeholders. */
export function pgQuery(sql: string, values: readonly unknown[], types: pg.CustomTypesConfig): pg.QueryConfig {
  return { ...preparedStatement(sql, numberPlaceholders), values: values as unknown[], types };
}

export class PostgresSqlClient implements SqlClient {
  /** The store's type parsers, falling back to those of the pg module TypeORM loaded. */
  readonly types: pg.CustomTypesConfig;

  constructor(
    readonly pool: pg.Pool,
    /** The pg module TypeORM's driver loaded (pg is an optional peer: only PostgreSQL users have it). */
    readonly driver: typeof pg,
  ) {
    this.types = storeTypes(driver.types);
  }

  async all<R>(sql: string, params: readonly unknown[] = []): Promise<R[]> {
    return (await this.pool.query(pgQuery(sql, params, this.types))).rows as R[];
  }

  async run(sql: string, params: readonly unknown[] = []): Promise<void> {
    await this.pool.query(pgQuery(sql, params, this.types));
  }

  async count(sql: string, params: readonly unknown[] = []): Promise<number> {
    return (await this.pool.query(pgQuery(sql, params, this.types))).rowCount ?? 0;
  }
}
