import { jestGlobals } from './jest-globals.js';
import { randomUUID } from 'node:crypto';
import type { CheckpointStore } from '../../store/checkpoint-store.js';
import type { ContractSubject } from './contract-subject.js';

/**
 * The CheckpointStore contract as a jest suite, for any adapter. The store may hold other checkpoints
 * (each case names its own subscribers). With `twoProcesses`, the subject's `second()` opens another
 * store on the same storage for one more case. Held events and the commit that
 * writes them: see describeCheckpointCommitContract.
 */
export function describeCheckpointStoreContract(name: string, factory: () => Promise<ContractSubject<CheckpointStore>>, options: { twoProcesses?: boolean } = {}): void {
  const { afterAll, beforeAll, describe, expect, it } = jestGlobals();
  let subject: ContractSubject<CheckpointStore>;
  let checkpoints: CheckpointStore;

  const newSubscriber = (): string => `Projector-${randomUUID()}`;

  describe(`CheckpointStore contract (${name})`, () => {
    beforeAll(async () => {
      subject = await factory();
      checkpoints = subject.store;
    });

    afterAll(async () => {
      await subject?.close();
    });

    it('reads 0, and nothing held, for a subscriber that never ran', async () => {
      const subscriber = newSubscriber();
      expect(await checkpoints.load(subscriber)).toBe(0);
      expect((await checkpoints.loadAll()).has(subscriber)).toBe(false);
      expect(await checkpoints.loadHeld(subscriber)).toEqual([]);
    });

    it('reads back the position saved last, also one below the one before (a replay from an earlier point)', async () => {
      const subscriber = newSubscriber();
      await checkpoints.save(subscriber, 10);
      expect(await checkpoints.load(subscriber)).toBe(10);
      await checkpoints.save(subscriber, 25);
      await checkpoints.save(subscriber, 7);
      expect(await checkpoints.load(subscriber)).toBe(7);
    });

    it("keeps each subscriber's checkpoint apart, however alike their names", async () => {
      const base = newSubscriber();
      const names = [base, `${base}:0/2`, `${base}:1/2`, base.toUpperCase(), `${base} `];
      for (const [index, subscriber] of names.entries()) await checkpoints.save(subscriber, 100 + index);
      for (const [index, subscriber] of names.entries()) expect(await checkpoints.load(subscriber)).toBe(100 + index);
    });

    it("lists every subscriber's checkpoint, a saved 0 included, in a map of its own", async () => {
      const [first, second, zero] = [newSubscriber(), newSubscriber(), newSubscriber()];
      await checkpoints.save(first, 3);
      await checkpoints.save(second, 5);
      await checkpoints.save(zero, 0);
      const all = await checkpoints.loadAll();
      expect([first, second, zero].map((subscriber) => all.get(subscriber))).toEqual([3, 5, 0]);
      all.set(first, 99);
      all.delete(second);
      const again = await checkpoints.loadAll();
      expect([again.get(first), again.get(second)]).toEqual([3, 5]);
    });

    it('keeps positions past 32 bits exact, as numbers', async () => {
      const subscriber = newSubscriber();
      const position = 2 ** 40 + 1;
      await checkpoints.save(subscriber, position);
      expect(await checkpoints.load(subscriber)).toBe(position);
      expect((await checkpoints.loadAll()).get(subscriber)).toBe(position);
    });

    const twoProcesses = options.twoProcesses ? it : it.skip;
    twoProcesses('shares checkpoints between two stores on one storage (two processes)', async () => {
      const second = await subject.second!();
      try {
        const subscriber = newSubscriber();
        await checkpoints.save(subscriber, 12);
        expect(await second.store.load(subscriber)).toBe(12);
        await second.store.save(subscriber, 13);
        expect(await checkpoints.load(subscriber)).toBe(13);
      } finally {
        await second.close();
      }
    });
  });
}
