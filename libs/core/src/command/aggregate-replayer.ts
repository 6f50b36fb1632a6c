import type { AggregateDefinition } from '../model/aggregate-definition.js';

/** Anything with a type and a payload: a stored event, or one just decided. */
export interface ReplayableEvent {
  type: string;
  payload: unknown;
}

/** Folds events into state with the aggregate's appliers; the hot loop of every rebuild. */
export function replay(aggregate: AggregateDefinition, state: unknown, events: readonly ReplayableEvent[]): unknown {
  const appliers = aggregate.appliers;
  for (let i = 0; i < events.length; i++) {
    const event = events[i];
    const applier = appliers.get(event.type);
    if (applier === undefined) {
      throw new Error(`aggregate '${aggregate.type}' has no @Apply for stored event type ${event.type}`);
    }
    const next = applier(state, event.payload);
    if (next !== undefined) state = next;
  }
  return state;
}
