import { EventNotifier } from './event-notifier.js';
import type { StoredEvent } from '../model/event-envelope.js';

const event = { position: 1 } as StoredEvent;
const LONG_MS = 60_000;

/** Whether the promise settled within a turn of the event loop. */
async function settledNow(promise: Promise<void>): Promise<boolean> {
  return Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => setImmediate(() => resolve(false)))]);
}

describe('EventNotifier', () => {
  it('wakes a reader at once for an append it heard of while it was reading (no lost wake-up)', async () => {
    const notifier = new EventNotifier();
    const seen = notifier.appendCount;
    notifier.appended([event]); // during the reader's read: no waiter registered yet
    expect(await settledNow(notifier.nextAppend(LONG_MS, undefined, seen))).toBe(true);
  });

  it('counts another instance\'s wake-ups, and checkpoint moves, the same way', async () => {
    const notifier = new EventNotifier();
    const appends = notifier.appendCount;
    const checkpoints = notifier.checkpointCount;
    notifier.wokenFromElsewhere('append');
    notifier.checkpointed({ checkpoint: 'view', position: 1, holding: false });
    expect(await settledNow(notifier.nextAppend(LONG_MS, undefined, appends))).toBe(true);
    expect(await settledNow(notifier.nextCheckpoint(LONG_MS, undefined, checkpoints))).toBe(true);
  });

  it('sleeps until the next append when nothing came since, and is woken by it', async () => {
    const notifier = new EventNotifier();
    const waiting = notifier.nextAppend(LONG_MS, undefined, notifier.appendCount);
    expect(await settledNow(waiting)).toBe(false);
    notifier.appended([event]);
    expect(await settledNow(waiting)).toBe(true);
  });

  it('ends the waits of a signal when it aborts, after many waits on it, and only those', async () => {
    const notifier = new EventNotifier();
    const loop = new AbortController();
    const other = new AbortController();
    for (let wait = 0; wait < 3; wait++) {
      const waiting = notifier.nextAppend(LONG_MS, loop.signal);
      notifier.appended([event]);
      expect(await settledNow(waiting)).toBe(true);
    }
    const append = notifier.nextAppend(LONG_MS, loop.signal);
    const checkpoint = notifier.nextCheckpoint(LONG_MS, loop.signal);
    const elsewhere = notifier.nextAppend(LONG_MS, other.signal);
    loop.abort();
    expect([await settledNow(append), await settledNow(checkpoint), await settledNow(elsewhere)]).toEqual([true, true, false]);
    expect(await settledNow(notifier.nextAppend(LONG_MS, loop.signal))).toBe(true);
    other.abort();
    expect(await settledNow(elsewhere)).toBe(true);
  });
});
