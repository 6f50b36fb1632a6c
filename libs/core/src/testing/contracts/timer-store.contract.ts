import { jestGlobals } from './jest-globals.js';
import { randomUUID } from 'node:crypto';
import type { ProcessTimer, TimerStore } from '../../store/timer-store.js';
import type { ContractSubject } from './contract-subject.js';

/** The TimerStore contract as a jest suite, for any adapter. */
export function describeTimerStoreContract(name: string, factory: () => Promise<ContractSubject<TimerStore>>): void {
  const { afterAll, beforeAll, describe, expect, it } = jestGlobals();
  let subject: ContractSubject<TimerStore>;
  let timers: TimerStore;

  const timer = (correlationId: string, id = randomUUID()): ProcessTimer => ({
    id,
    owner: 'flow',
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
      await timers.schedule(first);
      await timers.schedule({ ...first, payload: 'again' });
      expect(await timers.pending('flow', correlationId)).toEqual([first]);
      expect(await timers.cancel('flow', correlationId, 'turn')).toBe(1);
      expect(await timers.pending('flow', correlationId)).toEqual([]);
    });

    it('brings back a cancelled timer scheduled again under its id: a replayed step that cancels, then schedules, keeps its timer', async () => {
      const correlationId = randomUUID();
      const step1 = timer(correlationId);
      const step2 = timer(correlationId);
      // First run: each step cancels the previous timer and schedules its own.
      await timers.schedule(step1);
      await timers.cancel('flow', correlationId, 'turn');
      await timers.schedule(step2);
      // Both steps redelivered after a crash: the same cancels and schedules again.
      await timers.cancel('flow', correlationId, 'turn');
      await timers.schedule(step1);
      await timers.cancel('flow', correlationId, 'turn');
      await timers.schedule(step2);
      expect(await timers.pending('flow', correlationId)).toEqual([step2]);
    });

    it('never brings back a timer that fired', async () => {
      const correlationId = randomUUID();
      const fired = timer(correlationId);
      await timers.schedule(fired);
      expect(await timers.markFired(fired.id)).toBe(true);
      await timers.schedule(fired);
      expect(await timers.pending('flow', correlationId)).toEqual([]);
    });
  });
}
