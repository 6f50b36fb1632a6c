import { Inject, Injectable, Logger } from '@nestjs/common';
import { AggregateReader } from '../reading/aggregate-reader.js';
import { replay } from '../command/aggregate-replayer.js';
import type { AggregateDefinition } from '../model/aggregate-definition.js';
import type { StreamId } from '../model/event-envelope.js';
import { EVENT_STORE, type CapableEventStore } from '../store/event-store.js';
import { SNAPSHOT_STORE, type SnapshotStore } from '../store/snapshot-store.js';

export interface RebuildProgress {
  /** Aggregates done so far (rebuilt or failed). */
  aggregates: number;
  eventsReplayed: number;
  snapshotsWritten: number;
  failed: number;
}

export interface RebuildSummary extends RebuildProgress {
  aggregateType: string;
  durationMs: number;
}

/** Ids per page, and events per read: memory stays bounded however many aggregates and events there are. */
const ID_PAGE_SIZE = 500;
const EVENT_PAGE_SIZE = 5000;

/**
 * Regenerates the snapshots of every aggregate of a type from its events alone (existing snapshots
 * are ignored, then replaced by one at the aggregate's current sequence): after a state version
 * change, or a fix to an applier that made the old snapshots wrong. Safe while commands run: a
 * snapshot is only a shortcut, so one that races a command is at worst older than it could be.
 */
@Injectable()
export class SnapshotRebuilder {
  private readonly logger = new Logger('SnapshotRebuilder');

  constructor(
    private readonly reader: AggregateReader,
    @Inject(EVENT_STORE) private readonly store: CapableEventStore,
    @Inject(SNAPSHOT_STORE) private readonly snapshots: SnapshotStore,
  ) {}

  /** How many aggregates of the type have events (the total of a progress bar); NOT_FOUND for an unknown type. */
  async count(aggregateType: string): Promise<number> {
    this.reader.aggregate(aggregateType);
    let total = 0;
    for await (const ids of this.idPages(aggregateType)) total += ids.length;
    return total;
  }

  /** Rebuilds one aggregate after another; `onProgress` hears after each. NOT_FOUND for an unknown type. */
  async rebuild(aggregateType: string, onProgress?: (progress: RebuildProgress) => void): Promise<RebuildSummary> {
    const aggregate = this.reader.aggregate(aggregateType);
    const started = performance.now();
    const progress: RebuildProgress = { aggregates: 0, eventsReplayed: 0, snapshotsWritten: 0, failed: 0 };
    for await (const ids of this.idPages(aggregateType)) {
      for (const aggregateId of ids) {
        try {
          progress.eventsReplayed += await this.rebuildOne(aggregate, { aggregateType, aggregateId });
          progress.snapshotsWritten++;
        } catch (error) {
          // One broken aggregate must not stop the others; its old snapshots are left as they were.
          progress.failed++;
          this.logger.error(`${aggregateType}/${aggregateId} not rebuilt: ${(error as Error).message}`);
        }
        progress.aggregates++;
        onProgress?.({ ...progress });
      }
    }
    return { aggregateType, ...progress, durationMs: performance.now() - started };
  }

  /** Replays every event of the aggregate and replaces its snapshots; the number of events replayed. */
  private async rebuildOne(aggregate: AggregateDefinition, stream: StreamId): Promise<number> {
    let state = aggregate.initialState();
    let sequence = 0;
    for (;;) {
      const events = await this.store.readStream(stream, { afterSequence: sequence, toSequence: sequence + EVENT_PAGE_SIZE });
      if (events.length > 0) {
        state = replay(aggregate, state, events);
        sequence = events[events.length - 1].sequence;
      }
      // Sequences have no gaps: a short page is the last one.
      if (events.length < EVENT_PAGE_SIZE) break;
    }
    // Older snapshots of this version may be wrong too (the reason to rebuild): none is kept.
    await this.snapshots.deleteStream(stream);
    await this.snapshots.save(
      { stream, sequence, stateVersion: aggregate.stateVersion, state, takenAt: new Date() },
      aggregate.snapshotPolicy.retain,
    );
    return sequence;
  }

  private async *idPages(aggregateType: string): AsyncGenerator<string[]> {
    for (let ids = await this.store.streamIds(aggregateType, { limit: ID_PAGE_SIZE }); ids.length > 0; ) {
      yield ids;
      if (ids.length < ID_PAGE_SIZE) return;
      ids = await this.store.streamIds(aggregateType, { afterId: ids[ids.length - 1], limit: ID_PAGE_SIZE });
    }
  }
}
