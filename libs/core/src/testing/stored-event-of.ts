import { eventTypeOf } from '../decorators/event-type.decorator.js';
import type { EventMetadata, StoredEvent } from '../model/event-envelope.js';

let nextPosition = 1;

/**
 * An event instance as a subscriber receives it from the store: its declared type and version, its
 * payload as JSON gives it back, and an envelope whose fields you may override.
 */
export function storedEvent(event: object, envelope: Partial<Omit<StoredEvent, 'metadata'>> & { metadata?: Partial<EventMetadata> } = {}): StoredEvent {
  const { name, version } = eventTypeOf(event.constructor);
  const position = envelope.position ?? nextPosition++;
  return {
    position,
    aggregateType: 'test',
    aggregateId: 'test-id',
    sequence: 1,
    type: name,
    schemaVersion: version,
    payload: JSON.parse(JSON.stringify(event)) as unknown,
    occurredAt: new Date('2026-01-01T00:00:00Z'),
    ...envelope,
    metadata: { eventId: `event-${position}`, commandId: null, correlationId: 'test-correlation', causationId: null, ...envelope.metadata },
  };
}
