import type BetterSqlite3 from 'better-sqlite3';
import type { DataSource } from 'typeorm';
import type { SqlClient } from './sql-client.js';
import { outwaitLock } from './sqlite-lock.js';

/**
 * TypeORM shares the one SQLite connection: a transaction that other code (a projector) holds open
 * across an await would swallow our writes, committing or rolling back with it. Writers wait for it.
 */
export async function idleConnection(db: BetterSqlite3.Database): Promise<void> {
  while (db.inTransaction) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * SQLite through the connection of TypeORM's better-sqlite3 driver, with a prepared statement per SQL
 * text. That driver has one connection and one query runner, shared by everyone: `connect()` resolves
 * to the better-sqlite3 Database, open until the DataSource is destroyed. The runner is not released:
 * its release gives nothing back (there is one connection) and only clears the schema caches of the
 * runner others are using.
 */
export class SqliteSqlClient implements SqlClient {
  private readonly statements = new Map<string, BetterSqlite3.Statement>();
  private db?: BetterSqlite3.Database;
  private readonly connecting: Promise<BetterSqlite3.Database>;

  constructor(dataSource: DataSource) {
    this.connecting = (dataSource.createQueryRunner().connect() as Promise<BetterSqlite3.Database>).then((db) => (this.db = db));
  }

  /** The shared connection (the append writer prepares its statements on it). */
  connection(): Promise<BetterSqlite3.Database> {
    return this.connecting;
  }

  async all<R>(sql: string, params: readonly unknown[] = []): Promise<R[]> {
    const db = this.db ?? (await this.connecting);
    return outwaitLock(() => this.statement(db, sql).all(...params.map(bindable)) as R[]);
  }

  async run(sql: string, params: readonly unknown[] = []): Promise<void> {
    await this.count(sql, params);
  }

  async count(sql: string, params: readonly unknown[] = []): Promise<number> {
    const db = this.db ?? (await this.connecting);
    return outwaitLock(async () => {
      await idleConnection(db);
      return this.statement(db, sql).run(...params.map(bindable)).changes;
    });
  }

  /** Prepared once per SQL text. */
  private statement(db: BetterSqlite3.Database, sql: string): BetterSqlite3.Statement {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}

const bindable = (value: unknown): unknown => (value instanceof Date ? value.getTime() : value);
