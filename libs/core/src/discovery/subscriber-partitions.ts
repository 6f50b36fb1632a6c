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
  return partition.count === 1 ? subscriber : `${partitionPrefix(subscriber)}${partition.index}/${partition.count}`;
}

/** Among checkpoint names, those of a subscriber's partitions, whatever their count (left by instances under scale-out). */
export function partitionCheckpoints(subscriber: string, checkpoints: Iterable<string>): string[] {
  return [...checkpoints].filter((checkpoint) => checkpoint.startsWith(partitionPrefix(subscriber)));
}

function partitionPrefix(subscriber: string): string {
  return `${subscriber}#`;
}

/**
 * Events of one aggregate stay in one partition (their order is kept); a process manager's stay
 * together by instance key.
 */
export function partitionOf(subscriber: SubscriberDefinition, event: StoredEvent, count: number): number {
  return partitionOfKey(subscriber.kind === 'process-manager' ? routingKey(subscriber, event) : event.aggregateId, count);
}

/**
 * The process-manager instance an event belongs to; undefined when the key the process manager
 * names is missing or not a non-empty string (the event then fails, and is dead-lettered).
 */
export function instanceKeyOf(subscriber: SubscriberDefinition, event: StoredEvent): string | undefined {
  const source = subscriber.process?.keys.get(event.type);
  if (source === undefined) return event.metadata.correlationId;
  try {
    const key = typeof source === 'function' ? source(event.payload, event) : (event.payload as Record<string, unknown> | null)?.[source];
    return typeof key === 'string' && key.length > 0 ? key : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Where an event is routed: its instance; an event without a key goes alone (keyed by its own id),
 * so that its failure holds back no instance.
 */
export function routingKey(subscriber: SubscriberDefinition, event: StoredEvent): string {
  return instanceKeyOf(subscriber, event) ?? `\u0000${event.metadata.eventId}`;
}

export function partitionOfKey(key: string, count: number): number {
  return count === 1 ? 0 : groupKey(key, count);
}
