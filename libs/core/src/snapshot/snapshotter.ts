import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AggregateDefinition } from '../model/aggregate-definition.js';
import type { StreamId } from '../model/event-envelope.js';
import { SNAPSHOT_STORE, type SnapshotStore } from '../store/snapshot-store.js';

/** Persists snapshots after the events are committed; a failure is logged, never the command's. */
@Injectable()
export class Snapshotter {
  private readonly logger = new Logger('Snapshotter');

  constructor(@Inject(SNAPSHOT_STORE) private readonly snapshots: SnapshotStore) {}

  async afterCommit(
    aggregate: AggregateDefinition,
    stream: StreamId,
    fromSequence: number,
    toSequence: number,
    eventTypes: readonly string[],
    state: unknown,
    clientState: unknown,
  ): Promise<void> {
    const policy = aggregate.snapshotPolicy;
    const handed = clientState !== undefined;
    if (!handed && !policy.isDue(fromSequence, toSequence, eventTypes)) return;
    try {
      await this.snapshots.save(
        { stream, sequence: toSequence, stateVersion: aggregate.stateVersion, state: handed ? clientState : state, takenAt: new Date() },
        policy.retain,
      );
    } catch (error) {
      this.logger.warn(
        `snapshot of ${stream.aggregateType}/${stream.aggregateId} at ${toSequence} not saved: ${(error as Error).message}`,
      );
    }
  }
}
