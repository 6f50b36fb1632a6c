import { jestGlobals } from './jest-globals.js';
import { randomUUID } from 'node:crypto';
import type { StreamId } from '../../model/event-envelope.js';
import { CorruptSnapshotError, type Snapshot, type SnapshotStore } from '../../store/snapshot-store.js';
import type { ContractSubject } from './contract-subject.js';

/**
 * The SnapshotStore contract as a jest suite, for any adapter. With `corrupt` (spoils the stored
 * state of a stream's snapshot behind the store's back), the unreadable-state case runs too.
 */
export function describeSnapshotStoreContract(
  name: string,
  factory: () => Promise<ContractSubject<SnapshotStore>>,
  options: { corrupt?: (stream: StreamId) => Promise<void> } = {},
): void {
  const { afterAll, beforeAll, describe, expect, it } = jestGlobals();
  let subject: ContractSubject<SnapshotStore>;
  let store: SnapshotStore;

  const newStream = (): StreamId => ({ aggregateType: 'table', aggregateId: randomUUID() });

  const snapshot = (stream: StreamId, sequence: number, stateVersion = 1, state: unknown = { seats: sequence }): Snapshot => ({
    stream,
    sequence,
    stateVersion,
    state,
    takenAt: new Date(Date.UTC(2024, 0, 1, 0, 0, sequence)),
  });

  describe(`SnapshotStore contract (${name})`, () => {
    beforeAll(async () => {
      subject = await factory();
      store = subject.store;
    });

    afterAll(async () => {
      await subject?.close();
    });

    it('returns null when the stream has no snapshot', async () => {
      expect(await store.loadLatest(newStream(), 1)).toBeNull();
    });

    it('reads a snapshot back as it was saved', async () => {
      const stream = newStream();
      const saved = snapshot(stream, 7, 3, { players: ['Ada', 'Grace'], pot: 12.5, dealer: null, note: 'naïve ✓' });
      await store.save(saved, 3);
      expect(await store.loadLatest(stream, 3)).toEqual(saved);
    });

    it('loads the newest snapshot of the requested state version only', async () => {
      const stream = newStream();
      await store.save(snapshot(stream, 10, 1), 10);
      await store.save(snapshot(stream, 20, 1), 10);

      expect((await store.loadLatest(stream, 1))?.sequence).toBe(20);
      expect(await store.loadLatest(stream, 2)).toBeNull();
      expect(await store.loadLatest(newStream(), 1)).toBeNull();
    });

    it('drops the snapshots of other state versions when one is saved', async () => {
      const stream = newStream();
      const other = newStream();
      await store.save(snapshot(other, 10, 1), 10);
      await store.save(snapshot(stream, 10, 1), 10);
      await store.save(snapshot(stream, 20, 1), 10);
      // Also when the new version's snapshot is older than the ones it replaces.
      await store.save(snapshot(stream, 15, 2), 10);

      expect(await store.loadLatest(stream, 1)).toBeNull();
      expect((await store.loadLatest(stream, 2))?.sequence).toBe(15);
      expect((await store.loadLatest(other, 1))?.sequence).toBe(10);
    });

    it('loads the newest snapshot at or below a sequence', async () => {
      const stream = newStream();
      for (const sequence of [10, 20, 30]) await store.save(snapshot(stream, sequence), 10);

      expect((await store.loadLatest(stream, 1, 30))?.sequence).toBe(30);
      expect((await store.loadLatest(stream, 1, 29))?.sequence).toBe(20);
      expect((await store.loadLatest(stream, 1, 20))?.sequence).toBe(20);
      expect((await store.loadLatest(stream, 1, 15))?.sequence).toBe(10);
      expect(await store.loadLatest(stream, 1, 9)).toBeNull();
    });

    it('replaces a snapshot saved again at the same sequence', async () => {
      const stream = newStream();
      await store.save(snapshot(stream, 5, 1, { version: 'old' }), 3);
      const replacement = snapshot(stream, 5, 2, { version: 'new' });
      await store.save(replacement, 3);

      expect(await store.loadLatest(stream, 2)).toEqual(replacement);
      expect(await store.loadLatest(stream, 1)).toBeNull();
    });

    it('keeps only the newest `retain` snapshots of a stream', async () => {
      const stream = newStream();
      const other = newStream();
      await store.save(snapshot(other, 1), 5);
      for (const sequence of [1, 2, 3, 4, 5]) await store.save(snapshot(stream, sequence), 3);

      expect((await store.loadLatest(stream, 1))?.sequence).toBe(5);
      expect((await store.loadLatest(stream, 1, 3))?.sequence).toBe(3);
      expect(await store.loadLatest(stream, 1, 2)).toBeNull();
      expect((await store.loadLatest(other, 1))?.sequence).toBe(1);

      await store.save(snapshot(stream, 6), 1);
      expect(await store.loadLatest(stream, 1, 5)).toBeNull();
      expect((await store.loadLatest(stream, 1))?.sequence).toBe(6);
    });

    it('deletes every snapshot of a stream', async () => {
      const stream = newStream();
      const other = newStream();
      await store.save(snapshot(stream, 1), 3);
      await store.save(snapshot(stream, 2, 2), 3);
      await store.save(snapshot(other, 1), 3);

      await store.deleteStream(stream);

      expect(await store.loadLatest(stream, 1)).toBeNull();
      expect(await store.loadLatest(stream, 2)).toBeNull();
      expect(await store.loadLatest(other, 1)).not.toBeNull();
    });

    (options.corrupt ? it : it.skip)('raises CorruptSnapshotError for a state that cannot be read back', async () => {
      const stream = newStream();
      await store.save(snapshot(stream, 4), 3);
      await options.corrupt!(stream);

      const error = await store.loadLatest(stream, 1).catch((e: unknown) => e);

      expect(error).toBeInstanceOf(CorruptSnapshotError);
      expect(error).toMatchObject({ stream, sequence: 4 });
    });
  });
}
