import type { Migration } from './migration.js';

/**
 * PostgreSQL schema. Event payload and metadata are `json`, not `jsonb`: they are written once and
 * read back whole, never queried by content (the ids we look up are columns), so `json` keeps the
 * exact text and skips jsonb's parse-and-convert on every insert and its re-serialization on every
 * read (aggregate rebuilds read many rows). Snapshot state is `text` so that damage to it is
 * detected on load (CorruptSnapshotError) instead of being impossible to represent.
 */
export const postgresMigrations: Migration[] = [
  {
    version: 1,
    name: 'events, commands, snapshots',
    statements: [
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
  },
  {
    version: 2,
    name: 'checkpoints, dead letters, process timers',
    statements: [
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
  },
];
