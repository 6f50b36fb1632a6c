import { Test } from '@nestjs/testing';
import { CommandGateway, ErrorCode, EventSourcingError, EventSourcingModule, type StoredEvent } from '@nest-es/core';
import { AddMany, CounterAggregate } from './support/counter.aggregate.js';
import { createTestStore, type TestStore } from './support/test-store.js';
import { AdmissionGate, EventSourcingLifecycle, openDataSource } from '@nest-es/core/testing';
import { TypeOrmEventStore } from '@nest-es/core';

async function bootCounter(store: TestStore, shutdownTimeoutMs: number) {
  const moduleRef = await Test.createTestingModule({
    imports: [EventSourcingModule.forRoot({ store: store.options, shutdownTimeoutMs })],
    providers: [CounterAggregate],
  }).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  await app.init();
  return { app, gateway: app.get(CommandGateway), lifecycle: app.get(EventSourcingLifecycle) };
}

async function storedEvents(store: TestStore): Promise<StoredEvent[]> {
  const dataSource = await openDataSource(store.options);
  try {
    const events = await TypeOrmEventStore.create(dataSource);
    const all: StoredEvent[] = [];
    for (let batch = await events.readAll({ limit: 1000 }); batch.length > 0; batch = await events.readAll({ afterPosition: batch[batch.length - 1].position, limit: 1000 })) {
      all.push(...batch);
    }
    return all;
  } finally {
    await dataSource.destroy();
  }
}

/** Each command appends `count` events; after shutdown every command is all there or not there at all. */
function expectWholeCommands(events: StoredEvent[], outcomes: PromiseSettledResult<unknown>[], commandIds: string[], count: number) {
  const perCommand = new Map<string, number>();
  for (const event of events) perCommand.set(String(event.metadata.commandId), (perCommand.get(String(event.metadata.commandId)) ?? 0) + 1);
  outcomes.forEach((outcome, i) => {
    const stored = perCommand.get(commandIds[i]) ?? 0;
    if (outcome.status === 'fulfilled') expect(stored).toBe(count);
    else {
      expect(outcome.reason).toBeInstanceOf(EventSourcingError);
      expect(stored).toBe(0);
    }
  });
  const sequencesByStream = new Map<string, number[]>();
  for (const event of events) {
    const list = sequencesByStream.get(event.aggregateId) ?? [];
    list.push(event.sequence);
    sequencesByStream.set(event.aggregateId, list);
  }
  for (const sequences of sequencesByStream.values()) expect(sequences).toEqual(sequences.map((_, i) => i + 1));
}

describe('graceful shutdown', () => {
  let store: TestStore;

  beforeEach(async () => {
    store = await createTestStore();
  });

  afterEach(async () => {
    await store.cleanup();
  });

  it('drains 200 commands in flight: each is stored whole or refused, and new ones get UNAVAILABLE', async () => {
    const { app, gateway, lifecycle } = await bootCounter(store, 30_000);
    const commandIds = Array.from({ length: 200 }, (_, i) => `drain-${i}`);
    const inFlight = commandIds.map((commandId, i) => gateway.send(new AddMany(`c${i % 20}`, 3, 2), { commandId }));
    const closing = app.close();
    const admission = app.get(AdmissionGate);
    for (let turns = 0; admission.isOpen && turns < 10_000; turns++) await new Promise((resolve) => setImmediate(resolve));
    const late = await gateway.send(new AddMany('late', 1), { commandId: 'late' }).catch((error) => error);
    expect(late).toBeInstanceOf(EventSourcingError);
    expect(late.code).toBe(ErrorCode.UNAVAILABLE);
    const outcomes = await Promise.allSettled(inFlight);
    await closing;
    expect(lifecycle.stopOutcome).toBe('graceful');
    // Admitted before close: a graceful stop lets every one of them finish.
    expect(outcomes.every((outcome) => outcome.status === 'fulfilled')).toBe(true);
    const events = await storedEvents(store);
    expect(events).toHaveLength(600);
    expectWholeCommands(events, outcomes, commandIds, 3);
  });

  it('force-stops when the deadline is too short, and still writes nothing by halves', async () => {
    const { app, gateway, lifecycle } = await bootCounter(store, 5);
    const commandIds = Array.from({ length: 200 }, (_, i) => `force-${i}`);
    const inFlight = commandIds.map((commandId, i) => gateway.send(new AddMany(`c${i % 10}`, 5, 20), { commandId }));
    await app.close();
    const outcomes = await Promise.allSettled(inFlight);
    expect(lifecycle.stopOutcome).toBe('forced');
    const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect(refused.length).toBeGreaterThan(0);
    for (const outcome of refused) expect((outcome as PromiseRejectedResult).reason.code).toBe(ErrorCode.UNAVAILABLE);
    expectWholeCommands(await storedEvents(store), outcomes, commandIds, 5);
  });
});
