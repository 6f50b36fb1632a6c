import type { EventStore } from '@nest-es/core';

/**
 * The correlation id a hand's moves must carry for the hand flow to follow them: the one its
 * first event (CardsDealt, from StartHand) was stored under. Undefined while the hand has no events.
 */
export async function handCorrelationId(store: EventStore, handId: string): Promise<string | undefined> {
  const [first] = await store.readStream({ aggregateType: 'hand', aggregateId: handId }, { toSequence: 1 });
  return first?.metadata.correlationId;
}
