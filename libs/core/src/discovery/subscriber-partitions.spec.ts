import type { StoredEvent } from '../model/event-envelope.js';
import type { InstanceKey } from '../decorators/subscriber-types.js';
import type { SubscriberDefinition } from './subscriber-definition.js';
import { instanceKeyOf, routingKey } from './subscriber-partitions.js';

const processManager = (keys: Record<string, InstanceKey>) => ({ kind: 'process-manager', process: { keys: new Map(Object.entries(keys)) } }) as unknown as SubscriberDefinition;
const event = (type: string, payload: unknown) => ({ type, payload, aggregateId: 'h1', metadata: { correlationId: 'c1', eventId: 'e1' } }) as unknown as StoredEvent;

describe('process-manager instance keys', () => {
  it('takes the correlation id unless the event type names a key', () => {
    expect(instanceKeyOf(processManager({}), event('HandStarted', { handId: 'h9' }))).toBe('c1');
  });

  it('takes a named property of the event, or what a function of the event and its envelope gives', () => {
    const subscriber = processManager({ HandStarted: 'handId', CardsDealt: (_event: unknown, envelope: StoredEvent) => envelope.aggregateId });
    expect(instanceKeyOf(subscriber, event('HandStarted', { handId: 'h9' }))).toBe('h9');
    expect(instanceKeyOf(subscriber, event('CardsDealt', {}))).toBe('h1');
  });

  it.each([[{}], [{ handId: '' }], [{ handId: 7 }], [null]])('finds no key in %j, and routes such an event alone, by its own id', (payload) => {
    const subscriber = processManager({ HandStarted: 'handId' });
    expect(instanceKeyOf(subscriber, event('HandStarted', payload))).toBeUndefined();
    expect(routingKey(subscriber, event('HandStarted', payload))).toBe('\u0000e1');
  });

  it('finds no key when the key function throws', () => {
    const subscriber = processManager({ HandStarted: () => { throw new Error('no'); } });
    expect(instanceKeyOf(subscriber, event('HandStarted', {}))).toBeUndefined();
  });
});
