import type { DataSource } from 'typeorm';
import type { StreamId } from '@nest-es/core';
import type { Snapshot, SnapshotStore } from '@nest-es/core/adapter';
import { MAX_SEQUENCE } from '@nest-es/core/internal';
import { ensureSchema } from './schema/migrate.js';
import { decodeSnapshot, type SnapshotRow } from './snapshot-codec.js';
import type { SqlClient } from './sql-client.js';
import { sqlClientFor } from './sql-client-for.js';

const SAVE_SQL = `INSERT INTO es_snapshots (aggregate_type, aggregate_id, sequence, state_version, state, taken_at)
  VALUES (?, ?, ?, ?, ?, ?)
  ON CONFLICT (aggregate_type, aggregate_id, sequence)
  DO UPDATE SET state_version = excluded.state_version, state = excluded.state, taken_at = excluded.taken_at`;
/** Deletes other state versions' snapshots and what is older than the version's `retain`-th newest. */
const PRUNE_SQL = `DELETE FROM es_snapshots WHERE aggregate_type = ? AND aggregate_id = ? AND (state_version <> ? OR sequence < (
  SELECT sequence FROM es_snapshots WHERE aggregate_type = ? AND aggregate_id = ? AND state_version = ?
  ORDER BY sequence DESC LIMIT 1 OFFSET ?))`;
const LOAD_LATEST_SQL = `SELECT sequence, state_version, state, taken_at FROM es_snapshots
  WHERE aggregate_type = ? AND aggregate_id = ? AND state_version = ? AND sequence <= ?
  ORDER BY sequence DESC LIMIT 1`;
const DELETE_STREAM_SQL = 'DELETE FROM es_snapshots WHERE aggregate_type = ? AND aggregate_id = ?';

/** Snapshots on TypeORM over SQLite or PostgreSQL; the state is stored as JSON text. */
export class TypeOrmSnapshotStore implements SnapshotStore {
  private readonly sql: SqlClient;

  /** On an initialized DataSource whose schema is up to date (as `openDataSource` leaves it). */
  constructor(dataSource: DataSource) {
    this.sql = sqlClientFor(dataSource);
  }

  /** On an initialized DataSource; brings the schema up to date first (see `ensureSchema`). */
  static async create(dataSource: DataSource): Promise<TypeOrmSnapshotStore> {
    await ensureSchema(dataSource);
    return new TypeOrmSnapshotStore(dataSource);
  }

  async save(snapshot: Snapshot, retain: number): Promise<void> {
    if (!Number.isInteger(retain) || retain < 1) throw new RangeError(`retain must be a positive integer, got ${retain}`);
    const { aggregateType, aggregateId } = snapshot.stream;
    await this.sql.run(SAVE_SQL, [
      aggregateType,
      aggregateId,
      snapshot.sequence,
      snapshot.stateVersion,
      JSON.stringify(snapshot.state ?? null),
      snapshot.takenAt,
    ]);
    const { stateVersion } = snapshot;
    await this.sql.run(PRUNE_SQL, [aggregateType, aggregateId, stateVersion, aggregateType, aggregateId, stateVersion, retain - 1]);
  }

  async loadLatest(stream: StreamId, stateVersion: number, atOrBelowSequence = MAX_SEQUENCE): Promise<Snapshot | null> {
    const [row] = await this.sql.all<SnapshotRow>(LOAD_LATEST_SQL, [
      stream.aggregateType,
      stream.aggregateId,
      stateVersion,
      atOrBelowSequence,
    ]);
    return row === undefined ? null : decodeSnapshot(stream, row);
  }

  async deleteStream(stream: StreamId): Promise<void> {
    await this.sql.run(DELETE_STREAM_SQL, [stream.aggregateType, stream.aggregateId]);
  }
}
