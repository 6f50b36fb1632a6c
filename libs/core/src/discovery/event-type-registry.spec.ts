import 'reflect-metadata';
import { EventType } from '../decorators/event-type.decorator.js';
import type { StoredEvent } from '../model/event-envelope.js';
import { InMemoryEventStore } from '../store/memory/in-memory-event-store.js';
import { UpcastingEventStore } from '../store/upcasting-event-store.js';
import { EventTypeRegistry } from './event-type-registry.js';

const stored = (type: string, schemaVersion: number, payload: unknown): StoredEvent => ({
  position: 1,
  aggregateType: 'a',
  aggregateId: '1',
  sequence: 1,
  type,
  schemaVersion,
  payload,
  metadata: { eventId: 'e', commandId: null, correlationId: 'c', causationId: null },
  occurredAt: new Date(0),
});

@EventType('shop.Priced', { version: 2, upcasters: { 1: (v1: { price: number }) => ({ cents: v1.price * 100 }) }, formerNames: ['Priced'] })
class Priced {}

describe('EventTypeRegistry', () => {
  const registry = new EventTypeRegistry();
  const problems: string[] = [];
  registry.add(Priced, problems);

  it('upcasts old versions, reads former names as the current one, and leaves current events as they are', () => {
    expect(problems).toEqual([]);
    const current = stored('shop.Priced', 2, { cents: 5 });
    const events = [stored('Priced', 1, { price: 2 }), current, stored('shop.Priced', 1, { price: 1 })];
    const upcast = registry.upcast(events);
    expect(upcast.map((e) => [e.type, e.schemaVersion, e.payload])).toEqual([
      ['shop.Priced', 2, { cents: 200 }],
      ['shop.Priced', 2, { cents: 5 }],
      ['shop.Priced', 2, { cents: 100 }],
    ]);
    expect(upcast[1]).toBe(current);
    expect(events[0].payload).toEqual({ price: 2 });
  });

  it('tells the names a type may be stored under: its name and its former names; an unknown type its own', () => {
    expect(registry.storedNames('shop.Priced')).toEqual(['shop.Priced', 'Priced']);
    expect(registry.storedNames('Unknown')).toEqual(['Unknown']);
  });

  it('lets a partition read through the upcasting store find events stored under a former name, upcast', async () => {
    const adapter = new InMemoryEventStore();
    const store = new UpcastingEventStore(adapter, registry);
    const metadata = (eventId: string) => ({ eventId, commandId: null, correlationId: 'c', causationId: null });
    await adapter.append({
      stream: { aggregateType: 'item', aggregateId: 'i1' },
      expectedSequence: 0,
      events: [
        { type: 'Priced', payload: { price: 2 }, metadata: metadata('e1') },
        { type: 'shop.Named', payload: { name: 'x' }, metadata: metadata('e2') },
        { type: 'shop.Priced', schemaVersion: 2, payload: { cents: 5 }, metadata: metadata('e3') },
      ],
    });

    const page = await store.readPartition({ partition: { index: 0, count: 1 }, types: ['shop.Priced'] });

    expect(page.events.map((e) => [e.position, e.type, e.payload])).toEqual([
      [1, 'shop.Priced', { cents: 200 }],
      [3, 'shop.Priced', { cents: 5 }],
    ]);
    expect(page.scannedTo).toBe(3);
  });

  it('hands back the same array when nothing needs changing, and passes unknown types and newer versions through', () => {
    const events = [stored('shop.Priced', 2, {}), stored('Unknown', 1, {}), stored('shop.Priced', 7, { future: true })];
    expect(registry.upcast(events)).toBe(events);
  });

  it('names the event and position when an upcaster throws', () => {
    @EventType('shop.Broken', { version: 2, upcasters: { 1: () => { throw new Error('no price'); } } })
    class Broken {}
    registry.add(Broken, problems);
    expect(() => registry.upcast([stored('shop.Broken', 1, {})])).toThrow('upcasting shop.Broken at position 1 from version 1 failed: no price');
  });

  it('refuses a name taken by another class, also as a former name', () => {
    @EventType('Priced')
    class Clash {}
    const found: string[] = [];
    registry.add(Clash, found);
    expect(found).toEqual(["event type 'Priced' is declared by two classes: Priced and Clash"]);
  });
});
