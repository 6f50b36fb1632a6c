// A CASCADE wait's log of this process's appends: what a read of the correlation would return, or
// nothing when it cannot tell. Real notifier, events as the store returns them.
import { EventNotifier } from '../runtime/event-notifier.js';
import type { StoredEvent } from '../model/event-envelope.js';
import { CorrelationHeard } from './correlation-heard.js';

function stored(position: number, correlationId: string): StoredEvent {
  return {
    position,
    aggregateType: 'order',
    aggregateId: `o${position}`,
    sequence: 1,
    type: 'OrderPlaced',
    schemaVersion: 1,
    payload: {},
    metadata: { eventId: `e${position}`, commandId: null, correlationId, causationId: null },
    occurredAt: new Date(0),
  };
}

describe('CorrelationHeard', () => {
  let notifier: EventNotifier;
  let heard: CorrelationHeard;

  beforeEach(() => {
    notifier = new EventNotifier();
    heard = new CorrelationHeard(notifier);
  });

  afterEach(() => heard.close());

  it("returns the correlation's events from the first on, in position order, whatever order they were heard in", () => {
    const command = stored(5, 'flow-1');
    notifier.appended([stored(4, 'flow-1'), command]);
    notifier.appended([stored(8, 'flow-1'), stored(6, 'other')]);
    notifier.appended([stored(7, 'flow-1')]);
    expect(heard.eventsOf('flow-1', 5, [command])?.map((event) => event.position)).toEqual([5, 7, 8]);
  });

  it('cannot tell once another instance appended, nor when the events it must contain were not heard (a repeated command)', () => {
    const command = stored(5, 'flow-1');
    notifier.appended([command]);
    expect(heard.eventsOf('flow-1', 5, [stored(3, 'flow-1'), command])).toBeUndefined();
    expect(heard.eventsOf('flow-1', 5, [command])).toHaveLength(1);
    notifier.wokenFromElsewhere('append');
    expect(heard.eventsOf('flow-1', 5, [command])).toBeUndefined();
  });

  it("keeps only the command's correlation once told it, the events heard before included", () => {
    notifier.appended([stored(5, 'flow-1'), stored(6, 'other')]);
    heard.keepOnly('flow-1');
    notifier.appended([stored(7, 'other'), stored(8, 'flow-1')]);
    expect(heard.eventsOf('flow-1', 5, [])?.map((event) => event.position)).toEqual([5, 8]);
    expect(heard.eventsOf('other', 5, [])).toEqual([]);
  });

  it('hears nothing once closed', () => {
    heard.close();
    notifier.appended([stored(5, 'flow-1')]);
    expect(heard.eventsOf('flow-1', 5, [])).toEqual([]);
  });
});
