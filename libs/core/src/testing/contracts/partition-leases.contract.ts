import { jestGlobals } from './jest-globals.js';
import { randomUUID } from 'node:crypto';
import type { PartitionLeases } from '../../store/partition-leases.js';
import type { ContractSubject } from './contract-subject.js';

/**
 * The PartitionLeases contract as a jest suite, for any adapter that shares subscriber work among
 * instances. Each case leaves what it joined. With `twoProcesses`, the subject's `second()` opens the
 * leases of another instance on the same storage: one holder per unit, and a leave frees them all.
 */
export function describePartitionLeasesContract(name: string, factory: () => Promise<ContractSubject<PartitionLeases>>, options: { twoProcesses?: boolean } = {}): void {
  const { afterAll, beforeAll, describe, expect, it } = jestGlobals();
  let subject: ContractSubject<PartitionLeases>;
  let leases: PartitionLeases;
  const noop = () => undefined;
  const newUnit = (): string => `unit-${randomUUID()}`;

  describe(`PartitionLeases contract (${name})`, () => {
    beforeAll(async () => {
      subject = await factory();
      leases = subject.store;
    });

    afterAll(async () => {
      await subject?.close();
    });

    it('counts a joined instance among the live members', async () => {
      await leases.join(noop);
      const { self, live } = await leases.members();
      expect(live).toContain(self);
      expect([...live].sort((a, b) => a - b)).toEqual(live);
      await leases.leave();
    });

    it('holds a unit once acquired, also when asked again, until it is released', async () => {
      await leases.join(noop);
      const unit = newUnit();
      expect(await leases.tryAcquire(unit)).toBe(true);
      expect(await leases.tryAcquire(unit)).toBe(true);
      await leases.release(unit);
      expect(await leases.tryAcquire(unit)).toBe(true);
      await leases.leave();
    });

    const twoProcesses = options.twoProcesses ? it : it.skip;
    twoProcesses('gives a unit to one instance at a time, and frees every unit of an instance that leaves', async () => {
      const other = await subject.second!();
      try {
        await leases.join(noop);
        await other.store.join(noop);
        const [mine, theirs] = [await leases.members(), await other.store.members()];
        expect(mine.live).toEqual(theirs.live);
        expect(mine.live).toEqual(expect.arrayContaining([mine.self, theirs.self]));
        expect(mine.self).not.toBe(theirs.self);
        const [first, second] = [newUnit(), newUnit()];
        expect(await leases.tryAcquire(first)).toBe(true);
        expect(await other.store.tryAcquire(first)).toBe(false);
        expect(await other.store.tryAcquire(second)).toBe(true);
        expect(await leases.tryAcquire(second)).toBe(false);
        await leases.release(first);
        expect(await other.store.tryAcquire(first)).toBe(true);
        await other.store.leave();
        expect(await leases.tryAcquire(first)).toBe(true);
        expect(await leases.tryAcquire(second)).toBe(true);
        expect((await leases.members()).live).toEqual([mine.self]);
      } finally {
        await leases.leave();
        await other.close();
      }
    });
  });
}
