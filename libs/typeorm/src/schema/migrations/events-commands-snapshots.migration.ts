import { EventSourcingMigration } from '../event-sourcing-migration.js';

/**
 * PostgreSQL: event payload and metadata are `json`, not `jsonb`: they are written once and read back
 * whole, never queried by content (the ids we look up are columns), so `json` keeps the exact text and
 * skips jsonb's parse-and-convert on every insert and its re-serialization on every read. Snapshot
 * state is `text` so that damage to it is detected on load (CorruptSnapshotError) instead of being
 * impossible to represent. SQLite: times are Unix epoch milliseconds (INTEGER), cheaper to read back
 * than ISO text.
 */
export class EventSourcingEventsCommandsSnapshots1764547200001 extends EventSourcingMigration {
  readonly version = 1;
  readonly name = 'EventSourcingEventsCommandsSnapshots1764547200001';
  readonly description = 'events, commands, snapshots';
  protected readonly upStatements = {
    sqlite: [
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
    postgres: [
      // metadata holds only the keys beyond those kept in columns (NULL when there are none).
      `CREATE TABLE es_events (
        position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        aggregate_type text NOT NULL,
        aggregate_id text NOT NULL,
        sequence integer NOT NULL,
        event_type text NOT NULL,
        schema_version integer NOT NULL DEFAULT 1,
        payload json NOT NULL,
        metadata json,
        occurred_at timestamptz NOT NULL,
        event_id text NOT NULL,
        command_id text,
        correlation_id text NOT NULL,
        causation_id text,
        external_id text,
        CONSTRAINT es_events_stream_sequence_key UNIQUE (aggregate_type, aggregate_id, sequence),
        CONSTRAINT es_events_event_id_key UNIQUE (event_id)
      )`,
      `CREATE UNIQUE INDEX es_events_external_id_key ON es_events (aggregate_type, aggregate_id, external_id)
        WHERE external_id IS NOT NULL`,
      `CREATE INDEX es_events_correlation_id_idx ON es_events (correlation_id)`,
      `CREATE INDEX es_events_causation_id_idx ON es_events (causation_id)`,
      `CREATE TABLE es_commands (
        aggregate_type text NOT NULL,
        aggregate_id text NOT NULL,
        command_id text NOT NULL,
        sequence_before integer NOT NULL,
        sequence_after integer NOT NULL,
        created_at timestamptz NOT NULL,
        CONSTRAINT es_commands_pkey PRIMARY KEY (aggregate_type, aggregate_id, command_id)
      )`,
      `CREATE TABLE es_snapshots (
        aggregate_type text NOT NULL,
        aggregate_id text NOT NULL,
        sequence integer NOT NULL,
        state_version integer NOT NULL,
        state text NOT NULL,
        taken_at timestamptz NOT NULL,
        CONSTRAINT es_snapshots_pkey PRIMARY KEY (aggregate_type, aggregate_id, sequence)
      )`,
    ],
  };
  protected readonly downStatements = {
    sqlite: ['DROP TABLE es_snapshots', 'DROP TABLE es_commands', 'DROP TABLE es_events'],
    postgres: ['DROP TABLE es_snapshots', 'DROP TABLE es_commands', 'DROP TABLE es_events'],
  };
}
