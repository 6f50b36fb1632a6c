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
  {
    version: 3,
    name: 'append in one round trip',
    statements: [
      // The whole append of a group-commit batch as one statement (one round trip, its own transaction).
      // The caller planned the batch on the state it assumes (each stream at the sequence its first append
      // expects, the command ids unrecorded). Under the append lock this checks that state: when it holds,
      // the planned rows are inserted and their positions returned ('position' rows); when it does not,
      // nothing is written and the actual state comes back ('stream' rows: every stream's sequence by
      // ordinal; 'command' rows: the ordinals of the recorded command ids) for the caller to plan again.
      `CREATE FUNCTION es_append(p_stream_types text[], p_stream_ids text[], p_assumed integer[],
          p_command_types text[], p_command_stream_ids text[], p_command_ids text[], p_events json, p_commands json)
        RETURNS TABLE (kind text, ord bigint, value bigint)
        LANGUAGE plpgsql AS $fn$
      #variable_conflict use_column
      BEGIN
        -- The append lock: positions are taken in commit order, so readers never skip a late commit.
        PERFORM pg_advisory_xact_lock(hashtextextended('es_events:' || current_schema(), 0));
        RETURN QUERY
          WITH state AS MATERIALIZED (
            SELECT s.ord, s.assumed,
              coalesce((SELECT e.sequence FROM es_events e
                        WHERE e.aggregate_type = s.aggregate_type AND e.aggregate_id = s.aggregate_id
                        ORDER BY e.sequence DESC LIMIT 1), 0) AS actual
            FROM unnest(p_stream_types, p_stream_ids, p_assumed) WITH ORDINALITY AS s(aggregate_type, aggregate_id, assumed, ord)
          ), recorded AS MATERIALIZED (
            SELECT c.ord FROM unnest(p_command_types, p_command_stream_ids, p_command_ids) WITH ORDINALITY
              AS c(aggregate_type, aggregate_id, command_id, ord)
            WHERE EXISTS (SELECT 1 FROM es_commands x WHERE x.aggregate_type = c.aggregate_type
                          AND x.aggregate_id = c.aggregate_id AND x.command_id = c.command_id)
          )
          SELECT 'stream', state.ord, state.actual::bigint FROM state
            WHERE EXISTS (SELECT 1 FROM state WHERE actual <> assumed) OR EXISTS (SELECT 1 FROM recorded)
          UNION ALL
          SELECT 'command', recorded.ord, 0::bigint FROM recorded;
        IF FOUND THEN
          RETURN;
        END IF;
        RETURN QUERY
          WITH inserted AS (
            INSERT INTO es_events (aggregate_type, aggregate_id, sequence, event_type, schema_version, payload, metadata,
              occurred_at, event_id, command_id, correlation_id, causation_id, external_id)
            SELECT r.aggregate_type, r.aggregate_id, r.sequence, r.event_type, r.schema_version, coalesce(r.payload, 'null'::json),
              r.metadata, r.occurred_at, r.event_id, r.command_id, r.correlation_id, r.causation_id, r.external_id
            FROM json_to_recordset(p_events) AS r(aggregate_type text, aggregate_id text, sequence integer, event_type text,
              schema_version integer, payload json, metadata json, occurred_at timestamptz, event_id text, command_id text,
              correlation_id text, causation_id text, external_id text)
            RETURNING position
          ), recorded_commands AS (
            INSERT INTO es_commands (aggregate_type, aggregate_id, command_id, sequence_before, sequence_after, created_at)
            SELECT c.aggregate_type, c.aggregate_id, c.command_id, c.sequence_before, c.sequence_after, now()
            FROM json_to_recordset(p_commands) AS c(aggregate_type text, aggregate_id text, command_id text,
              sequence_before integer, sequence_after integer)
          )
          SELECT 'position', 0::bigint, inserted.position FROM inserted;
      END
      $fn$`,
    ],
  },
  {
    version: 4,
    name: 'command fingerprints',
    statements: [
      // NULL for commands recorded before: they are not checked against a repeat.
      `ALTER TABLE es_commands ADD COLUMN fingerprint text`,
      // es_append of migration 3, recording each command's fingerprint too.
      `CREATE OR REPLACE FUNCTION es_append(p_stream_types text[], p_stream_ids text[], p_assumed integer[],
          p_command_types text[], p_command_stream_ids text[], p_command_ids text[], p_events json, p_commands json)
        RETURNS TABLE (kind text, ord bigint, value bigint)
        LANGUAGE plpgsql AS $fn$
      #variable_conflict use_column
      BEGIN
        -- The append lock: positions are taken in commit order, so readers never skip a late commit.
        PERFORM pg_advisory_xact_lock(hashtextextended('es_events:' || current_schema(), 0));
        RETURN QUERY
          WITH state AS MATERIALIZED (
            SELECT s.ord, s.assumed,
              coalesce((SELECT e.sequence FROM es_events e
                        WHERE e.aggregate_type = s.aggregate_type AND e.aggregate_id = s.aggregate_id
                        ORDER BY e.sequence DESC LIMIT 1), 0) AS actual
            FROM unnest(p_stream_types, p_stream_ids, p_assumed) WITH ORDINALITY AS s(aggregate_type, aggregate_id, assumed, ord)
          ), recorded AS MATERIALIZED (
            SELECT c.ord FROM unnest(p_command_types, p_command_stream_ids, p_command_ids) WITH ORDINALITY
              AS c(aggregate_type, aggregate_id, command_id, ord)
            WHERE EXISTS (SELECT 1 FROM es_commands x WHERE x.aggregate_type = c.aggregate_type
                          AND x.aggregate_id = c.aggregate_id AND x.command_id = c.command_id)
          )
          SELECT 'stream', state.ord, state.actual::bigint FROM state
            WHERE EXISTS (SELECT 1 FROM state WHERE actual <> assumed) OR EXISTS (SELECT 1 FROM recorded)
          UNION ALL
          SELECT 'command', recorded.ord, 0::bigint FROM recorded;
        IF FOUND THEN
          RETURN;
        END IF;
        RETURN QUERY
          WITH inserted AS (
            INSERT INTO es_events (aggregate_type, aggregate_id, sequence, event_type, schema_version, payload, metadata,
              occurred_at, event_id, command_id, correlation_id, causation_id, external_id)
            SELECT r.aggregate_type, r.aggregate_id, r.sequence, r.event_type, r.schema_version, coalesce(r.payload, 'null'::json),
              r.metadata, r.occurred_at, r.event_id, r.command_id, r.correlation_id, r.causation_id, r.external_id
            FROM json_to_recordset(p_events) AS r(aggregate_type text, aggregate_id text, sequence integer, event_type text,
              schema_version integer, payload json, metadata json, occurred_at timestamptz, event_id text, command_id text,
              correlation_id text, causation_id text, external_id text)
            RETURNING position
          ), recorded_commands AS (
            INSERT INTO es_commands (aggregate_type, aggregate_id, command_id, sequence_before, sequence_after, created_at, fingerprint)
            SELECT c.aggregate_type, c.aggregate_id, c.command_id, c.sequence_before, c.sequence_after, now(), c.fingerprint
            FROM json_to_recordset(p_commands) AS c(aggregate_type text, aggregate_id text, command_id text,
              sequence_before integer, sequence_after integer, fingerprint text)
          )
          SELECT 'position', 0::bigint, inserted.position FROM inserted;
      END
      $fn$`,
    ],
  },
];
