import type { ProcessingOptions } from '../config/event-sourcing-options.js';
import type { EventSourcingRegistry } from './event-sourcing-registry.js';
import type { SubscriberDefinition } from './subscriber-definition.js';
import { checkpointName, partitionCount, type Partition } from './subscriber-partitions.js';

export interface SubscriberCheckpoint {
  subscriber: SubscriberDefinition;
  partition: Partition;
  checkpoint: string;
}

/**
 * Every checkpoint the application's subscribers keep, whether or not this process runs them: one
 * per subscriber, or one per partition of it under scale-out.
 */
export function subscriberCheckpoints(registry: EventSourcingRegistry, processing: ProcessingOptions | undefined): SubscriberCheckpoint[] {
  const count = partitionCount(processing);
  return [...registry.subscribers.values()].flatMap((subscriber) =>
    Array.from({ length: count }, (_, index) => {
      const partition = { index, count };
      return { subscriber, partition, checkpoint: checkpointName(subscriber.name, partition) };
    }),
  );
}
