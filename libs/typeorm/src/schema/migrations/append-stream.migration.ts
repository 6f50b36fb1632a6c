import { EventSourcingMigration } from '../event-sourcing-migration.js';

const APPEND_STREAM = 'es_append_stream(text, text, integer, integer, text, text, json, text)';

// A lone append (a batch of one request, what one caller sends): the stream and the command id come
// as scalars, so the state check is two index lookups with no arrays to unnest, and the events carry
// only what differs between them. Answers in es_append's rows: state rows (ordinal 1) when the
// assumed state did not hold and nothing was written, else one position row per event.
const APPEND_STREAM_FUNCTION = `CREATE FUNCTION es_append_stream(p_type text, p_id text, p_hash integer, p_assumed integer,
    p_command_id text, p_fingerprint text, p_events json, p_wake text)
  RETURNS TABLE (kind text, ord bigint, value bigint)
  LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $fn$
#variable_conflict use_column
DECLARE
  v_actual integer;
  v_recorded boolean;
  v_written integer;
BEGIN
  -- The append lock: positions are taken in commit order, so readers never skip a late commit.
  PERFORM pg_advisory_xact_lock(hashtextextended('es_events:' || current_schema(), 0));
  v_actual := coalesce((SELECT e.sequence FROM es_events e WHERE e.aggregate_type = p_type AND e.aggregate_id = p_id
                        ORDER BY e.sequence DESC LIMIT 1), 0);
  v_recorded := p_command_id IS NOT NULL AND EXISTS (SELECT 1 FROM es_commands x
                  WHERE x.aggregate_type = p_type AND x.aggregate_id = p_id AND x.command_id = p_command_id);
  IF v_actual <> p_assumed OR v_recorded THEN
    -- Nothing is written: the caller plans again on the state returned.
    RETURN QUERY SELECT 'stream', 1::bigint, v_actual::bigint
      UNION ALL SELECT 'command', 1::bigint, 0::bigint WHERE v_recorded;
    RETURN;
  END IF;
  RETURN QUERY
    INSERT INTO es_events (aggregate_type, aggregate_id, aggregate_hash, sequence, event_type, schema_version, payload, metadata,
      occurred_at, event_id, command_id, correlation_id, causation_id, external_id)
    SELECT p_type, p_id, p_hash, r.sequence, r.event_type, r.schema_version, coalesce(r.payload, 'null'::json), r.metadata,
      r.occurred_at, r.event_id, r.command_id, r.correlation_id, r.causation_id, r.external_id
    FROM json_to_recordset(p_events) AS r(sequence integer, event_type text, schema_version integer, payload json, metadata json,
      occurred_at timestamptz, event_id text, command_id text, correlation_id text, causation_id text, external_id text)
    RETURNING 'position', 0::bigint, position;
  GET DIAGNOSTICS v_written = ROW_COUNT;
  IF p_command_id IS NOT NULL THEN
    INSERT INTO es_commands (aggregate_type, aggregate_id, command_id, sequence_before, sequence_after, created_at, fingerprint)
    VALUES (p_type, p_id, p_command_id, p_assumed, p_assumed + v_written, now(), p_fingerprint);
  END IF;
  -- Sent at COMMIT, and only if events were written.
  IF p_wake IS NOT NULL AND v_written > 0 THEN
    PERFORM pg_notify('es_wake_' || current_schema(), p_wake);
  END IF;
END
$fn$`;

/** es_append_stream: a lone append with scalar arguments, next to es_append, which batches keep. */
export class EventSourcingAppendStream1764547200010 extends EventSourcingMigration {
  readonly version = 10;
  readonly name = 'EventSourcingAppendStream1764547200010';
  readonly description = 'es_append_stream for a lone append';
  protected readonly upStatements = {
    sqlite: [],
    postgres: [APPEND_STREAM_FUNCTION],
  };
  protected readonly downStatements = {
    sqlite: [],
    postgres: [`DROP FUNCTION ${APPEND_STREAM}`],
  };
}
