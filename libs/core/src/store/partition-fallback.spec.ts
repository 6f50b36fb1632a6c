import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { InMemoryEventStore } from './memory/in-memory-event-store.js';
import { readPartitionThroughReadAll } from './partition-fallback.js';

/** A store holding one event per entry: [aggregate id, event type]. */
async function storeOf(events: Array<[string, string]>): Promise<InMemoryEventStore> {
  const store = new InMemoryEventStore();
  for (const [id, type] of events) {
    const stream = { aggregateType: 't', aggregateId: id };
    await store.append({
      stream,
      expectedSequence: await store.streamSequence(stream),
      events: [{ type, payload: {}, metadata: { eventId: randomUUID(), commandId: null, correlationId: 'c', causationId: null } }],
    });
  }
  return store;
}

describe('readPartition through readAll (adapters without partition reads)', () => {
  it('pages a partition exactly as a store that filters where it stores', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c', 'd', 'e'), fc.constantFrom('X', 'Y')), { maxLength: 40 }),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 7 }),
        fc.option(fc.constantFrom(['X'], ['Y'], ['X', 'Y']), { nil: undefined }),
        async (events, count, limit, types) => {
          const store = await storeOf(events);
          for (let index = 0; index < count; index++) {
            let after = 0;
            for (;;) {
              const options = { afterPosition: after, limit, partition: { index, count }, types };
              const [expected, actual] = [await store.readPartition(options), await readPartitionThroughReadAll(store, options)];
              expect(actual.events.map((event) => event.position)).toEqual(expected.events.map((event) => event.position));
              if (actual.events.length < limit) break;
              expect(actual.scannedTo).toBe(expected.scannedTo);
              after = actual.scannedTo;
            }
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
