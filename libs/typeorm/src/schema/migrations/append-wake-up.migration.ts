import { EventSourcingMigration } from '../event-sourcing-migration.js';

// es_append with a wake-up for the other instances: the NOTIFY is sent by the append's own
// transaction, at its COMMIT, so announcing an append costs no round trip and no transaction of its
// own, and arrives only if the events were written. A null p_wake sends none. The 8-argument
// es_append stays: this one calls it, and instances of an older release keep appending through it.
export const APPEND_WAKE_UP_FUNCTION = `CREATE FUNCTION es_append(p_stream_types text[], p_stream_ids text[], p_assumed integer[],
    p_command_types text[], p_command_stream_ids text[], p_command_ids text[], p_events json, p_commands json, p_wake text)
  RETURNS TABLE (kind text, ord bigint, value bigint)
  LANGUAGE plpgsql AS $fn$
BEGIN
  FOR kind, ord, value IN
    SELECT a.kind, a.ord, a.value
    FROM es_append(p_stream_types, p_stream_ids, p_assumed, p_command_types, p_command_stream_ids, p_command_ids, p_events, p_commands) a
  LOOP
    RETURN NEXT;
  END LOOP;
  -- Position rows: the events were written (state rows mean nothing was).
  IF p_wake IS NOT NULL AND kind = 'position' THEN
    PERFORM pg_notify('es_wake_' || current_schema(), p_wake);
  END IF;
END
$fn$`;

export class EventSourcingAppendWakeUp1764547200005 extends EventSourcingMigration {
  readonly version = 5;
  readonly name = 'EventSourcingAppendWakeUp1764547200005';
  readonly description = 'wake-up sent by the append';
  protected readonly upStatements = {
    sqlite: [],
    postgres: [APPEND_WAKE_UP_FUNCTION],
  };
  protected readonly downStatements = {
    sqlite: [],
    postgres: ['DROP FUNCTION es_append(text[], text[], integer[], text[], text[], text[], json, json, text)'],
  };
}
