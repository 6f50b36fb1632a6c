import type { StoredEvent } from '../model/event-envelope.js';
import { EventNotifier } from '../runtime/event-notifier.js';
import { AppendsHeard } from './appends-heard.js';

function at(position: number, type = 'Ignored', payload: unknown = {}): StoredEvent {
  return { position, type, payload, metadata: { eventId: `e${position}` }, occurredAt: new Date(position) } as StoredEvent;
}

function listening(): { heard: AppendsHeard; notifier: EventNotifier } {
  const notifier = new EventNotifier();
  const heard = new AppendsHeard(notifier, (event) => event.type === 'Handled');
  heard.listen();
  heard.reading();
  heard.caughtUp(true);
  return { heard, notifier };
}

const positions = (events: StoredEvent[] | undefined) => events?.map((event) => event.position);

describe('AppendsHeard', () => {
  it('asks for a read before the first one: nothing is known yet', () => {
    const heard = new AppendsHeard(new EventNotifier(), () => false);
    heard.listen();
    expect(heard.next(0, 10)).toBeUndefined();
  });

  it('passes ignored positions that follow on, in whatever order they were heard, and stops at a gap', () => {
    const { heard, notifier } = listening();
    notifier.appended([at(13)]);
    notifier.appended([at(11)]);
    expect(heard.next(10, 10)).toEqual({ to: 11, events: [] });
    notifier.appended([at(12)]);
    expect(heard.next(11, 10)).toEqual({ to: 13, events: [] });
  });

  it('takes the events it handles among positions that follow on, and each once', () => {
    const { heard, notifier } = listening();
    notifier.appended([at(11), at(12, 'Handled'), at(13)]);
    notifier.appended([at(14, 'Handled')]);
    const run = heard.next(10, 10);
    expect(run?.to).toBe(14);
    expect(positions(run?.events)).toEqual([12, 14]);
    expect(heard.next(14, 10)).toEqual({ to: 14, events: [] });
  });

  it('takes at most `limit` events it handles, the rest on the next call', () => {
    const { heard, notifier } = listening();
    notifier.appended([at(11, 'Handled'), at(12, 'Handled'), at(13), at(14, 'Handled')]);
    const first = heard.next(10, 2);
    expect(first?.to).toBe(12);
    expect(positions(first?.events)).toEqual([11, 12]);
    expect(positions(heard.next(12, 2)?.events)).toEqual([14]);
  });

  it('asks for a read at a gap before an event it handles: what came first is not known', () => {
    const { heard, notifier } = listening();
    notifier.appended([at(12, 'Handled')]);
    expect(heard.next(10, 10)).toBeUndefined();
    // A read moved the subscription past the gap and the event: nothing is left to take.
    expect(heard.next(12, 10)).toEqual({ to: 12, events: [] });
  });

  it('gives each subscription its own copy, as JSON reads it back', () => {
    const notifier = new EventNotifier();
    const [one, two] = [new AppendsHeard(notifier, () => true), new AppendsHeard(notifier, () => true)];
    for (const heard of [one, two]) {
      heard.listen();
      heard.reading();
      heard.caughtUp(true);
    }
    const appended = at(11, 'Handled', { amount: 5, at: new Date(0), skipped: undefined });
    notifier.appended([appended]);
    const [mine] = one.next(10, 10)!.events;
    const [theirs] = two.next(10, 10)!.events;
    (mine.payload as { amount: number }).amount = 6;
    expect(theirs.payload).toStrictEqual({ amount: 5, at: '1970-01-01T00:00:00.000Z' });
    expect(mine.metadata).not.toBe(appended.metadata);
    expect(mine.occurredAt).not.toBe(appended.occurredAt);
    expect(mine.occurredAt.getTime()).toBe(11);
  });

  it('behind the head, keeps no event it handles: it asks for a read, which finds it', () => {
    const { heard, notifier } = listening();
    heard.caughtUp(false);
    notifier.appended([at(11, 'Handled')]);
    expect(heard.next(10, 10)).toBeUndefined();
    heard.reading();
    expect(heard.next(11, 10)).toEqual({ to: 11, events: [] });
  });

  it('asks for a read after an append elsewhere, until the read begins', () => {
    const { heard, notifier } = listening();
    notifier.appended([at(11, 'Handled')]);
    notifier.wokenFromElsewhere('append');
    expect(heard.next(10, 10)).toBeUndefined();
    heard.reading();
    expect(positions(heard.next(10, 10)?.events)).toEqual([11]);
  });

  it('asks for a read instead of keeping more than 10,000 positions it cannot pass', () => {
    const { heard, notifier } = listening();
    notifier.appended(Array.from({ length: 10_000 }, (_, i) => at(12 + i)));
    expect(heard.next(10, 10)).toEqual({ to: 10, events: [] });
    notifier.appended([at(20_000)]);
    expect(heard.next(10, 10)).toBeUndefined();
  });

  it('hears nothing once closed', () => {
    const { heard, notifier } = listening();
    heard.close();
    notifier.appended([at(11, 'Handled')]);
    notifier.wokenFromElsewhere('append');
    expect(heard.next(10, 10)).toEqual({ to: 10, events: [] });
  });
});
