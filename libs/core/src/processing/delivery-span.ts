import type { SubscriberDefinition } from '../discovery/subscriber-definition.js';
import type { StoredEvent } from '../model/event-envelope.js';
import type { Tracing } from '../runtime/tracing.js';

/**
 * One delivery of an event to a subscriber, in a span whose parent is the append that stored the
 * event (its metadata's `traceparent`): the trace goes on across the store, and what a saga or
 * process manager sends from here is a child of this delivery.
 */
export function deliverySpan<T>(tracing: Tracing, subscriber: SubscriberDefinition, event: StoredEvent, work: () => Promise<T>): Promise<T> {
  const attributes = {
    'es.subscriber': subscriber.name,
    'es.subscriber.kind': subscriber.kind,
    'es.event.type': event.type,
    'es.event.id': event.metadata.eventId,
    'es.event.position': event.position,
    'es.aggregate.type': event.aggregateType,
    'es.aggregate.id': event.aggregateId,
    'es.correlation_id': event.metadata.correlationId,
  };
  return tracing.span(`deliver ${subscriber.name} ${event.type}`, { kind: 'consumer', attributes, parentFrom: event.metadata }, work);
}
