import type { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf, type Dialect } from '../sql-client.js';
import { schemaLedgerFor } from './schema-ledger.js';

/**
 * One step of the framework's schema as a TypeORM migration: an app lists these in its own
 * DataSource (`migrations: eventSourcingMigrations`) and runs them with the TypeORM CLI, or lets the
 * module run them at boot. Each step checks es_schema_migrations first, so either way applies it once.
 *
 * A released step is never edited: change the schema by appending a new subclass to
 * `eventSourcingMigrations` with the next `version`, a `name` ending in `1764547200000 + version`
 * (TypeORM orders migrations by that 13-digit suffix; ours sort before an app's own), and statements
 * for both dialects.
 */
export abstract class EventSourcingMigration implements MigrationInterface {
  /** The step's number in es_schema_migrations; only grows. */
  abstract readonly version: number;
  /** TypeORM's migration name: a class-like name ending in a 13-digit timestamp. */
  abstract readonly name: string;
  /** Recorded in es_schema_migrations with the version. */
  abstract readonly description: string;
  /** Run in order, in the caller's transaction. */
  protected abstract readonly upStatements: Record<Dialect, readonly string[]>;
  protected abstract readonly downStatements: Record<Dialect, readonly string[]>;
  /**
   * Data changes too big for one statement (the store's statement timeout would cancel it), run in
   * the same transaction after `upStatements`.
   */
  protected migrateData?(runner: QueryRunner, dialect: Dialect): Promise<void>;

  async up(runner: QueryRunner): Promise<void> {
    const ledger = schemaLedgerFor(runner);
    await ledger.prepare(runner);
    if (await ledger.has(runner, this.version)) return;
    const dialect = dialectOf(runner.connection);
    for (const statement of this.upStatements[dialect]) await runner.query(statement);
    await this.migrateData?.(runner, dialect);
    await ledger.record(runner, this.version, this.description);
  }

  async down(runner: QueryRunner): Promise<void> {
    const ledger = schemaLedgerFor(runner);
    await ledger.prepare(runner);
    if (!(await ledger.has(runner, this.version))) return;
    for (const statement of this.downStatements[dialectOf(runner.connection)]) await runner.query(statement);
    await ledger.forget(runner, this.version);
  }
}
