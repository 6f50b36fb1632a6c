import type { LoggerService } from '@nestjs/common';
import type { StreamId } from '../model/event-envelope.js';
import { CorruptSnapshotError, type Snapshot, type SnapshotStore } from '../store/snapshot-store.js';

/**
 * The newest snapshot an aggregate can start from: of its state version, at or below `atOrBelow`.
 * A snapshot is only a shortcut, never a reason for a command to fail: one that cannot be read is
 * logged and the one before it is tried; when snapshots cannot be read at all, null (replay every event).
 */
export async function newestUsableSnapshot(
  snapshots: SnapshotStore,
  stream: StreamId,
  stateVersion: number,
  atOrBelow: number | undefined,
  logger: LoggerService,
): Promise<Snapshot | null> {
  let bound = atOrBelow;
  for (;;) {
    try {
      return await snapshots.loadLatest(stream, stateVersion, bound);
    } catch (error) {
      // Sequences strictly fall, so this ends after at most the retained snapshots of the stream.
      if (error instanceof CorruptSnapshotError && error.sequence > 1) {
        logger.warn(`${error.message}; trying an older snapshot`);
        bound = error.sequence - 1;
        continue;
      }
      logger.warn(`ignoring the snapshots of ${stream.aggregateType}/${stream.aggregateId}, replaying every event: ${(error as Error).message}`);
      return null;
    }
  }
}
