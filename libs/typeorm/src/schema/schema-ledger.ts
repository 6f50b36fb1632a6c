import type { QueryRunner } from 'typeorm';
import { dialectOf, type Dialect } from '../sql-client.js';

/**
 * es_schema_migrations: which of the framework's schema versions a database has. It is the one
 * record of what is applied whichever way a migration runs (the module at boot, or an app's own
 * TypeORM `migrations` list and CLI, which keeps its own table besides), so a store upgraded one
 * way is never migrated twice the other way.
 */
export interface SchemaLedger {
  /** Serializes concurrent migrators and creates the ledger table; first thing in the transaction. */
  prepare(runner: QueryRunner): Promise<void>;
  has(runner: QueryRunner, version: number): Promise<boolean>;
  record(runner: QueryRunner, version: number, description: string): Promise<void>;
  forget(runner: QueryRunner, version: number): Promise<void>;
}

const sqliteLedger: SchemaLedger = {
  async prepare(runner) {
    await runner.query(
      `CREATE TABLE IF NOT EXISTS es_schema_migrations (
        version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP)`,
    );
  },
  async has(runner, version) {
    const rows = (await runner.query('SELECT 1 FROM es_schema_migrations WHERE version = ?', [version])) as unknown[];
    return rows.length > 0;
  },
  async record(runner, version, description) {
    await runner.query('INSERT INTO es_schema_migrations (version, name) VALUES (?, ?)', [version, description]);
  },
  async forget(runner, version) {
    await runner.query('DELETE FROM es_schema_migrations WHERE version = ?', [version]);
  },
};

const postgresLedger: SchemaLedger = {
  async prepare(runner) {
    const schema = (runner.connection.options as { schema?: string }).schema;
    // Two processes migrating one database: the second waits here, then finds the work done.
    await runner.query(
      `SELECT pg_advisory_xact_lock(hashtextextended('es_schema_migrations:' || coalesce($1::text, current_schema()::text, ''), 0))`,
      [schema ?? null],
    );
    if (schema !== undefined) {
      await runner.query(`CREATE SCHEMA IF NOT EXISTS "${schema.replaceAll('"', '""')}"`);
      const [{ current }] = (await runner.query('SELECT current_schema() AS current')) as { current: string | null }[];
      if (current !== schema) {
        throw new Error(
          `PostgreSQL schema "${schema}" is not the search_path of the DataSource's connections (it resolves to ${JSON.stringify(current)}): ` +
            `build the DataSource with createDataSource(), or set extra.options to "-c search_path=${schema}"`,
        );
      }
    }
    await runner.query(
      `CREATE TABLE IF NOT EXISTS es_schema_migrations (
        version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
  },
  async has(runner, version) {
    const rows = (await runner.query('SELECT 1 FROM es_schema_migrations WHERE version = $1', [version])) as unknown[];
    return rows.length > 0;
  },
  async record(runner, version, description) {
    await runner.query('INSERT INTO es_schema_migrations (version, name) VALUES ($1, $2)', [version, description]);
  },
  async forget(runner, version) {
    await runner.query('DELETE FROM es_schema_migrations WHERE version = $1', [version]);
  },
};

const ledgers: Record<Dialect, SchemaLedger> = { sqlite: sqliteLedger, postgres: postgresLedger };

export function schemaLedgerFor(runner: QueryRunner): SchemaLedger {
  return ledgers[dialectOf(runner.connection)];
}
