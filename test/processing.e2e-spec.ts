import type { INestApplication } from '@nestjs/common';
import { CommandGateway, ErrorCode, EVENT_STORE, SyncMode, type EventStore } from '@nest-es/core';
import { DEAD_LETTER_STORE, TIMER_STORE } from '@nest-es/core/internal';
import { type DeadLetterStore, type TimerStore } from '@nest-es/core/adapter';
import { DeadLetterService } from '@nest-es/core';
import { ProjectionRebuilder } from '@nest-es/core/internal';
import { createShopApp } from './support/shop-app.js';
import { OrderFlowProcess, PayOrder, PlaceOrder, ShopProjector, ShopReadModel } from './support/shop.domain.js';
import { allStoredEvents } from './support/stored-events.js';
import { createTestStore, type TestStore } from './support/test-store.js';

async function eventually<T>(read: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (accept(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('events out: projectors, sagas, process managers, facts, sync modes', () => {
  let store: TestStore;
  let app: INestApplication;
  let gateway: CommandGateway;
  let view: ShopReadModel;
  let events: EventStore;

  beforeEach(async () => {
    store = await createTestStore();
    app = await createShopApp(store.options, { syncTimeoutMs: 8_000 });
    gateway = app.get(CommandGateway);
    view = app.get(ShopReadModel);
    events = app.get(EVENT_STORE);
  });

  afterEach(async () => {
    await app.close();
    await store.cleanup();
  });

  it('SIMPLE returns once the projection shows the command', async () => {
    await gateway.send(new PlaceOrder('o1', 'apple', 2), { syncMode: SyncMode.SIMPLE });
    expect(await view.order('o1')).toEqual({ status: 'placed', projections: 1 });
  });

  it('ASYNC returns before a slow projector has run', async () => {
    app.get(ShopProjector).delayMs = 300;
    await gateway.send(new PlaceOrder('o2', 'apple', 1));
    expect(await view.order('o2')).toBeUndefined();
    expect(await eventually(() => view.order('o2'), (row) => row !== undefined)).toEqual({ status: 'placed', projections: 1 });
  });

  it('CASCADE returns once the saga command downstream is stored and projected', async () => {
    // The saga's StockReserved is projected well after the saga passed OrderPlaced: only a wait that
    // reads what the saga emitted sees it.
    app.get(ShopProjector).reservedDelayMs = 200;
    const result = await gateway.send(new PlaceOrder('o3', 'pear', 3), { syncMode: SyncMode.CASCADE, correlationId: 'flow-o3' });
    expect(await view.reserved('pear')).toBe(3);
    const downstream = await events.readStream({ aggregateType: 'stock', aggregateId: 'pear' });
    const reserved = downstream.find((event) => event.type === 'StockReserved')!;
    expect(reserved.metadata).toMatchObject({ correlationId: 'flow-o3', commandCausationId: result.events[0].metadata.eventId });
  });

  it('SYNC_TIMEOUT says the command is stored but the wait ran out', async () => {
    app.get(ShopProjector).delayMs = 1_000;
    const error = await gateway.send(new PlaceOrder('o4', 'fig', 1), { syncMode: SyncMode.SIMPLE, syncTimeoutMs: 100 }).catch((e) => e);
    expect(error.code).toBe(ErrorCode.SYNC_TIMEOUT);
    expect(error.message).toMatch(/order\/o4 is stored at sequence 1, but shop-view has not reached position \d+/);
    expect(await events.streamSequence({ aggregateType: 'order', aggregateId: 'o4' })).toBe(1);
  });

  it('SIMPLE waits while the projector holds the command\'s event, until its retries settle it', async () => {
    app.get(ShopProjector).poisonOrders.add('o5');
    // The checkpoint moves past the failed event at once; the event is held, retried, then dead-lettered.
    await gateway.send(new PlaceOrder('o5', 'fig', 1), { syncMode: SyncMode.SIMPLE });
    const deadLetters: DeadLetterStore = app.get(DEAD_LETTER_STORE);
    expect(await deadLetters.list({ kind: 'event', subscriber: 'shop-view' })).toEqual([expect.objectContaining({ aggregateId: 'o5', attempts: 2 })]);
  });

  it('a refused saga command reaches @OnRejected, which compensates', async () => {
    await gateway.send(new PlaceOrder('big', 'melon', 50), { syncMode: SyncMode.CASCADE, correlationId: 'flow-big' });
    expect(await view.order('big')).toEqual({ status: 'cancelled', projections: 2 });
    const order = await events.readStream({ aggregateType: 'order', aggregateId: 'big' });
    expect(order.map((event) => event.type)).toEqual(['OrderPlaced', 'OrderCancelled']);
    expect((order[1].payload as { reason: string }).reason).toMatch(/stock refused: only 10 left, 50 asked/);
  });

  it('facts are appended through appliers once per external id', async () => {
    await gateway.send(new PlaceOrder('f1', 'kiwi', 1), { syncMode: SyncMode.CASCADE });
    await gateway.send(new PlaceOrder('f2', 'kiwi', 1), { syncMode: SyncMode.CASCADE });
    const stock = await events.readStream({ aggregateType: 'stock', aggregateId: 'kiwi' });
    expect(stock.filter((event) => event.type === 'StockCounted')).toHaveLength(1);
    expect(stock.filter((event) => event.type === 'StockReserved')).toHaveLength(2);
    expect(stock.find((event) => event.type === 'StockCounted')!.metadata.externalId).toBe('count-kiwi');
  });

  it('a poison event goes to dead letters after the retries, later events still flow, and a retry works once fixed', async () => {
    const projector = app.get(ShopProjector);
    projector.poisonOrders.add('bad');
    await gateway.send(new PlaceOrder('bad', 'plum', 1));
    await gateway.send(new PlaceOrder('good', 'plum', 1), { syncMode: SyncMode.SIMPLE });
    expect(await view.order('good')).toEqual({ status: 'placed', projections: 1 });
    expect(await view.order('bad')).toBeUndefined();
    const deadLetters: DeadLetterStore = app.get(DEAD_LETTER_STORE);
    // 'good' did not wait for 'bad', which is retried on its own and then dead-lettered.
    const [letter] = await eventually(() => deadLetters.list({ kind: 'event', subscriber: 'shop-view' }), (letters) => letters.length > 0);
    expect(letter).toMatchObject({ messageType: 'OrderPlaced', aggregateId: 'bad', attempts: 2, status: 'pending', reason: 'cannot project order bad' });

    const service = app.get(DeadLetterService);
    await expect(service.retry(letter.id, {})).rejects.toThrow(/cannot project order bad/);
    projector.poisonOrders.delete('bad');
    await service.retry(letter.id, {});
    expect(await view.order('bad')).toEqual({ status: 'placed', projections: 1 });
    expect((await deadLetters.get(letter.id))!.status).toBe('retried');
  });

  it('a process manager keeps its own events, cancels its timer when the order is paid', async () => {
    await gateway.send(new PlaceOrder('p1', 'lime', 1), { correlationId: 'flow-p1', syncMode: SyncMode.CASCADE });
    const timers: TimerStore = app.get(TIMER_STORE);
    expect(await timers.pending('order-flow', 'flow-p1')).toHaveLength(1);
    await gateway.send(new PayOrder('p1'), { correlationId: 'flow-p1', syncMode: SyncMode.CASCADE });
    expect(await timers.pending('order-flow', 'flow-p1')).toHaveLength(0);
    const process = await events.readStream({ aggregateType: 'order-flow', aggregateId: 'flow-p1' });
    expect(process.map((event) => event.type)).toEqual(['OrderTracked', 'OrderSettled']);
    expect(process[1].payload).toEqual({ outcome: 'paid' });
  });
});

describe('projection rebuild', () => {
  let store: TestStore;
  let app: INestApplication;

  beforeEach(async () => {
    store = await createTestStore();
    app = await createShopApp(store.options);
  });

  afterEach(async () => {
    await app.close();
    await store.cleanup();
  });

  it('resets a projector and replays it from position 0 while commands keep flowing, each event once', async () => {
    const gateway = app.get(CommandGateway);
    const view = app.get(ShopReadModel);
    for (let i = 0; i < 40; i++) await gateway.send(new PlaceOrder(`r${i}`, `sku-${i % 5}`, 1), { syncMode: SyncMode.SIMPLE });
    const progress: number[] = [];
    const flowing = Promise.all(Array.from({ length: 20 }, (_, i) => gateway.send(new PlaceOrder(`late${i}`, `sku-late-${i}`, 1))));
    const summary = await app.get(ProjectionRebuilder).rebuild('shop-view', (p) => progress.push(p.position));
    await flowing;
    expect(summary.projector).toBe('shop-view');
    expect(progress[progress.length - 1]).toBe(summary.target);
    await gateway.send(new PlaceOrder('after', 'sku-0', 1), { syncMode: SyncMode.SIMPLE });
    for (const id of ['r0', 'r39', 'late19', 'after']) expect(await view.order(id)).toEqual({ status: 'placed', projections: 1 });
    await expect(app.get(ProjectionRebuilder).rebuild('order-stock')).rejects.toThrow("'order-stock' is a saga; only projectors can be rebuilt");
    await expect(app.get(ProjectionRebuilder).rebuild('nope')).rejects.toThrow("unknown projector 'nope'; known: shop-view");
  });
});

describe('process manager timers and restarts', () => {
  let store: TestStore;
  const timeout = OrderFlowProcess.paymentTimeoutMs;

  beforeEach(async () => {
    store = await createTestStore();
    OrderFlowProcess.paymentTimeoutMs = 300;
  });

  afterEach(async () => {
    OrderFlowProcess.paymentTimeoutMs = timeout;
    await store.cleanup();
  });

  it('state and a pending timer survive a restart; the timer fires once', async () => {
    let app = await createShopApp(store.options);
    await app.get(CommandGateway).send(new PlaceOrder('t1', 'date', 1), { correlationId: 'flow-t1', syncMode: SyncMode.CASCADE });
    await app.close();

    app = await createShopApp(store.options);
    const events: EventStore = app.get(EVENT_STORE);
    const order = await eventually(
      () => events.readStream({ aggregateType: 'order', aggregateId: 't1' }),
      (stream) => stream.length === 2,
    );
    expect(order.map((event) => event.type)).toEqual(['OrderPlaced', 'OrderCancelled']);
    expect((order[1].payload as { reason: string }).reason).toBe('payment timed out');
    const process = await eventually(
      () => events.readStream({ aggregateType: 'order-flow', aggregateId: 'flow-t1' }),
      (stream) => stream.length === 2,
    );
    expect(process.map((event) => event.type)).toEqual(['OrderTracked', 'OrderSettled']);
    // Long after it fired, nothing fired twice.
    await new Promise((resolve) => setTimeout(resolve, 400));
    const all = await allStoredEvents(events);
    expect(all.filter((event) => event.type === 'OrderCancelled')).toHaveLength(1);
    expect(await app.get<TimerStore>(TIMER_STORE).pending('order-flow', 'flow-t1')).toHaveLength(0);
    await app.close();
  });
});
