import type { INestApplication } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { CommandGateway, EVENT_STORE, ErrorCode, SyncMode, type EventStore } from '@nest-es/core';
import { TIMER_STORE } from '@nest-es/core/internal';
import type { TimerStore } from '@nest-es/core/adapter';
import { drain } from '@nest-es/core/testing';
import { createShopApp } from './support/shop-app.js';
import { OrderFlowProcess, PlaceOrder } from './support/shop.domain.js';
import { until } from './support/until.js';
import { DepositFunds, RegisterPlayer, WithdrawFunds } from '../apps/poker/src/player/index.js';
import { createPokerApp } from './support/poker-app.js';
import { createTestStore, type TestStore } from './support/test-store.js';

/** Two instances of the poker app on one store: each caches the players it served, the other one appends behind its back. */
describe(`commands on a cached state another instance made stale (${process.env.ES_TEST_DB})`, () => {
  let store: TestStore;
  let first: INestApplication;
  let second: INestApplication;
  let a: CommandGateway;
  let b: CommandGateway;

  beforeAll(async () => {
    store = await createTestStore();
    first = await createPokerApp(store.options);
    second = await createPokerApp(store.options);
    a = first.get(CommandGateway);
    b = second.get(CommandGateway);
  });

  afterAll(async () => {
    await first?.close();
    await second?.close();
    await store?.cleanup();
  });

  const command = <T extends object>(type: new () => T, fields: Partial<T>) => Object.assign(new type(), fields);
  const register = (playerId: string) => command(RegisterPlayer, { playerId, displayName: playerId, email: `${playerId}@example.com` });
  const deposit = (playerId: string, amount: number) => command(DepositFunds, { playerId, amount });
  const withdraw = (playerId: string, amount: number) => command(WithdrawFunds, { playerId, amount });

  it('appends after the other instance\'s events, decided on the current state', async () => {
    await a.send(register('ada'));
    await a.send(deposit('ada', 100));
    await b.send(deposit('ada', 500));

    const result = await a.send(deposit('ada', 1));

    expect(result.sequence).toBe(4);
    expect(result.events[0].payload).toEqual({ amount: 1, newBalance: 601 });
  });

  it('refuses a command only on the current state, never on what the cache last saw', async () => {
    await a.send(register('bob'));
    await a.send(deposit('bob', 100));
    await b.send(deposit('bob', 500));

    // The cache of the first instance says 100 available: too little for 300, but the store says 600.
    const result = await a.send(withdraw('bob', 300));
    expect(result.events[0].payload).toEqual({ amount: 300, newBalance: 300 });

    const refused = await a.send(withdraw('bob', 301)).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: ErrorCode.FAILED_PRECONDITION, message: 'insufficient funds: available 300, requested 301' });
  });

  it('takes an expected sequence the caller saw elsewhere as the current one, not as a conflict', async () => {
    await a.send(register('cy'));
    const elsewhere = await b.send(deposit('cy', 50));

    const result = await a.send(deposit('cy', 5), { expectedSequence: elsewhere.sequence });

    expect(result.sequence).toBe(3);
    expect(result.events[0].payload).toEqual({ amount: 5, newBalance: 55 });
  });

  it('keeps every stream gapless, and every acknowledged deposit in it, under both instances writing at once', async () => {
    const players = ['p1', 'p2', 'p3', 'p4'];
    for (const player of players) await a.send(register(player));
    // Two deposits racing on two instances touch the same field: the loser may be refused (SEQUENCE_MISMATCH), never lost.
    const outcomes = await Promise.allSettled(
      players.flatMap((player) => Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? a : b).send(deposit(player, 1)))),
    );
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected') expect(outcome.reason).toMatchObject({ code: ErrorCode.SEQUENCE_MISMATCH });
    }

    const events = first.get<EventStore>(EVENT_STORE);
    for (const [index, player] of players.entries()) {
      const acknowledged = outcomes.slice(index * 10, index * 10 + 10).filter((outcome) => outcome.status === 'fulfilled').length;
      const stored = await events.readStream({ aggregateType: 'player', aggregateId: player });
      expect(stored.map((event) => event.sequence)).toEqual(Array.from({ length: acknowledged + 1 }, (_, i) => i + 1));
      expect(stored[acknowledged].payload).toMatchObject({ newBalance: acknowledged });
    }
  });
});

/** A process manager's cached instance state, made stale by an append of another instance (here: straight to the store). */
describe(`a process-manager step on a cached state another instance made stale (${process.env.ES_TEST_DB})`, () => {
  let store: TestStore;
  let app: INestApplication;
  const timeoutBefore = OrderFlowProcess.paymentTimeoutMs;

  beforeAll(async () => {
    OrderFlowProcess.paymentTimeoutMs = 300;
    store = await createTestStore();
    app = await createShopApp(store.options);
  });

  afterAll(async () => {
    OrderFlowProcess.paymentTimeoutMs = timeoutBefore;
    await app?.close();
    await store?.cleanup();
  });

  it('is decided again on the stored state: the payment timer of an order settled elsewhere cancels nothing', async () => {
    const gateway = app.get(CommandGateway);
    const events = app.get<EventStore>(EVENT_STORE);
    const flow = { aggregateType: 'order-flow', aggregateId: 'flow-stale' };
    await gateway.send(new PlaceOrder('stale', 'apple', 1), { syncMode: SyncMode.CASCADE, correlationId: 'flow-stale' });
    // This process cached the instance at OrderTracked; another one records the payment behind its back.
    await events.append({
      stream: flow,
      expectedSequence: 1,
      events: [{ type: 'OrderSettled', payload: { outcome: 'paid' }, metadata: { eventId: randomUUID(), commandId: null, correlationId: 'flow-stale', causationId: null } }],
    });

    // The payment timer fires: on the cached state (no outcome) it would cancel the order.
    const timers = app.get<TimerStore>(TIMER_STORE);
    await until(async () => (await timers.pending('order-flow', 'flow-stale')).length === 0, 'the payment timer to fire');
    await drain(app);

    expect((await events.readStream({ aggregateType: 'order', aggregateId: 'stale' })).map((event) => event.type)).toEqual(['OrderPlaced']);
  });
});
