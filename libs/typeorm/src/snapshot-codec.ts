import type { StreamId } from '@nest-es/core';
import { CorruptSnapshotError, type Snapshot } from '@nest-es/core/adapter';

/** A snapshot row as either database returns it (see SqlClient). */
export interface SnapshotRow {
  sequence: number;
  state_version: number;
  state: string;
  taken_at: number | Date;
}

/** The snapshot of a row; a state that is not JSON raises CorruptSnapshotError. */
export function decodeSnapshot(stream: StreamId, row: SnapshotRow): Snapshot {
  let state: unknown;
  try {
    state = JSON.parse(row.state);
  } catch (error) {
    throw new CorruptSnapshotError(stream, row.sequence, error);
  }
  return {
    stream,
    sequence: row.sequence,
    stateVersion: row.state_version,
    state,
    takenAt: row.taken_at instanceof Date ? row.taken_at : new Date(row.taken_at),
  };
}
