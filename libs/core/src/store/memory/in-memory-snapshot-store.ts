import type { StreamId } from '../../model/event-envelope.js';
import type { Snapshot, SnapshotStore } from '../snapshot-store.js';
import { jsonCopy } from './json-copy.js';

/** Snapshots in memory; states are JSON copies, as a database would store them. */
export class InMemorySnapshotStore implements SnapshotStore {
  private readonly byStream = new Map<string, Snapshot[]>();

  async save(snapshot: Snapshot, retain: number): Promise<void> {
    if (!Number.isInteger(retain) || retain < 1) throw new RangeError(`retain must be a positive integer, got ${retain}`);
    const key = keyOf(snapshot.stream);
    const kept = (this.byStream.get(key) ?? []).filter((s) => s.stateVersion === snapshot.stateVersion && s.sequence !== snapshot.sequence);
    kept.push({ ...snapshot, stream: { ...snapshot.stream }, state: jsonCopy(snapshot.state), takenAt: new Date(snapshot.takenAt.getTime()) });
    kept.sort((a, b) => b.sequence - a.sequence);
    this.byStream.set(key, kept.slice(0, retain));
  }

  async loadLatest(stream: StreamId, stateVersion: number, atOrBelowSequence = Number.MAX_SAFE_INTEGER): Promise<Snapshot | null> {
    const found = (this.byStream.get(keyOf(stream)) ?? []).find((s) => s.stateVersion === stateVersion && s.sequence <= atOrBelowSequence);
    return found ? { ...found, stream: { ...stream }, state: jsonCopy(found.state), takenAt: new Date(found.takenAt.getTime()) } : null;
  }

  async deleteStream(stream: StreamId): Promise<void> {
    this.byStream.delete(keyOf(stream));
  }
}

function keyOf(stream: StreamId): string {
  return `${stream.aggregateType}\u0000${stream.aggregateId}`;
}
