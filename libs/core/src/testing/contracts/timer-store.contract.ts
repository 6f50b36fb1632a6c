import { jestGlobals } from './jest-globals.js';
import { randomUUID } from 'node:crypto';
import type { ScheduledTimer, TimerStore } from '../../store/timer-store.js';
import type { ContractSubject } from './contract-subject.js';

/** The TimerStore contract as a jest suite, for any adapter. */
export function describeTimerStoreContract(name: string, factory: () => Promise<ContractSubject<TimerStore>>): void {
  const { afterAll, beforeAll, describe, expect, it } = jestGlobals();
  let subject: ContractSubject<TimerStore>;
  let timers: TimerStore;

  /** A timer of the instance `correlationId` (kept on it for the test to read back). */
  const timer = (correlationId: string, id = randomUUID()): ScheduledTimer & { correlationId: string } => ({
    id,
    correlationId,
    name: 'turn',
    dueAt: new Date(Date.UTC(2030, 0, 1)),
    payload: { step: id },
  });

  describe(`TimerStore contract (${name})`, () => {
    beforeAll(async () => {
      subject = await factory();
      timers = subject.store;
    });

    afterAll(async () => {
      await subject?.close();
    });

    it('keeps one timer per id and cancels by name', async () => {
      const correlationId = randomUUID();
      const first = timer(correlationId);
      await timers.change('flow', correlationId, [], [first]);
      await timers.change('flow', correlationId, [], [{ ...first, payload: 'again' }, first]);
      expect(await timers.pending('flow', correlationId)).toEqual([{ ...first, owner: 'flow', correlationId }]);
      await timers.change('flow', correlationId, ['turn'], []);
      expect(await timers.pending('flow', correlationId)).toEqual([]);
    });

    it("cancels only the instance's pending timers of the names given", async () => {
      const correlationId = randomUUID();
      const turn = timer(correlationId);
      const other = { ...timer(correlationId), name: 'reminder' };
      const elsewhere = timer(randomUUID());
      await timers.change('flow', correlationId, [], [turn, other]);
      await timers.change('flow', elsewhere.correlationId, [], [elsewhere]);
      await timers.change('other-flow', correlationId, [], [timer(correlationId)]);
      await timers.change('flow', correlationId, ['turn', 'absent'], []);
      expect((await timers.pending('flow', correlationId)).map((pending) => pending.id)).toEqual([other.id]);
      expect(await timers.pending('flow', elsewhere.correlationId)).toHaveLength(1);
      expect(await timers.pending('other-flow', correlationId)).toHaveLength(1);
    });

    it('a step that cancels a name and schedules it anew keeps the new timer', async () => {
      const correlationId = randomUUID();
      const step1 = timer(correlationId);
      const step2 = timer(correlationId);
      await timers.change('flow', correlationId, ['turn'], [step1]);
      await timers.change('flow', correlationId, ['turn'], [step2]);
      expect((await timers.pending('flow', correlationId)).map((pending) => pending.id)).toEqual([step2.id]);
    });

    it('brings back a cancelled timer scheduled again under its id: a replayed step that cancels, then schedules, keeps its timer', async () => {
      const correlationId = randomUUID();
      const step1 = timer(correlationId);
      const step2 = timer(correlationId);
      // First run: each step cancels the previous timer and schedules its own.
      await timers.change('flow', correlationId, ['turn'], [step1]);
      await timers.change('flow', correlationId, ['turn'], [step2]);
      // Both steps redelivered after a crash: the same cancels and schedules again.
      await timers.change('flow', correlationId, ['turn'], [step1]);
      expect((await timers.pending('flow', correlationId)).map((pending) => pending.id)).toEqual([step1.id]);
      await timers.change('flow', correlationId, ['turn'], [step2]);
      expect((await timers.pending('flow', correlationId)).map((pending) => pending.id)).toEqual([step2.id]);
      // The last step once more, its timer pending: the timer stays.
      await timers.change('flow', correlationId, ['turn'], [step2]);
      expect((await timers.pending('flow', correlationId)).map((pending) => pending.id)).toEqual([step2.id]);
    });

    it('never brings back nor cancels a timer that fired', async () => {
      const correlationId = randomUUID();
      const fired = timer(correlationId);
      await timers.change('flow', correlationId, [], [fired]);
      expect(await timers.markFired(fired.id)).toBe(true);
      await timers.change('flow', correlationId, ['turn'], [fired]);
      expect(await timers.pending('flow', correlationId)).toEqual([]);
      expect(await timers.markFired(fired.id)).toBe(false);
    });

    it('gives due timers oldest first, up to the limit, with their payloads', async () => {
      const correlationId = randomUUID();
      const late = { ...timer(correlationId), dueAt: new Date(Date.UTC(2001, 0, 2)), payload: { nested: [1, 'two'] } };
      const early = { ...timer(correlationId), dueAt: new Date(Date.UTC(2001, 0, 1)) };
      await timers.change('flow', correlationId, [], [late, early]);
      const due = (await timers.due(new Date(Date.UTC(2001, 0, 3)), 100)).filter((found) => found.correlationId === correlationId);
      expect(due).toEqual([
        { ...early, owner: 'flow', correlationId },
        { ...late, owner: 'flow', correlationId },
      ]);
    });
  });
}
