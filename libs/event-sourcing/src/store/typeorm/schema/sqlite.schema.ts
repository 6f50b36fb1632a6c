import type { Migration } from './migration.js';

/** SQLite schema. Times are Unix epoch milliseconds (INTEGER): cheaper to read back than ISO text. */
export const sqliteMigrations: Migration[] = [
  {
    version: 1,
    name: 'events, commands, snapshots',
    statements: [
      // AUTOINCREMENT: a position is never reused, even after the newest row is deleted.
      // metadata holds only the keys beyond those kept in columns (NULL when there are none).
      `CREATE TABLE es_events (
        position INTEGER PRIMARY KEY AUTOINCREMENT,
        aggregate_type TEXT NOT NULL,
        aggregate_id TEXT NOT NULL,
        sequence INTEGER NOT NULL,
        event_type TEXT NOT NULL,
        schema_version INTEGER NOT NULL DEFAULT 1,
        payload TEXT NOT NULL,
        metadata TEXT,
        occurred_at INTEGER NOT NULL,
        event_id TEXT NOT NULL UNIQUE,
        command_id TEXT,
        correlation_id TEXT NOT NULL,
        causation_id TEXT,
        external_id TEXT,
        UNIQUE (aggregate_type, aggregate_id, sequence)
      )`,
      `CREATE UNIQUE INDEX es_events_external_id_key ON es_events (aggregate_type, aggregate_id, external_id)
        WHERE external_id IS NOT NULL`,
      `CREATE INDEX es_events_correlation_id_idx ON es_events (correlation_id)`,
      `CREATE INDEX es_events_causation_id_idx ON es_events (causation_id)`,
      `CREATE TABLE es_commands (
        aggregate_type TEXT NOT NULL,
        aggregate_id TEXT NOT NULL,
        command_id TEXT NOT NULL,
        sequence_before INTEGER NOT NULL,
        sequence_after INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (aggregate_type, aggregate_id, command_id)
      ) WITHOUT ROWID`,
      `CREATE TABLE es_snapshots (
        aggregate_type TEXT NOT NULL,
        aggregate_id TEXT NOT NULL,
        sequence INTEGER NOT NULL,
        state_version INTEGER NOT NULL,
        state TEXT NOT NULL,
        taken_at INTEGER NOT NULL,
        PRIMARY KEY (aggregate_type, aggregate_id, sequence)
      )`,
    ],
  },
  {
    version: 2,
    name: 'checkpoints, dead letters, process timers',
    statements: [
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
  },
  {
    version: 3,
    name: 'command fingerprints',
    // NULL for commands recorded before: they are not checked against a repeat.
    statements: [`ALTER TABLE es_commands ADD COLUMN fingerprint TEXT`],
  },
];
