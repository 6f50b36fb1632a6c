import type { QueryRunner } from 'typeorm';
import type { Dialect } from '../../sql-client.js';
import { EventSourcingMigration } from '../event-sourcing-migration.js';
import { APPEND_FUNCTION_V4 } from './command-fingerprints.migration.js';

// Java's String.hashCode, as the partitions compute it in JavaScript (model/key-partition.ts): over
// UTF-16 code units, so a character beyond the BMP counts as its surrogate pair. For the backfill and
// for appends of an older release, which do not send the hash.
const STRING_HASH_FUNCTION = `CREATE FUNCTION es_string_hash(p_value text) RETURNS integer
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $fn$
DECLARE
  h bigint := 0;
  c integer;
  ch text;
BEGIN
  FOREACH ch IN ARRAY string_to_array(p_value, NULL) LOOP
    c := ascii(ch);
    IF c > 65535 THEN
      h := (h * 31 + 55296 + ((c - 65536) >> 10)) % 4294967296;
      c := 56320 + ((c - 65536) & 1023);
    END IF;
    h := (h * 31 + c) % 4294967296;
  END LOOP;
  RETURN (CASE WHEN h >= 2147483648 THEN h - 4294967296 ELSE h END)::integer;
END
$fn$`;

/**
 * Positions per backfill statement: each statement stays well within the store's statement timeout
 * (5 s by default) on a loaded machine, however big the table.
 */
export const BACKFILL_CHUNK = 10_000;

const BACKFILL: Record<Dialect, string> = {
  // The hash once per aggregate of the chunk, not once per event.
  postgres: `UPDATE es_events e SET aggregate_hash = ids.hash
    FROM (SELECT aggregate_id, es_string_hash(aggregate_id) AS hash
          FROM (SELECT DISTINCT aggregate_id FROM es_events WHERE position > $1 AND position <= $2) chunk) ids
    WHERE e.position > $1 AND e.position <= $2 AND e.aggregate_id = ids.aggregate_id`,
  // The same hash on SQLite, one character per step of a recursive query.
  sqlite: `UPDATE es_events SET aggregate_hash = (
    WITH RECURSIVE step(i, h) AS (
      SELECT 1, 0
      UNION ALL
      SELECT i + 1, CASE WHEN unicode(substr(es_events.aggregate_id, i, 1)) > 65535
        THEN ((h * 31 + 55296 + ((unicode(substr(es_events.aggregate_id, i, 1)) - 65536) >> 10)) % 4294967296 * 31
          + 56320 + ((unicode(substr(es_events.aggregate_id, i, 1)) - 65536) & 1023)) % 4294967296
        ELSE (h * 31 + unicode(substr(es_events.aggregate_id, i, 1))) % 4294967296 END
      FROM step WHERE i <= length(es_events.aggregate_id)
    )
    SELECT CASE WHEN h >= 2147483648 THEN h - 4294967296 ELSE h END FROM step ORDER BY i DESC LIMIT 1)
  WHERE position > ? AND position <= ?`,
};

/**
 * The part of es_append that writes a batch, from migration 8 on: the events with their aggregate
 * hash (computed here for a caller of an older release, which sends none) and the command records.
 */
export const APPEND_INSERT = `  RETURN QUERY
    WITH inserted AS (
      INSERT INTO es_events (aggregate_type, aggregate_id, aggregate_hash, sequence, event_type, schema_version, payload, metadata,
        occurred_at, event_id, command_id, correlation_id, causation_id, external_id)
      SELECT r.aggregate_type, r.aggregate_id, coalesce(r.aggregate_hash, es_string_hash(r.aggregate_id)), r.sequence, r.event_type,
        r.schema_version, coalesce(r.payload, 'null'::json), r.metadata, r.occurred_at, r.event_id, r.command_id, r.correlation_id, r.causation_id, r.external_id
      FROM json_to_recordset(p_events) AS r(aggregate_type text, aggregate_id text, aggregate_hash integer, sequence integer, event_type text,
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
`;

// es_append of migration 4, storing each event's aggregate hash: sent by the caller (computed in
// JavaScript, no per-row work here), computed here for a caller of an older release, which sends none.
// Planned generically as migration 7 set (a replaced function loses its SET clauses unless restated).
const APPEND_FUNCTION_V8 = `CREATE OR REPLACE FUNCTION es_append(p_stream_types text[], p_stream_ids text[], p_assumed integer[],
    p_command_types text[], p_command_stream_ids text[], p_command_ids text[], p_events json, p_commands json)
  RETURNS TABLE (kind text, ord bigint, value bigint)
  LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $fn$
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
${APPEND_INSERT}END
$fn$`;

/**
 * The hash of each event's aggregate id, so one partition of a subscriber is read in the database
 * instead of every partition reading (and decoding) the whole log. Adding a nullable column without a
 * default rewrites nothing; the backfill then writes each existing row once, a chunk of positions per
 * statement.
 */
export class EventSourcingAggregateHash1764547200008 extends EventSourcingMigration {
  readonly version = 8;
  readonly name = 'EventSourcingAggregateHash1764547200008';
  readonly description = 'aggregate hash for partitioned reads';
  protected readonly upStatements = {
    sqlite: ['ALTER TABLE es_events ADD COLUMN aggregate_hash INTEGER'],
    postgres: ['ALTER TABLE es_events ADD COLUMN aggregate_hash integer', STRING_HASH_FUNCTION, APPEND_FUNCTION_V8],
  };
  protected readonly downStatements = {
    sqlite: ['ALTER TABLE es_events DROP COLUMN aggregate_hash'],
    postgres: [
      APPEND_FUNCTION_V4,
      'ALTER FUNCTION es_append(text[], text[], integer[], text[], text[], text[], json, json) SET plan_cache_mode = force_generic_plan',
      'DROP FUNCTION es_string_hash(text)',
      'ALTER TABLE es_events DROP COLUMN aggregate_hash',
    ],
  };

  protected override async migrateData(runner: QueryRunner, dialect: Dialect): Promise<void> {
    const [{ last }] = (await runner.query('SELECT coalesce(max(position), 0) AS last FROM es_events')) as { last: number | string }[];
    for (let after = 0; after < Number(last); after += BACKFILL_CHUNK) await runner.query(BACKFILL[dialect], [after, after + BACKFILL_CHUNK]);
  }
}
