import { APPEND_LOCK_SQL } from './postgres-append-lock.js';

/**
 * The commonest append: one event, no command id to record, alone in its group-commit batch (what one
 * caller's command sends). One plain statement with the event's columns as parameters: the same check
 * and insert as `es_append_stream` without the function call, which costs the server about half of
 * what the function adds to a raw insert (figures in docs/performance.md).
 *
 * Parameters: $1 aggregate type, $2 aggregate id, $3 its hash, $4 the stream's assumed sequence, $5 to
 * $14 the event's columns from `event_type` to `external_id` (as `eventRow` names them), $15 the
 * wake-up payload for other instances (or null for none). Answers in es_append's rows: the event's
 * position, or, when the stream was not at the assumed sequence and nothing was written, the stream's
 * actual sequence (ordinal 1).
 *
 * Safe although a statement reads from a snapshot taken before it waits for the append lock: an
 * append committed in between makes the insert hit the unique stream-sequence key, which the store
 * turns into the same ConcurrencyError, and nothing is written. The lock is taken before the position
 * is (the row comes out of a join with it), so positions still follow commit order. The wake-up goes
 * in the insert's RETURNING, the one part of a statement that always runs. Its leading comment names
 * it where operators see statements (pg_stat_activity, the server's log).
 */
export const ONE_EVENT_APPEND_SQL = `/* es_append of one event */
WITH locked AS MATERIALIZED (${APPEND_LOCK_SQL}),
  state AS MATERIALIZED (
    SELECT coalesce((SELECT e.sequence FROM es_events e WHERE e.aggregate_type = $1::text AND e.aggregate_id = $2::text
                     ORDER BY e.sequence DESC LIMIT 1), 0) AS actual
    FROM locked
  ),
  written AS (
    INSERT INTO es_events (aggregate_type, aggregate_id, aggregate_hash, sequence, event_type, schema_version, payload, metadata,
      occurred_at, event_id, command_id, correlation_id, causation_id, external_id)
    SELECT $1::text, $2::text, $3::integer, $4::integer + 1, $5::text, $6::integer, coalesce($7::json, 'null'::json), $8::json,
      $9::timestamptz, $10::text, $11::text, $12::text, $13::text, $14::text
    FROM state WHERE actual = $4::integer
    RETURNING position, CASE WHEN $15::text IS NOT NULL THEN pg_notify('es_wake_' || current_schema(), $15::text) END AS woken
  )
SELECT 'position' AS kind, 0::bigint AS ord, position AS value FROM written
UNION ALL SELECT 'stream', 1, actual FROM state WHERE actual <> $4::integer`;
