import type { EventMetadata, NewEvent } from '../model/event-envelope.js';
import { eventTypeOf } from '../decorators/event-type.decorator.js';
import { timeOrderedId } from './time-ordered-id.js';

export type EventMetadataInput = Partial<Pick<EventMetadata, 'eventId'>> & Pick<EventMetadata, 'commandId' | 'correlationId' | 'causationId'> & Record<string, unknown>;

/** An event instance on its way to the store: its declared name and version, payload = its own fields. */
export function toNewEvent(event: object, metadata: EventMetadataInput, occurredAt: Date): NewEvent {
  const full = { ...metadata, eventId: metadata.eventId ?? timeOrderedId() } as EventMetadata;
  const { name, version } = eventTypeOf(event.constructor);
  return { type: name, schemaVersion: version, payload: { ...event }, metadata: full, occurredAt };
}
