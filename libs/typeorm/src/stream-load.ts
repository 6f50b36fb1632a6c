import type { StreamId } from '@nest-es/core';
import type { LoadedStream, LoadStreamOptions, Snapshot } from '@nest-es/core/adapter';
import { MAX_SEQUENCE } from '@nest-es/core/internal';
import { decodeEvent, EVENT_COLUMNS, type EventRow } from './event-codec.js';
import { decodeSnapshot } from './snapshot-codec.js';
import type { SqlClient } from './sql-client.js';

/** The event columns, all NULL but the sequence: the snapshot's row of LOAD_STREAM_SQL. */
const SNAPSHOT_AS_EVENT_COLUMNS = EVENT_COLUMNS.split(', ')
  .map((column) => (column === 'sequence' ? 'sequence' : 'NULL'))
  .join(', ');

/**
 * A cold aggregate in one statement (one round trip, and on PostgreSQL one MVCC snapshot for both
 * tables): the newest snapshot of the state version at or below the bound, as `loadLatest` finds it,
 * and the stream's events after its sequence up to the bound, as `readStream` reads them. The
 * snapshot comes as a row of its own with no position (events always have one) and its state in a
 * column of its own, so a large state is sent once, not with every event; `ORDER BY sequence` puts it
 * first, as every event after it has a higher sequence.
 */
const LOAD_STREAM_SQL = `WITH newest_snapshot AS (
    SELECT sequence, state, taken_at FROM es_snapshots
    WHERE aggregate_type = ? AND aggregate_id = ? AND state_version = ? AND sequence <= ?
    ORDER BY sequence DESC LIMIT 1
  )
  SELECT ${EVENT_COLUMNS}, NULL AS snapshot_state, NULL AS snapshot_taken_at FROM es_events
  WHERE aggregate_type = ? AND aggregate_id = ? AND sequence > coalesce((SELECT sequence FROM newest_snapshot), 0) AND sequence <= ?
  UNION ALL
  SELECT ${SNAPSHOT_AS_EVENT_COLUMNS}, state, taken_at FROM newest_snapshot
  ORDER BY sequence`;

/** A row of LOAD_STREAM_SQL: an event (snapshot columns null) or the snapshot (position null). */
type StreamRow = EventRow & { snapshot_state: string | null; snapshot_taken_at: number | Date | null };

/** `StreamLoads.loadStream` on either database; a snapshot that is not JSON raises CorruptSnapshotError. */
export async function loadStream(sql: SqlClient, stream: StreamId, options: LoadStreamOptions): Promise<LoadedStream> {
  const { stateVersion, atOrBelow = MAX_SEQUENCE } = options;
  const { aggregateType, aggregateId } = stream;
  const rows = await sql.all<StreamRow>(LOAD_STREAM_SQL, [aggregateType, aggregateId, stateVersion, atOrBelow, aggregateType, aggregateId, atOrBelow]);
  let snapshot: Snapshot | null = null;
  const events = [];
  for (const row of rows) {
    if (row.position !== null) events.push(decodeEvent(row));
    else {
      snapshot = decodeSnapshot(stream, {
        sequence: row.sequence,
        state_version: stateVersion,
        state: row.snapshot_state as string,
        taken_at: row.snapshot_taken_at as number | Date,
      });
    }
  }
  return { snapshot, events };
}
