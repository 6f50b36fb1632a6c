import type { SubscriberDefinition } from './subscriber-definition.js';
import type { ProcessingOptions } from '../config/event-sourcing-options.js';
import { groupKey } from '../scheduling/group-key.js';
import type { StoredEvent } from '../model/event-envelope.js';
import type { Partition } from '../model/key-partition.js';

export type { Partition };

export const WHOLE: Partition = { index: 0, count: 1 };

/** Partitions per subscriber: 1 unless scale-out asks for more. */
export function partitionCount(processing: ProcessingOptions | undefined): number {
  return processing?.scaleOut?.partitions ?? 1;
}

/**
 * The name a partition keeps its checkpoint (and its lease) under. An unpartitioned subscriber keeps
 * its own name, so turning scale-out on with one partition continues from the existing checkpoint.
 */
export function checkpointName(subscriber: string, partition: Partition): string {
  return partition.count === 1 ? subscriber : `${subscriber}#${partition.index}/${partition.count}`;
}

/**
 * Events of one aggregate stay in one partition (their order is kept); a process manager's stay
 * together by correlation id, its instance's id.
 */
export function partitionOf(subscriber: SubscriberDefinition, event: StoredEvent, count: number): number {
  return partitionOfKey(subscriber.kind === 'process-manager' ? event.metadata.correlationId : event.aggregateId, count);
}

export function partitionOfKey(key: string, count: number): number {
  return count === 1 ? 0 : groupKey(key, count);
}
