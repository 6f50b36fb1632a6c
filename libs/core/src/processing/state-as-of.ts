import { replay } from '../command/aggregate-replayer.js';
import type { EventSourcingRegistry } from '../discovery/event-sourcing-registry.js';
import { InvalidArgumentError } from '../errors/index.js';
import type { EventStore } from '../store/event-store.js';

/**
 * An aggregate's state from its events up to a store position: what it was when a given event was
 * stored, the same every time it is asked (history does not change).
 */
export async function stateAsOf(registry: EventSourcingRegistry, store: EventStore, aggregateType: string, aggregateId: string, position: number): Promise<unknown> {
  const aggregate = registry.aggregates.get(aggregateType);
  if (!aggregate) throw new InvalidArgumentError(`stateOf('${aggregateType}', ...): no aggregate has that type; known: ${[...registry.aggregates.keys()].join(', ')}`);
  const events = await store.readStream({ aggregateType, aggregateId });
  return replay(aggregate, aggregate.initialState(), events.filter((event) => event.position <= position));
}
