import type { DataSource, QueryRunner } from 'typeorm';
import { dialectOf, type Dialect } from '../sql-client.js';
import type { Migration } from './migration.js';
import { postgresMigrations } from './postgres.schema.js';
import { sqliteMigrations } from './sqlite.schema.js';

interface MigrationDialect {
  migrations: Migration[];
  begin: string;
  /** First thing in the transaction: serialize concurrent boots and create es_schema_migrations. */
  prepare(runner: QueryRunner, dataSource: DataSource): Promise<void>;
  record: string;
}

const dialects: Record<Dialect, MigrationDialect> = {
  sqlite: {
    migrations: sqliteMigrations,
    // IMMEDIATE takes the write lock up front: a second process waits (busy timeout) instead of
    // failing when it upgrades a read transaction that another process's migration made stale.
    begin: 'BEGIN IMMEDIATE',
    async prepare(runner) {
      await runner.query(
        `CREATE TABLE IF NOT EXISTS es_schema_migrations (
          version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP)`,
      );
    },
    record: 'INSERT INTO es_schema_migrations (version, name) VALUES (?, ?)',
  },
  postgres: {
    migrations: postgresMigrations,
    begin: 'BEGIN',
    async prepare(runner, dataSource) {
      const schema = (dataSource.options as { schema?: string }).schema;
      // Two processes booting on one database: the second waits here, then finds the work done.
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
    record: 'INSERT INTO es_schema_migrations (version, name) VALUES ($1, $2)',
  },
};

const ensured = new WeakMap<DataSource, Promise<void>>();

/**
 * Applies the migrations this DataSource's database lacks, all in one transaction, and records them
 * in es_schema_migrations. Safe to call from many places and processes at once; runs once per DataSource.
 */
export function ensureSchema(dataSource: DataSource): Promise<void> {
  let done = ensured.get(dataSource);
  if (done === undefined) {
    done = migrate(dataSource, dialects[dialectOf(dataSource)]);
    ensured.set(dataSource, done);
    done.catch(() => ensured.delete(dataSource));
  }
  return done;
}

async function migrate(dataSource: DataSource, dialect: MigrationDialect): Promise<void> {
  assertOrdered(dialect.migrations);
  const runner = dataSource.createQueryRunner();
  try {
    await runner.query(dialect.begin);
    try {
      await dialect.prepare(runner, dataSource);
      const rows = (await runner.query('SELECT version FROM es_schema_migrations')) as { version: number }[];
      const applied = new Set(rows.map((row) => Number(row.version)));
      for (const migration of dialect.migrations) {
        if (applied.has(migration.version)) continue;
        for (const statement of migration.statements) await runner.query(statement);
        await runner.query(dialect.record, [migration.version, migration.name]);
      }
      await runner.query('COMMIT');
    } catch (error) {
      await runner.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  } finally {
    await runner.release();
  }
}

function assertOrdered(migrations: Migration[]): void {
  migrations.forEach((migration, index) => {
    if (index > 0 && migration.version <= migrations[index - 1].version) {
      throw new Error(
        `schema migration ${migration.version} (${migration.name}) must come after ${migrations[index - 1].version}: versions only grow`,
      );
    }
  });
}
