import type { EventStore, StoredEvent } from '@nest-es/core';

/** Every event in the store, in position order, read page by page. */
export async function allStoredEvents(store: Pick<EventStore, 'readAll'>): Promise<StoredEvent[]> {
  const all: StoredEvent[] = [];
  for (let batch = await store.readAll(); batch.length > 0; batch = await store.readAll({ afterPosition: batch[batch.length - 1].position })) all.push(...batch);
  return all;
}
