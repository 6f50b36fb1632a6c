import type { DataSource } from 'typeorm';
import { dialectOf } from '../sql-client.js';
import type { EventSourcingMigration } from './event-sourcing-migration.js';
import { outwaitLock } from '../sqlite-lock.js';
import { eventSourcingMigrations } from './event-sourcing-migrations.js';

const BEGIN = {
  // IMMEDIATE takes the write lock up front: a second process waits (outwaitLock) instead of
  // failing when it upgrades a read transaction that another process's migration made stale.
  sqlite: 'BEGIN IMMEDIATE',
  postgres: 'BEGIN',
};

const ensured = new WeakMap<DataSource, Promise<void>>();
const SCHEMA_LOCK_WAIT_MS = 30_000;

/**
 * Applies the framework's migrations this DataSource's database lacks, all in one transaction (the
 * module's zero-setup path; an app may run the same `eventSourcingMigrations` with TypeORM instead).
 * Safe to call from many places and processes at once; runs once per DataSource.
 */
export function ensureSchema(dataSource: DataSource): Promise<void> {
  let done = ensured.get(dataSource);
  if (done === undefined) {
    // Processes booting together on one SQLite file take turns; a migration may take a while.
    done = outwaitLock(() => migrate(dataSource, eventSourcingMigrations.map((Migration) => new Migration())), SCHEMA_LOCK_WAIT_MS);
    ensured.set(dataSource, done);
    done.catch(() => ensured.delete(dataSource));
  }
  return done;
}

async function migrate(dataSource: DataSource, migrations: EventSourcingMigration[]): Promise<void> {
  assertOrdered(migrations);
  const runner = dataSource.createQueryRunner();
  try {
    await runner.query(BEGIN[dialectOf(dataSource)]);
    try {
      for (const migration of migrations) await migration.up(runner);
      await runner.query('COMMIT');
    } catch (error) {
      await runner.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  } finally {
    await runner.release();
  }
}

function assertOrdered(migrations: EventSourcingMigration[]): void {
  migrations.forEach((migration, index) => {
    if (index > 0 && migration.version <= migrations[index - 1].version) {
      throw new Error(
        `schema migration ${migration.version} (${migration.name}) must come after ${migrations[index - 1].version}: versions only grow`,
      );
    }
  });
}
