import { EventSourcingMigration } from '../event-sourcing-migration.js';
import { APPEND_FUNCTION_V3 } from './append-function.migration.js';

// es_append of migration 3, recording each command's fingerprint too.
export const APPEND_FUNCTION_V4 = `CREATE OR REPLACE FUNCTION es_append(p_stream_types text[], p_stream_ids text[], p_assumed integer[],
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
$fn$`;

export class EventSourcingCommandFingerprints1764547200004 extends EventSourcingMigration {
  readonly version = 4;
  readonly name = 'EventSourcingCommandFingerprints1764547200004';
  readonly description = 'command fingerprints';
  protected readonly upStatements = {
    // NULL for commands recorded before: they are not checked against a repeat.
    sqlite: ['ALTER TABLE es_commands ADD COLUMN fingerprint TEXT'],
    postgres: ['ALTER TABLE es_commands ADD COLUMN fingerprint text', APPEND_FUNCTION_V4],
  };
  protected readonly downStatements = {
    sqlite: ['ALTER TABLE es_commands DROP COLUMN fingerprint'],
    postgres: [APPEND_FUNCTION_V3, 'ALTER TABLE es_commands DROP COLUMN fingerprint'],
  };
}
