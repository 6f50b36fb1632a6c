import type { StreamId } from '../model/event-envelope.js';
import { errorMessage } from '../errors/error-message.js';

export interface Snapshot<S = unknown> {
  stream: StreamId;
  /** The aggregate's sequence the state was taken at. */
  sequence: number;
  /** The aggregate's state schema version when it was taken. */
  stateVersion: number;
  state: S;
  takenAt: Date;
}

/** The snapshot store port; TypeORM is one adapter, held to `snapshot-store.contract.spec.ts`. */
export interface SnapshotStore {
  /**
   * Saves (replacing one at the same sequence) and keeps only the newest `retain` of the stream;
   * snapshots of other state versions are dropped, as no aggregate of this version can use them.
   */
  save(snapshot: Snapshot, retain: number): Promise<void>;
  /**
   * The newest snapshot of the stream taken with `stateVersion`, at or below `atOrBelowSequence`
   * when given. Snapshots of other versions are never returned. A snapshot whose state cannot
   * be read back raises `CorruptSnapshotError`.
   */
  loadLatest(stream: StreamId, stateVersion: number, atOrBelowSequence?: number): Promise<Snapshot | null>;
  /** Removes every snapshot of the stream (used by rebuilds). */
  deleteStream(stream: StreamId): Promise<void>;
}

export class CorruptSnapshotError extends Error {
  constructor(
    readonly stream: StreamId,
    readonly sequence: number,
    cause: unknown,
  ) {
    super(
      `snapshot of ${stream.aggregateType}/${stream.aggregateId} at sequence ${sequence} cannot be read: ${errorMessage(cause)}`,
    );
    this.name = 'CorruptSnapshotError';
  }
}

export const SNAPSHOT_STORE = Symbol('SNAPSHOT_STORE');
