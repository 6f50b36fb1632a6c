import { jestGlobals } from './jest-globals.js';
import { randomUUID } from 'node:crypto';
import type { DeadLetter, DeadLetterStore, NewDeadLetter } from '../../store/dead-letter-store.js';
import type { ContractSubject } from './contract-subject.js';

/** The DeadLetterStore contract as a jest suite, for any adapter. */
export function describeDeadLetterStoreContract(name: string, factory: () => Promise<ContractSubject<DeadLetterStore>>): void {
  const { afterAll, beforeAll, describe, expect, it } = jestGlobals();
  let subject: ContractSubject<DeadLetterStore>;
  let letters: DeadLetterStore;

  const letter = (subscriber: string, n: number): NewDeadLetter => ({
    kind: 'event',
    subscriber,
    aggregateType: 'account',
    aggregateId: `a${n}`,
    messageType: 'Deposited',
    payload: { n },
    context: { position: n },
    reason: 'failed',
    attempts: 5,
  });

  describe(`DeadLetterStore contract (${name})`, () => {
    beforeAll(async () => {
      subject = await factory();
      letters = subject.store;
    });

    afterAll(async () => {
      await subject?.close();
    });

    it('keeps a letter as added, pending, and finds it by id', async () => {
      const added = await letters.add(letter(randomUUID(), 1));
      expect(added).toMatchObject({ ...letter(added.subscriber!, 1), status: 'pending' });
      expect(await letters.get(added.id)).toEqual(added);
      expect(await letters.get(randomUUID())).toBeNull();
    });

    it('resolves a pending letter once', async () => {
      const added = await letters.add(letter(randomUUID(), 1));
      expect(await letters.resolve(added.id, 'discarded', 'not needed')).toBe(true);
      expect(await letters.resolve(added.id, 'retried')).toBe(false);
      expect(await letters.get(added.id)).toMatchObject({ status: 'discarded', reason: 'not needed' });
      expect(await letters.list({ subscriber: added.subscriber!, status: 'pending' })).toEqual([]);
    });

    it('pages through the list oldest first: every letter once, in the unpaged order', async () => {
      const subscriber = randomUUID();
      for (let n = 0; n < 7; n++) await letters.add(letter(subscriber, n));
      const all = await letters.list({ subscriber });
      // Letters added in the same millisecond are ordered by id, so only the set is known here.
      expect(all.map((l) => (l.payload as { n: number }).n).sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
      for (let i = 1; i < all.length; i++) expect(all[i].createdAt.getTime()).toBeGreaterThanOrEqual(all[i - 1].createdAt.getTime());
      const paged: DeadLetter[] = [];
      let after: DeadLetter | undefined;
      // Bounded: a store that ignored `after` would hand out the first page forever.
      for (let pages = 0; pages < 5; pages++) {
        const page = await letters.list({ subscriber, after, limit: 3 });
        paged.push(...page);
        if (page.length < 3) break;
        after = page.at(-1);
      }
      expect(paged).toEqual(all);
      expect(await letters.list({ subscriber, after: all.at(-1) })).toEqual([]);
    });

    it("lists one aggregate's letters when asked", async () => {
      const subscriber = randomUUID();
      for (const n of [1, 2, 1]) await letters.add(letter(subscriber, n));
      const ofA1 = await letters.list({ subscriber, aggregateType: 'account', aggregateId: 'a1' });
      expect(ofA1.map((found) => found.payload)).toEqual([{ n: 1 }, { n: 1 }]);
      expect(await letters.list({ subscriber, aggregateType: 'ledger', aggregateId: 'a1' })).toEqual([]);
    });
  });
}
