import type { LoggerService } from '@nestjs/common';
import type { StreamId } from '../model/event-envelope.js';
import type { EventStore, LoadedStream, StreamLoads } from '../store/event-store.js';
import { CorruptSnapshotError, type SnapshotStore } from '../store/snapshot-store.js';
import { newestUsableSnapshot } from './newest-usable-snapshot.js';
import { errorMessage } from '../errors/error-message.js';

/**
 * An aggregate's newest usable snapshot (see `newestUsableSnapshot`) and its events after it, up to
 * `atOrBelow`: in one read when the event store can (`StreamLoads`), else the snapshot, then the events.
 */
export async function streamFromSnapshot(
  store: EventStore & Partial<StreamLoads>,
  snapshots: SnapshotStore,
  stream: StreamId,
  stateVersion: number,
  atOrBelow: number | undefined,
  logger: LoggerService,
): Promise<LoadedStream> {
  // Without a bound, no bound key (as the loader has always asked): an adapter may test for the key.
  if (store.loadStream !== undefined) {
    try {
      return await store.loadStream(stream, atOrBelow === undefined ? { stateVersion } : { stateVersion, atOrBelow });
    } catch (error) {
      // The two reads meet whatever failed as they always have: an unreadable snapshot is logged and
      // skipped for an older one (or for every event), while events that cannot be read fail the load.
      if (!(error instanceof CorruptSnapshotError)) {
        logger.warn(`one read of ${stream.aggregateType}/${stream.aggregateId} failed, reading its snapshot and events apart: ${errorMessage(error)}`);
      }
    }
  }
  const snapshot = await newestUsableSnapshot(snapshots, stream, stateVersion, atOrBelow, logger);
  const afterSequence = snapshot?.sequence ?? 0;
  const events = await store.readStream(stream, atOrBelow === undefined ? { afterSequence } : { afterSequence, toSequence: atOrBelow });
  return { snapshot, events };
}
