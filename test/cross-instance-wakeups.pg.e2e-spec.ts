import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import pg from 'pg';
import { CommandGateway, EventSourcingModule, OnEvent, Projector, SyncMode, type ProcessingOptions, type ProjectionContext } from '@nest-es/core';
import { type StoreOptions, typeorm } from '@nest-es/typeorm';
import { EventNotifier } from '@nest-es/core/internal';
import { Added, AddMany, CounterAggregate } from './support/counter.aggregate.js';
import { gateEntered, openGate, passGate } from './support/gate.js';
import { createShopApp } from './support/shop-app.js';
import { PlaceOrder, ShopReadModel, StockReserved } from './support/shop.domain.js';
import { createTestStore, TEST_DATABASE_URL, type TestStore } from './support/test-store.js';

/** A projector of reservations only (the second hop of an order's CASCADE) that takes 300 ms over each. */
@Projector('slow-reservations')
class SlowReservations {
  readonly handled: string[] = [];

  @OnEvent(StockReserved)
  async onReserved(_event: StockReserved, { envelope }: ProjectionContext) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    this.handled.push(envelope.aggregateId);
  }
}

/**
 * Commands on one instance, subscribers on another, with a polling backstop far longer than the
 * sync timeout: only PostgreSQL's LISTEN/NOTIFY can wake the other instance in time.
 */
describe('wake-ups between instances on PostgreSQL', () => {
  let store: TestStore;
  let writer: INestApplication;
  let worker: INestApplication;
  let gateway: CommandGateway;

  beforeAll(async () => {
    store = await createTestStore();
    writer = await createShopApp(store.options, { syncTimeoutMs: 15_000, processing: { enabled: false }, providers: [SlowReservations] });
    worker = await createShopApp(store.options, { processing: { pollIntervalMs: 60_000 }, providers: [SlowReservations] });
    gateway = writer.get(CommandGateway);
  });

  afterAll(async () => {
    await writer?.close();
    await worker?.close();
    await store?.cleanup();
  });

  it('SIMPLE returns once the projector of the other instance shows the command', async () => {
    await gateway.send(new PlaceOrder('w1', 'apple', 2), { syncMode: SyncMode.SIMPLE });
    expect(await worker.get(ShopReadModel).order('w1')).toEqual({ status: 'placed', projections: 1 });
  });

  it('CASCADE returns once the saga of the other instance and what it caused are stored and projected', async () => {
    // The second hop (the reservation) is all in the other instance, and one of its projectors takes
    // its time: this process heard none of it, so only the store can tell the wait about it.
    await gateway.send(new PlaceOrder('w2', 'pear', 3), { syncMode: SyncMode.CASCADE, correlationId: 'flow-w2' });
    expect(await worker.get(ShopReadModel).reserved('pear')).toBe(3);
    expect(worker.get(SlowReservations).handled).toContain('pear');
  });

  it('wakes the other instance for every command of a run, not only the first', async () => {
    const view = worker.get(ShopReadModel);
    // A sku per order: one sku's stock (10) would run out, and the other instance's saga would cancel
    // orders past the tenth, racing the read below.
    for (let i = 0; i < 20; i++) {
      await gateway.send(new PlaceOrder(`w3-${i}`, `fig-${i}`, 1), { syncMode: SyncMode.SIMPLE });
      expect(await view.order(`w3-${i}`)).toEqual({ status: 'placed', projections: 1 });
    }
  });
});

/**
 * A lone instance sends no wake-ups (only its own listener would get them); once a second instance
 * says hello, the first wakes it on every append. Heard by a listener that is no instance itself.
 */
