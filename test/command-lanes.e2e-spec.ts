import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { CommandGateway, EventSourcingModule, type EventSourcingModuleOptions } from '@nest-es/core';
import { AddMany, CounterAggregate } from './support/counter.aggregate.js';
import { createTestStore, type TestStore } from './support/test-store.js';
import { typeorm } from '@nest-es/typeorm';

/**
 * Commands on different aggregates that share a dispatcher lane wait for each other. These two ids
 * share one of 64 lanes (their String.hashCode floor-mod 64 is 0 for both) and not one of 1,024 (192
 * and 704), so they show which lane count an app gets by default.
 */
const SLOW_ID = 'lane-a';
const OTHER_ID = 'lane-b21';
const SLOW_MS = 1500;

/** How long a one-event command on OTHER_ID takes while a slow one on SLOW_ID runs. */
async function otherCommandMs(options: Partial<EventSourcingModuleOptions>, store: TestStore): Promise<number> {
  const moduleRef = await Test.createTestingModule({
    imports: [EventSourcingModule.forRoot({ adapter: typeorm(store.options), ...options })],
    providers: [CounterAggregate],
  }).compile();
  const app: INestApplication = moduleRef.createNestApplication({ logger: false });
  await app.init();
  try {
    const gateway = app.get(CommandGateway);
    const slow = gateway.send(new AddMany(SLOW_ID, 1, SLOW_MS));
    const started = Date.now();
    await gateway.send(new AddMany(OTHER_ID, 1));
    const ms = Date.now() - started;
    await slow;
    return ms;
  } finally {
    await app.close();
  }
}

describe('command dispatcher lanes', () => {
  let store: TestStore;

  beforeEach(async () => {
    store = await createTestStore();
  });

  afterEach(async () => {
    await store.cleanup();
  });

  it('by default has enough lanes (1,024) that a slow command does not hold up one on another aggregate', async () => {
    expect(await otherCommandMs({}, store)).toBeLessThan(SLOW_MS / 2);
  });

  it('with 64 lanes, the same two aggregates share one and the second command waits', async () => {
    expect(await otherCommandMs({ dispatcherParallelism: 64 }, store)).toBeGreaterThanOrEqual(SLOW_MS * 0.9);
  });
});
