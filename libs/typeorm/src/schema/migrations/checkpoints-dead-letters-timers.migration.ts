import { EventSourcingMigration } from '../event-sourcing-migration.js';

export class EventSourcingCheckpointsDeadLettersTimers1764547200002 extends EventSourcingMigration {
  readonly version = 2;
  readonly name = 'EventSourcingCheckpointsDeadLettersTimers1764547200002';
  readonly description = 'checkpoints, dead letters, process timers';
  protected readonly upStatements = {
    sqlite: [
      `CREATE TABLE es_checkpoints (
        subscriber TEXT PRIMARY KEY,
        position INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      ) WITHOUT ROWID`,
      `CREATE TABLE es_dead_letters (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        subscriber TEXT,
        aggregate_type TEXT NOT NULL,
        aggregate_id TEXT NOT NULL,
        message_type TEXT NOT NULL,
        payload TEXT NOT NULL,
        context TEXT NOT NULL,
        reason TEXT NOT NULL,
        attempts INTEGER NOT NULL,
        status TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      ) WITHOUT ROWID`,
      `CREATE INDEX es_dead_letters_status_idx ON es_dead_letters (status, created_at)`,
      `CREATE TABLE es_timers (
        id TEXT PRIMARY KEY,
        owner TEXT NOT NULL,
        correlation_id TEXT NOT NULL,
        name TEXT NOT NULL,
        due_at INTEGER NOT NULL,
        payload TEXT NOT NULL,
        status TEXT NOT NULL,
        created_at INTEGER NOT NULL
      ) WITHOUT ROWID`,
      `CREATE INDEX es_timers_due_idx ON es_timers (status, due_at)`,
      `CREATE INDEX es_timers_owner_idx ON es_timers (owner, correlation_id, name)`,
    ],
    postgres: [
      `CREATE TABLE es_checkpoints (
        subscriber text PRIMARY KEY,
        position bigint NOT NULL,
        updated_at timestamptz NOT NULL
      )`,
      `CREATE TABLE es_dead_letters (
        id text PRIMARY KEY,
        kind text NOT NULL,
        subscriber text,
        aggregate_type text NOT NULL,
        aggregate_id text NOT NULL,
        message_type text NOT NULL,
        payload text NOT NULL,
        context text NOT NULL,
        reason text NOT NULL,
        attempts integer NOT NULL,
        status text NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`,
      `CREATE INDEX es_dead_letters_status_idx ON es_dead_letters (status, created_at)`,
      `CREATE TABLE es_timers (
        id text PRIMARY KEY,
        owner text NOT NULL,
        correlation_id text NOT NULL,
        name text NOT NULL,
        due_at timestamptz NOT NULL,
        payload text NOT NULL,
        status text NOT NULL,
        created_at timestamptz NOT NULL
      )`,
      `CREATE INDEX es_timers_due_idx ON es_timers (status, due_at)`,
      `CREATE INDEX es_timers_owner_idx ON es_timers (owner, correlation_id, name)`,
    ],
  };
  protected readonly downStatements = {
    sqlite: ['DROP TABLE es_timers', 'DROP TABLE es_dead_letters', 'DROP TABLE es_checkpoints'],
    postgres: ['DROP TABLE es_timers', 'DROP TABLE es_dead_letters', 'DROP TABLE es_checkpoints'],
  };
}
