import type { Type } from '@nestjs/common';
import type { StoredEvent } from '../model/event-envelope.js';

const envelopes = new WeakMap<object, StoredEvent>();

/**
 * The stored event (position, sequence, aggregate, metadata with correlation and causation ids)
 * behind an event published on @nestjs/cqrs's EventBus; undefined for events we did not publish.
 */
export function storedEventOf(event: object): StoredEvent | undefined {
  return envelopes.get(event);
}

/**
 * An instance of the event's class, so `ofType` and `@EventsHandler` match it, built without
 * running the constructor (which may validate or compute). The payload is cloned: handlers must
 * not be able to reach into the aggregate's cached state.
 */
export function toEventInstance(stored: StoredEvent, classRef: Type | undefined): object {
  if (!classRef) throw new Error(`no event class is known for stored event type ${stored.type}`);
  const event = Object.assign(Object.create(classRef.prototype) as object, structuredClone(stored.payload));
  envelopes.set(event, stored);
  return event;
}
