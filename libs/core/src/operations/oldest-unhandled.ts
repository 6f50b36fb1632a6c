import { partitionOf, WHOLE, type Partition } from '../discovery/subscriber-partitions.js';
import type { SubscriberDefinition } from '../discovery/subscriber-definition.js';
import type { StoredEvent } from '../model/event-envelope.js';
import type { HeldEvent } from '../store/checkpoint-store.js';
import type { CapableEventStore } from '../store/event-store.js';

/** Pages read past a checkpoint looking for the next event it handles: a status report stays cheap. */
const MAX_PAGES = 5;
const PAGE_SIZE = 200;

/**
 * The oldest event a checkpoint handles and has not handled: its oldest held event (held events
 * are all behind the checkpoint), else the first event after the checkpoint of a type it handles
 * and in its partition. Undefined when it is caught up, or when none is found within a few pages.
 */
export async function oldestUnhandled(
  store: CapableEventStore,
  subscriber: SubscriberDefinition,
  partition: Partition,
  position: number,
  held: readonly HeldEvent[],
): Promise<StoredEvent | undefined> {
  if (held.length > 0) {
    const [event] = await store.readAll({ afterPosition: held[0].position - 1, limit: 1 });
    if (event?.position === held[0].position) return event;
  }
  const types = [...subscriber.handlers.keys()];
  // The store filters a process manager's partition by aggregate, not by instance key: filtered here (as its runner does).
  const filter = subscriber.kind === 'process-manager' ? WHOLE : partition;
  let after = position;
  for (let page = 0; page < MAX_PAGES; page++) {
    const { events, scannedTo } = await store.readPartition({ afterPosition: after, limit: PAGE_SIZE, partition: filter, types });
    const found = events.find((event) => partitionOf(subscriber, event, partition.count) === partition.index);
    if (found || events.length === 0 || scannedTo <= after) return found;
    after = scannedTo;
  }
  return undefined;
}
