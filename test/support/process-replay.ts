import { type StoredEvent } from '@nest-es/core';
import { APPLIERS_METADATA } from '@nest-es/core/internal';

/** Applies a process manager's own events to its state with its `@Apply` methods, as the framework replays them. */
export function replayProcess<S>(process: object, state: S, events: object[]): S {
  const appliers: Array<{ event: Function; methodName: string }> = Reflect.getMetadata(APPLIERS_METADATA, process.constructor) ?? [];
  for (const event of events) {
    const applier = appliers.find((a) => a.event === event.constructor);
    if (!applier) throw new Error(`${process.constructor.name} has no @Apply for ${event.constructor.name}`);
    (process as Record<string, (state: S, event: object) => void>)[applier.methodName](state, JSON.parse(JSON.stringify(event)));
  }
  return state;
}

/** Where an event sits, as a handler's `ctx.envelope` (only the fields handlers read). */
export function envelopeOf(aggregateType: string, aggregateId: string, sequence: number, metadata: Record<string, unknown> = {}): StoredEvent {
  return { aggregateType, aggregateId, sequence, position: sequence, type: '', schemaVersion: 1, payload: {}, occurredAt: new Date(0), metadata: { eventId: `e${sequence}`, commandId: null, correlationId: 'c', causationId: null, ...metadata } };
}
