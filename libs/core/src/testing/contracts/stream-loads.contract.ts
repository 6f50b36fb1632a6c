import { jestGlobals } from './jest-globals.js';
import { randomUUID } from 'node:crypto';
import type { StreamId } from '../../model/event-envelope.js';
import type { EventStore, LoadedStream, LoadStreamOptions, StreamLoads } from '../../store/event-store.js';
import { CorruptSnapshotError, type Snapshot, type SnapshotStore } from '../../store/snapshot-store.js';
import type { ContractSubject } from './contract-subject.js';

/** An event store with `loadStream` and the snapshot store whose snapshots it reads (one storage). */
export interface StreamLoadsSubject {
  /** The event store under test, with `loadStream`. */
  events: EventStore & StreamLoads;
  /** The snapshot store whose snapshots `loadStream` reads: it saves the cases' snapshots. */
  snapshots: SnapshotStore;
}

/**
 * The `StreamLoads` capability as a jest suite, for an adapter whose event store has it: every
 * `loadStream` answer is checked against the two reads it stands for (`loadLatest` on the snapshot
 * store, then `readStream` after the snapshot). The stores must start empty. With `corrupt` (spoils
 * the stored state of a stream's snapshots behind the stores' back), the unreadable-state case runs too.
 */
export function describeStreamLoadsContract(
  name: string,
  factory: () => Promise<ContractSubject<StreamLoadsSubject>>,
  options: { corrupt?: (stream: StreamId) => Promise<void> } = {},
): void {
  const { afterAll, beforeAll, describe, expect, it } = jestGlobals();
  let subject: ContractSubject<StreamLoadsSubject>;
  let events: EventStore & StreamLoads;
  let snapshots: SnapshotStore;

  const newStream = (aggregateType = 'account', aggregateId: string = randomUUID()): StreamId => ({ aggregateType, aggregateId });

  /** Appends `count` events, one per append, numbered on from `from`. */
  async function appendEvents(stream: StreamId, count: number, from = 0): Promise<void> {
    for (let i = 1; i <= count; i++) {
      await events.append({
        stream,
        expectedSequence: from + i - 1,
        events: [{ type: 'Deposited', payload: { amount: from + i }, metadata: { eventId: randomUUID(), commandId: null, correlationId: 'c', causationId: null } }],
      });
    }
  }

  const snapshot = (stream: StreamId, sequence: number, stateVersion = 1): Snapshot => ({
    stream,
    sequence,
    stateVersion,
    state: { balance: sequence * 10, owners: ['Ada', 'Grace'], note: 'naïve ✓' },
    takenAt: new Date(Date.UTC(2024, 0, 1, 0, 0, sequence)),
  });

  /** What the loader reads without the capability: the newest snapshot, then the events after it. */
  async function twoReads(stream: StreamId, { stateVersion, atOrBelow }: LoadStreamOptions): Promise<LoadedStream> {
    const found = await snapshots.loadLatest(stream, stateVersion, atOrBelow);
    const afterSequence = found?.sequence ?? 0;
    return { snapshot: found, events: await events.readStream(stream, atOrBelow === undefined ? { afterSequence } : { afterSequence, toSequence: atOrBelow }) };
  }

  /** `loadStream`'s answer, after checking it is that of the two reads. */
  async function load(stream: StreamId, loadOptions: LoadStreamOptions): Promise<LoadedStream> {
    const loaded = await events.loadStream(stream, loadOptions);
    expect(loaded).toEqual(await twoReads(stream, loadOptions));
    return loaded;
  }

  /** The answer in brief: the snapshot's sequence (null: none) and the events' sequences. */
  const sequences = ({ snapshot: found, events: read }: LoadedStream) => ({ snapshot: found?.sequence ?? null, events: read.map((event) => event.sequence) });

  describe(`StreamLoads contract (${name})`, () => {
    beforeAll(async () => {
      subject = await factory();
      ({ events, snapshots } = subject.store);
    });

    afterAll(async () => {
      await subject?.close();
    });

    it('loads nothing for a stream with neither events nor snapshots', async () => {
      expect(await load(newStream(), { stateVersion: 1 })).toEqual({ snapshot: null, events: [] });
    });

    it('loads every event of a stream without a snapshot, in sequence order', async () => {
      const stream = newStream();
      await appendEvents(stream, 4);
      expect(sequences(await load(stream, { stateVersion: 1 }))).toEqual({ snapshot: null, events: [1, 2, 3, 4] });
    });

    it('loads the newest snapshot as it was saved, and only the events after it', async () => {
      const stream = newStream();
      await appendEvents(stream, 7);
      await snapshots.save(snapshot(stream, 3), 5);
      await snapshots.save(snapshot(stream, 5), 5);

      const loaded = await load(stream, { stateVersion: 1 });
      expect(loaded.snapshot).toEqual(snapshot(stream, 5));
      expect(sequences(loaded)).toEqual({ snapshot: 5, events: [6, 7] });
    });

    it('loads a snapshot at the stream head with no events after it', async () => {
      const stream = newStream();
      await appendEvents(stream, 3);
      await snapshots.save(snapshot(stream, 3), 5);
      expect(sequences(await load(stream, { stateVersion: 1 }))).toEqual({ snapshot: 3, events: [] });
    });

    it('uses only snapshots of the requested state version, else every event', async () => {
      const stream = newStream();
      await appendEvents(stream, 6);
      await snapshots.save(snapshot(stream, 2, 1), 5);
      // A save of another version drops the first one's snapshots.
      await snapshots.save(snapshot(stream, 4, 2), 5);

      expect(sequences(await load(stream, { stateVersion: 2 }))).toEqual({ snapshot: 4, events: [5, 6] });
      expect(sequences(await load(stream, { stateVersion: 1 }))).toEqual({ snapshot: null, events: [1, 2, 3, 4, 5, 6] });
      expect(sequences(await load(stream, { stateVersion: 3 }))).toEqual({ snapshot: null, events: [1, 2, 3, 4, 5, 6] });
    });

    it('stops at a sequence: neither a snapshot nor an event above it', async () => {
      const stream = newStream();
      await appendEvents(stream, 6);
      await snapshots.save(snapshot(stream, 2), 5);
      await snapshots.save(snapshot(stream, 4), 5);

      expect(sequences(await load(stream, { stateVersion: 1, atOrBelow: 6 }))).toEqual({ snapshot: 4, events: [5, 6] });
      expect(sequences(await load(stream, { stateVersion: 1, atOrBelow: 5 }))).toEqual({ snapshot: 4, events: [5] });
      expect(sequences(await load(stream, { stateVersion: 1, atOrBelow: 4 }))).toEqual({ snapshot: 4, events: [] });
      expect(sequences(await load(stream, { stateVersion: 1, atOrBelow: 3 }))).toEqual({ snapshot: 2, events: [3] });
      expect(sequences(await load(stream, { stateVersion: 1, atOrBelow: 1 }))).toEqual({ snapshot: null, events: [1] });
    });

    it("reads only the stream's own snapshots and events, not those of its id under another type or of another id", async () => {
      const stream = newStream('account');
      const sameId = newStream('ledger', stream.aggregateId);
      const other = newStream('account');
      await appendEvents(sameId, 5);
      await snapshots.save(snapshot(sameId, 3), 5);
      await appendEvents(other, 4);
      await snapshots.save(snapshot(other, 2), 5);
      await appendEvents(stream, 2);

      const loaded = await load(stream, { stateVersion: 1 });
      expect(sequences(loaded)).toEqual({ snapshot: null, events: [1, 2] });
      expect(loaded.events.every((event) => event.aggregateType === 'account' && event.aggregateId === stream.aggregateId)).toBe(true);
      expect(sequences(await load(sameId, { stateVersion: 1 }))).toEqual({ snapshot: 3, events: [4, 5] });
    });

    (options.corrupt ? it : it.skip)('raises CorruptSnapshotError for a snapshot whose state cannot be read back, as loadLatest does', async () => {
      const stream = newStream();
      await appendEvents(stream, 5);
      await snapshots.save(snapshot(stream, 4), 3);
      await options.corrupt!(stream);

      const error = await events.loadStream(stream, { stateVersion: 1 }).catch((e: unknown) => e);

      expect(error).toBeInstanceOf(CorruptSnapshotError);
      expect(error).toMatchObject({ stream, sequence: 4 });
      expect(await snapshots.loadLatest(stream, 1).catch((e: unknown) => e)).toMatchObject({ sequence: 4 });
      // Below it, nothing to spoil: the events alone.
      expect(sequences(await load(stream, { stateVersion: 1, atOrBelow: 3 }))).toEqual({ snapshot: null, events: [1, 2, 3] });
    });
  });
}
