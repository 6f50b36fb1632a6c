import { jestGlobals } from './jest-globals.js';
import { randomUUID } from 'node:crypto';
import type { CheckpointStore, HeldEvent } from '../../store/checkpoint-store.js';
import type { ContractSubject } from './contract-subject.js';

/**
 * The commit half of the CheckpointStore contract as a jest suite, for any adapter: checkpoint moves are
 * compare-and-set, held events are kept and released with them, and a throw in `run` undoes them
 * all. With `twoProcesses`, the subject's `second()` opens the ports again on the same storage, as a
 * competing instance would, for one more case.
 */
export function describeCheckpointCommitContract(
  name: string,
  factory: () => Promise<ContractSubject<CheckpointStore>>,
  options: { twoProcesses?: boolean } = {},
): void {
  const { afterAll, beforeAll, describe, expect, it } = jestGlobals();
  let subject: ContractSubject<CheckpointStore>;
  let transactions: CheckpointStore;
  let checkpoints: CheckpointStore;

  const newSubscriber = (): string => `Projector-${randomUUID()}`;
  const held = (subscriber: string, position: number): HeldEvent => ({ subscriber, position, aggregateType: 'account', aggregateId: `a${position}` });

  /** Moves the checkpoint in a transaction of its own: whether it moved. */
  const advance = (subscriber: string, from: number, to: number, ports = transactions) =>
    ports.run((tx) => ports.advanceCheckpoint(tx, subscriber, from, to));

  class Rollback extends Error {}

  describe(`CheckpointStore commit contract (${name})`, () => {
    beforeAll(async () => {
      subject = await factory();
      transactions = checkpoints = subject.store;
    });

    afterAll(async () => {
      await subject?.close();
    });

    it("resolves with the work's result", async () => {
      expect(await transactions.run(async () => ({ projected: 3 }))).toEqual({ projected: 3 });
    });

    it('moves a checkpoint that never moved from 0', async () => {
      const subscriber = newSubscriber();
      expect(await advance(subscriber, 0, 4)).toBe(true);
      expect(await checkpoints.load(subscriber)).toBe(4);
      expect((await checkpoints.loadAll()).get(subscriber)).toBe(4);
    });

    it('moves a checkpoint on its own (moveCheckpoint) only from where it is, a first move from 0 included', async () => {
      const subscriber = newSubscriber();
      expect(await transactions.moveCheckpoint(subscriber, 2, 5)).toBe(false);
      expect(await transactions.moveCheckpoint(subscriber, 0, 5)).toBe(true);
      expect(await transactions.moveCheckpoint(subscriber, 0, 9)).toBe(false);
      expect(await transactions.moveCheckpoint(subscriber, 4, 9)).toBe(false);
      expect(await transactions.moveCheckpoint(subscriber, 5, 9)).toBe(true);
      expect(await checkpoints.load(subscriber)).toBe(9);
      expect(await advance(subscriber, 5, 12)).toBe(false);
      expect(await advance(subscriber, 9, 12)).toBe(true);
    });

    it('moves a checkpoint only from where it is, and otherwise leaves it', async () => {
      const subscriber = newSubscriber();
      expect(await advance(subscriber, 3, 5)).toBe(false);
      expect(await checkpoints.load(subscriber)).toBe(0);
      expect(await advance(subscriber, 0, 5)).toBe(true);
      expect(await advance(subscriber, 0, 9)).toBe(false);
      expect(await advance(subscriber, 4, 9)).toBe(false);
      expect(await advance(subscriber, 6, 9)).toBe(false);
      expect(await checkpoints.load(subscriber)).toBe(5);
      expect(await advance(subscriber, 5, 9)).toBe(true);
      expect(await checkpoints.load(subscriber)).toBe(9);
    });

    it('moves a checkpoint again within the transaction that moved it, from where that left it', async () => {
      const subscriber = newSubscriber();
      const moves = await transactions.run(async (tx) => [
        await transactions.advanceCheckpoint(tx, subscriber, 0, 3),
        await transactions.advanceCheckpoint(tx, subscriber, 0, 8),
        await transactions.advanceCheckpoint(tx, subscriber, 3, 7),
      ]);
      expect(moves).toEqual([true, false, true]);
      expect(await checkpoints.load(subscriber)).toBe(7);
    });

    it('moves one checkpoint for one of two transactions that move it from the same position at once', async () => {
      const subscriber = newSubscriber();
      expect((await Promise.all([advance(subscriber, 0, 2), advance(subscriber, 0, 3)])).sort()).toEqual([false, true]);
      const at = await checkpoints.load(subscriber);
      expect([2, 3]).toContain(at);
      expect((await Promise.all([advance(subscriber, at, 10), advance(subscriber, at, 11)])).sort()).toEqual([false, true]);
    });

    it('undoes the checkpoint moves, holds and releases of a transaction whose work throws, and rejects with the error', async () => {
      const subscriber = newSubscriber();
      await transactions.run(async (tx) => {
        await transactions.holdEvent(tx, held(subscriber, 2));
        await transactions.advanceCheckpoint(tx, subscriber, 0, 3);
      });
      const thrown = new Rollback('the projection failed');
      const done: boolean[] = [];
      const outcome = transactions.run(async (tx) => {
        done.push(await transactions.releaseEvent(tx, subscriber, 2));
        await transactions.holdEvent(tx, held(subscriber, 5));
        done.push(await transactions.advanceCheckpoint(tx, subscriber, 3, 6));
        throw thrown;
      });
      await expect(outcome).rejects.toBe(thrown);
      expect(done).toEqual([true, true]);
      expect(await checkpoints.load(subscriber)).toBe(3);
      expect(await checkpoints.loadHeld(subscriber)).toEqual([held(subscriber, 2)]);
    });

    it('undoes a reset whose work throws: the checkpoint and its held events stay', async () => {
      const subscriber = newSubscriber();
      await transactions.run(async (tx) => {
        await transactions.holdEvent(tx, held(subscriber, 1));
        await transactions.advanceCheckpoint(tx, subscriber, 0, 2);
      });
      const outcome = transactions.run(async (tx) => {
        await transactions.resetCheckpoint(tx, subscriber);
        throw new Rollback('clearing the read model failed');
      });
      await expect(outcome).rejects.toBeInstanceOf(Rollback);
      expect(await checkpoints.load(subscriber)).toBe(2);
      expect(await checkpoints.loadHeld(subscriber)).toEqual([held(subscriber, 1)]);
    });

    it("keeps held events in position order, once each, apart from other subscribers'", async () => {
      const [subscriber, other] = [newSubscriber(), newSubscriber()];
      await transactions.run(async (tx) => {
        for (const position of [30, 10, 20]) await transactions.holdEvent(tx, held(subscriber, position));
        await transactions.holdEvent(tx, held(subscriber, 10));
        await transactions.holdEvent(tx, held(other, 20));
        await transactions.advanceCheckpoint(tx, subscriber, 0, 30);
      });
      expect(await checkpoints.loadHeld(subscriber)).toEqual([10, 20, 30].map((position) => held(subscriber, position)));
      expect(await checkpoints.loadHeld(other)).toEqual([held(other, 20)]);
      const all = await checkpoints.loadHeld();
      expect(all.filter((event) => event.subscriber === subscriber)).toEqual([10, 20, 30].map((position) => held(subscriber, position)));
      expect(all.filter((event) => event.subscriber === other)).toEqual([held(other, 20)]);
    });

    it("releases a held event once, and only its own subscriber's", async () => {
      const [subscriber, other] = [newSubscriber(), newSubscriber()];
      await transactions.run(async (tx) => {
        await transactions.holdEvent(tx, held(subscriber, 7));
        await transactions.holdEvent(tx, held(other, 7));
      });
      const release = (name: string, position: number) => transactions.run((tx) => transactions.releaseEvent(tx, name, position));
      expect(await release(subscriber, 8)).toBe(false);
      expect(await release(subscriber, 7)).toBe(true);
      expect(await release(subscriber, 7)).toBe(false);
      expect(await checkpoints.loadHeld(subscriber)).toEqual([]);
      expect(await checkpoints.loadHeld(other)).toEqual([held(other, 7)]);
    });

    it('resets a checkpoint to 0 with its held events, and it moves from 0 again; other subscribers keep theirs', async () => {
      const [subscriber, other] = [newSubscriber(), newSubscriber()];
      for (const name of [subscriber, other]) {
        await transactions.run(async (tx) => {
          await transactions.holdEvent(tx, held(name, 3));
          await transactions.advanceCheckpoint(tx, name, 0, 6);
        });
      }
      await transactions.run((tx) => transactions.resetCheckpoint(tx, subscriber));
      expect(await checkpoints.load(subscriber)).toBe(0);
      expect(await checkpoints.loadHeld(subscriber)).toEqual([]);
      expect(await advance(subscriber, 6, 8)).toBe(false);
      expect(await advance(subscriber, 0, 2)).toBe(true);
      expect(await checkpoints.load(other)).toBe(6);
      expect(await checkpoints.loadHeld(other)).toEqual([held(other, 3)]);
    });

    it('resets a checkpoint that never moved', async () => {
      const subscriber = newSubscriber();
      await transactions.run((tx) => transactions.resetCheckpoint(tx, subscriber));
      expect(await checkpoints.load(subscriber)).toBe(0);
      expect(await advance(subscriber, 0, 1)).toBe(true);
    });

    const twoProcesses = options.twoProcesses ? it : it.skip;
    twoProcesses('moves one checkpoint for one of two instances that move it from the same position at once (two processes)', async () => {
      const second = await subject.second!();
      try {
        const subscriber = newSubscriber();
        const moves = await Promise.all([advance(subscriber, 0, 2), advance(subscriber, 0, 3, second.store)]);
        expect([...moves].sort()).toEqual([false, true]);
        const at = await checkpoints.load(subscriber);
        expect(await second.store.load(subscriber)).toBe(at);
        expect(at).toBe(moves[0] ? 2 : 3);
      } finally {
        await second.close();
      }
    });
  });
}
