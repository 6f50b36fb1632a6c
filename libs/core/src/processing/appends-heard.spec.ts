import type { StoredEvent } from '../model/event-envelope.js';
import { EventNotifier } from '../runtime/event-notifier.js';
import { AppendsHeard } from './appends-heard.js';

function at(position: number, type = 'Ignored'): StoredEvent {
  return { position, type } as StoredEvent;
}

function listening(): { heard: AppendsHeard; notifier: EventNotifier } {
  const notifier = new EventNotifier();
  const heard = new AppendsHeard(notifier, (event) => event.type === 'Handled');
  heard.listen();
  heard.reading();
  return { heard, notifier };
}

describe('AppendsHeard', () => {
  it('asks for a read before the first one: nothing is known yet', () => {
    const heard = new AppendsHeard(new EventNotifier(), () => false);
    heard.listen();
    expect(heard.passable(0)).toBeUndefined();
  });

  it('passes ignored positions that follow on, in whatever order they were heard, and stops at a gap', () => {
    const { heard, notifier } = listening();
    notifier.appended([at(13)]);
    notifier.appended([at(11)]);
    expect(heard.passable(10)).toBe(11);
    notifier.appended([at(12)]);
    expect(heard.passable(11)).toBe(13);
  });

  it('asks for a read after an event it handles, or an append elsewhere, until the read begins', () => {
    const { heard, notifier } = listening();
    notifier.appended([at(11), at(12, 'Handled')]);
    expect(heard.passable(10)).toBeUndefined();
    heard.reading();
    expect(heard.passable(12)).toBe(12);
    notifier.wokenFromElsewhere('append');
    expect(heard.passable(12)).toBeUndefined();
  });

  it('asks for a read instead of keeping more than 10,000 positions it cannot pass', () => {
    const { heard, notifier } = listening();
    notifier.appended(Array.from({ length: 10_000 }, (_, i) => at(12 + i)));
    expect(heard.passable(10)).toBe(10);
    notifier.appended([at(20_000)]);
    expect(heard.passable(10)).toBeUndefined();
  });

  it('hears nothing once closed', () => {
    const { heard, notifier } = listening();
    heard.close();
    notifier.appended([at(11, 'Handled')]);
    notifier.wokenFromElsewhere('append');
    expect(heard.passable(10)).toBe(10);
  });
});