describe('wake-ups only once another instance is there', () => {
  let store: TestStore;
  let first: INestApplication;
  let second: INestApplication | undefined;
  let observer: pg.Client;
  const heard: Array<{ message: string; sender: string }> = [];
  const settle = () => new Promise((resolve) => setTimeout(resolve, 200));

  beforeAll(async () => {
    store = await createTestStore();
    first = await createShopApp(store.options, { syncTimeoutMs: 15_000, processing: { enabled: false } });
    observer = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await observer.connect();
    observer.on('notification', ({ payload }) => {
      const [message, sender] = String(payload).split(':');
      heard.push({ message, sender });
    });
    await observer.query(`LISTEN ${observer.escapeIdentifier(`es_wake_${(store.options as { schema: string }).schema}`)}`);
  });

  afterAll(async () => {
    await observer?.end();
    await first?.close();
    await second?.close();
    await store?.cleanup();
  });

  it('a lone instance appends without waking anyone', async () => {
    const gateway = first.get(CommandGateway);
    for (let i = 0; i < 5; i++) await gateway.send(new PlaceOrder(`lone-${i}`, 'apple', 1));
    await settle();
    expect(heard).toEqual([]);
  });

  it('a second instance is greeted and then woken by every append of the first', async () => {
    second = await createShopApp(store.options, { processing: { pollIntervalMs: 60_000 } });
    const gateway = first.get(CommandGateway);
    const view = second.get(ShopReadModel);
    await settle();
    const newcomer = heard.find(({ message }) => message === 'hello')?.sender;
    const answer = heard.find(({ message }) => message === 'here');
    expect(answer?.sender).toBeDefined();
    expect(answer?.sender).not.toBe(newcomer);
    heard.length = 0;
    for (let i = 0; i < 5; i++) {
      await gateway.send(new PlaceOrder(`met-${i}`, `kiwi-${i}`, 1), { syncMode: SyncMode.SIMPLE });
      expect(await view.order(`met-${i}`)).toEqual({ status: 'placed', projections: 1 });
    }
    expect(heard.filter(({ message, sender }) => message === 'append' && sender === answer?.sender)).toHaveLength(5);
  });
});

/** The counter ids this process's probe projected. */
const projected = new Set<string>();
const SLOW_RETRY_GATE = 'cross-instance-held-retry';

/**
 * Projects counters; the counter `held` fails in its batch and when tried alone, so it is held, and
 * its first retry (between the subscription's empty read and its wait) waits at a gate.
 */
@Projector('wake-probe')
class WakeProbe {
  private heldCalls = 0;

  @OnEvent(Added)
  async onAdded(_event: Added, { envelope }: ProjectionContext): Promise<void> {
    if (envelope.aggregateId === 'held' && ++this.heldCalls <= 2) throw new Error('fails until it is held');
    if (envelope.aggregateId === 'held') await passGate(SLOW_RETRY_GATE);
    projected.add(envelope.aggregateId);
  }
}

async function createCounterApp(store: StoreOptions, processing: ProcessingOptions): Promise<INestApplication> {
  const moduleRef = await Test.createTestingModule({
    imports: [EventSourcingModule.forRoot({ adapter: typeorm(store), processing })],
    providers: [CounterAggregate, WakeProbe],
  }).compile();
  const app = moduleRef.createNestApplication({ logger: ['error'] });
  await app.init();
  return app;
}

async function until(check: () => boolean, timeoutMs: number): Promise<boolean> {
  for (const deadline = Date.now() + timeoutMs; !check(); ) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return true;
}

describe('a wake-up from another instance while the subscription is busy', () => {
  let store: TestStore;
  let writer: INestApplication;
  let worker: INestApplication;

  beforeAll(async () => {
    store = await createTestStore();
    writer = await createCounterApp(store.options, { enabled: false });
    worker = await createCounterApp(store.options, { pollIntervalMs: 60_000 });
  });

  afterAll(async () => {
    openGate(SLOW_RETRY_GATE);
    await writer?.close();
    await worker?.close();
    await store?.cleanup();
  });

  it('is not lost: the subscription reads again at once instead of sleeping until the poll', async () => {
    const gateway = writer.get(CommandGateway);
    await gateway.send(new AddMany('held', 1));
    // The worker's subscription read nothing new and is retrying the held event, before its wait.
    await gateEntered(SLOW_RETRY_GATE);
    const notifier = worker.get(EventNotifier);
    const heard = notifier.appendCount;
    await gateway.send(new AddMany('later', 1));
    expect(await until(() => notifier.appendCount > heard, 5_000)).toBe(true);
    openGate(SLOW_RETRY_GATE);
    // Heard while busy: with the wake-up lost, the next read would come with the poll, a minute on.
    expect(await until(() => projected.has('later'), 5_000)).toBe(true);
    expect(projected.has('held')).toBe(true);
  });
});
