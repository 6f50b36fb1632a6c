// The TimerStore contract, run on SQLite and on PostgreSQL (ES_TEST_DB, set by the jest project).
import { randomUUID } from 'node:crypto';
import { openTestDataSource, type TestDataSource } from '../../../../test/support/test-database.js';
import type { ProcessTimer, TimerStore } from './timer-store.js';
import { TypeOrmEventStore, TypeOrmTimerStore } from './typeorm/index.js';

let db: TestDataSource;
let timers: TimerStore;

beforeAll(async () => {
  db = await openTestDataSource();
  await TypeOrmEventStore.create(db.dataSource);
  timers = new TypeOrmTimerStore(db.dataSource);
});

afterAll(async () => {
  await db?.close();
});

const timer = (correlationId: string, id = randomUUID()): ProcessTimer => ({
  id,
  owner: 'flow',
  correlationId,
  name: 'turn',
  dueAt: new Date(Date.UTC(2030, 0, 1)),
  payload: { step: id },
});

describe(`TimerStore contract (${process.env.ES_TEST_DB})`, () => {
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
