import { sliceOfKey } from '../model/key-partition.js';
import type { StoredEvent } from '../model/event-envelope.js';
import type { EventPage, EventStore, ReadPartitionOptions } from './event-store.js';

const DEFAULT_READ_LIMIT = 1000;

/**
 * `readPartition` for an adapter without it: pages of `readAll`, filtered here, until the partition's
 * page is full or the log is read to its end. As gap-safe as `readAll`, at the cost of reading every
 * other partition's events too.
 */
export async function readPartitionThroughReadAll(store: EventStore, options: ReadPartitionOptions): Promise<EventPage> {
  const limit = options.limit ?? DEFAULT_READ_LIMIT;
  const { index, count } = options.partition;
  const types = options.types && new Set(options.types);
  const events: StoredEvent[] = [];
  let after = options.afterPosition ?? 0;
  for (;;) {
    const page = await store.readAll({ afterPosition: after, limit });
    for (const event of page) {
      if (types && !types.has(event.type)) continue;
      if (count !== 1 && sliceOfKey(event.aggregateId, count) !== index) continue;
      events.push(event);
      if (events.length === limit) return { events, scannedTo: event.position };
    }
    if (page.length < limit) return { events, scannedTo: Math.max(after, page.at(-1)?.position ?? after) };
    after = page[page.length - 1].position;
  }
}
