import { Test } from '@nestjs/testing';
import { CommandGateway, ErrorCode, EventSourcingError, EventSourcingModule, SyncMode, type CommandResult, type StoredEvent } from '@nest-es/core';
import { portableQuery, typeorm } from '@nest-es/typeorm';
import { AddMany, CounterAggregate } from './support/counter.aggregate.js';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { request as httpRequest } from 'node:http';
import { PokerClient } from '../apps/poker/src/client/poker-client.js';
import { startPokerProcess } from './support/poker-process.js';
import { createShopApp } from './support/shop-app.js';
import { PlaceOrder, ShopProjector } from './support/shop.domain.js';
import { allStoredEvents } from './support/stored-events.js';
import { createTestStore, testDatabaseKind, type TestStore } from './support/test-store.js';
import { AdmissionGate, EventSourcingLifecycle } from '@nest-es/core/internal';
import { openDataSource } from '@nest-es/typeorm';
import { readModelStore, TypeOrmEventStore } from '@nest-es/typeorm';

async function bootCounter(store: TestStore, shutdownTimeoutMs: number) {
  const moduleRef = await Test.createTestingModule({
    imports: [EventSourcingModule.forRoot({ adapter: typeorm(store.options), shutdownTimeoutMs })],
    providers: [CounterAggregate],
  }).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  await app.init();
  return { app, gateway: app.get(CommandGateway), lifecycle: app.get(EventSourcingLifecycle) };
}

/** Runs `use` on the test store's events through a connection of its own, closed afterwards. */
async function withEvents<T>(store: TestStore, use: (events: TypeOrmEventStore) => Promise<T>): Promise<T> {
  const dataSource = await openDataSource(store.options);
  try {
    return await use(await TypeOrmEventStore.create(dataSource));
  } finally {
    await dataSource.destroy();
  }
}

function storedEvents(store: TestStore): Promise<StoredEvent[]> {
  return withEvents(store, allStoredEvents);
}

/** What a request to the poker app leaves in the store once the application handled it: an event of its player. */
const traceOf = (event: StoredEvent): string => `${event.aggregateId} ${event.type}`;

/**
 * Resolves once one of the requests has left its trace in the store while its answer is still to
 * come: the application is handling it, so a signal now finds it in flight. Reads the new events
 * every millisecond; throws if every request is answered first.
 */
function oneInFlight(store: TestStore, traces: string[], answered: readonly boolean[]): Promise<void> {
  return withEvents(store, async (events) => {
    let afterPosition = 0;
    for (;;) {
      const open = new Set(traces.filter((_, i) => !answered[i]));
      if (open.size === 0) throw new Error('every request was answered before one was seen in flight');
      const batch = await events.readAll({ afterPosition, limit: 1000 });
      if (batch.some((event) => open.has(traceOf(event)))) return;
      if (batch.length > 0) afterPosition = batch[batch.length - 1].position;
      await sleep(1);
    }
  });
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

/** What the drivers say when a connection or pool is used after it closed (SQLite, PostgreSQL). */
const DRIVER_ERROR = /connection is not open|pool after calling end|Connection terminated|not connected|database is closed/i;

/** 20 SIMPLE and 20 CASCADE orders sent at once; `settled` counts the callers that have their answer. */
function sendSyncOrders(gateway: CommandGateway) {
  let settled = 0;
  const send = (orderId: string, sku: string, syncMode: SyncMode) =>
    gateway.send(new PlaceOrder(orderId, sku, 1), { syncMode, commandId: `place-${orderId}`, correlationId: `flow-${orderId}` }).finally(() => settled++);
  const calls: Array<{ orderId: string; mode: SyncMode; answer: Promise<CommandResult> }> = [];
  for (let i = 0; i < 20; i++) calls.push({ orderId: `simple-${i}`, mode: SyncMode.SIMPLE, answer: send(`simple-${i}`, `apple-${i % 4}`, SyncMode.SIMPLE) });
  for (let i = 0; i < 20; i++) calls.push({ orderId: `cascade-${i}`, mode: SyncMode.CASCADE, answer: send(`cascade-${i}`, `pear-${i % 4}`, SyncMode.CASCADE) });
  return { calls, settled: () => settled };
}

/** Each caller's answer: the result, or the error's code and message (a driver error has no code). */
async function answersOf(calls: ReturnType<typeof sendSyncOrders>['calls']) {
  return Promise.all(
    calls.map(async ({ orderId, mode, answer }) => {
      try {
        return { orderId, mode, result: await answer };
      } catch (error) {
        const coded = error instanceof EventSourcingError;
        return { orderId, mode, code: coded ? error.code : 'not coded', message: (error as Error).message };
      }
    }),
  );
}

/** The shop's read models: each order's status, and the stock reserved for the CASCADE orders' skus. */
async function readModel(store: TestStore): Promise<{ orders: Map<string, string>; reserved: number }> {
  const dataSource = await openDataSource(readModelStore(store.options));
  try {
    const orders = await portableQuery<{ order_id: string; status: string }>(dataSource, 'SELECT order_id, status FROM shop_orders', []);
    const stock = await portableQuery<{ reserved: number }>(dataSource, "SELECT reserved FROM shop_stock WHERE sku LIKE 'pear-%'", []);
    return { orders: new Map(orders.map((row) => [row.order_id, row.status])), reserved: stock.reduce((sum, row) => sum + Number(row.reserved), 0) };
  } finally {
    await dataSource.destroy();
  }
}

describe('graceful shutdown with SIMPLE and CASCADE commands in flight', () => {
  let store: TestStore;

  beforeEach(async () => {
    store = await createTestStore();
  });

  afterEach(async () => {
    await store.cleanup();
  });

  it('answers every caller with its result before the subscriptions stop, and the read models show each command', async () => {
    const app = await createShopApp(store.options, { shutdownTimeoutMs: 30_000, syncTimeoutMs: 25_000 });
    const { calls, settled } = sendSyncOrders(app.get(CommandGateway));
    await app.close();
    const answeredBeforeClosed = settled();
    const answers = await answersOf(calls);
    expect(answers.filter((answer) => !answer.result)).toEqual([]);
    expect(answeredBeforeClosed).toBe(40);
    expect(app.get(EventSourcingLifecycle).stopOutcome).toBe('graceful');

    const events = await storedEvents(store);
    const placed = new Set(events.filter((e) => e.type === 'OrderPlaced').map((e) => e.aggregateId));
    const reservedFor = new Set(events.filter((e) => e.type === 'StockReserved').map((e) => String((e.payload as { orderId: string }).orderId)));
    for (const { orderId } of calls) expect(placed.has(orderId)).toBe(true);
    for (const { orderId } of calls.filter((call) => call.mode === SyncMode.CASCADE)) expect(reservedFor.has(orderId)).toBe(true);
    // What the sync modes promised is what the read models hold after the stop.
    const { orders, reserved } = await readModel(store);
    for (const { orderId } of calls) expect(orders.get(orderId)).toBe('placed');
    expect(reserved).toBe(20);
  });

  it('bounds the drain: callers still waiting get SYNC_TIMEOUT (their command is stored), never a driver error', async () => {
    const app = await createShopApp(store.options, { shutdownTimeoutMs: 30_000, syncTimeoutMs: 25_000, drainTimeoutMs: 300 });
    // Slow enough that the projections of 40 orders cannot be done within the drain bound.
    app.get(ShopProjector).delayMs = 40;
    const { calls } = sendSyncOrders(app.get(CommandGateway));
    const started = Date.now();
    await app.close();
    const closedAfterMs = Date.now() - started;
    const answers = await answersOf(calls);

    const failed = answers.filter((answer) => !answer.result);
    for (const answer of failed) expect(answer.message).not.toMatch(DRIVER_ERROR);
    expect(new Set(failed.map((answer) => answer.code))).toEqual(new Set([ErrorCode.SYNC_TIMEOUT]));
    // The bound, not the callers' own 25 s sync timeout, ended their waits.
    expect(closedAfterMs).toBeLessThan(20_000);
    const events = await storedEvents(store);
    const placed = new Set(events.filter((e) => e.type === 'OrderPlaced').map((e) => e.aggregateId));
    // Answered or timed out, every one of them was acknowledged by the store.
    for (const { orderId } of answers) expect(placed.has(orderId)).toBe(true);
  });
});

/**
 * A POST whose `sent` resolves once the request is flushed to the server's socket, and whose
 * `answer` is the status (with the error code) or what went wrong on the wire.
 */
function post(baseUrl: string, path: string, body: object, headers: Record<string, string> = {}): { sent: Promise<void>; answer: Promise<string> } {
  const request = httpRequest(new URL(path, baseUrl), { method: 'POST', headers: { 'content-type': 'application/json', ...headers } });
  const sent = once(request, 'finish').then(() => undefined);
  const answer = new Promise<string>((resolve) => {
    request.on('response', (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve(response.statusCode === 200 ? '200' : `${response.statusCode} ${(JSON.parse(text) as { code?: string }).code}`));
      response.on('error', (error) => resolve(`no answer: ${error.message}`));
    });
    request.on('error', (error) => resolve(`no answer: ${error.message}`));
  });
  request.end(JSON.stringify(body));
  return { sent, answer };
}

/** DATABASE_URL of the test store, for the poker app in a child process. */
function databaseUrlOf(store: TestStore): string {
  const options = store.options as { type: string; database?: string; url?: string; schema?: string };
  if (testDatabaseKind() === 'sqlite') return `sqlite:${options.database}`;
  const url = new URL(options.url!);
  url.searchParams.set('schema', options.schema!);
  return url.toString();
}

describe('the poker app stopped by SIGTERM with sync commands in flight', () => {
  let store: TestStore;

  beforeEach(async () => {
    store = await createTestStore();
  });

  afterEach(async () => {
    await store.cleanup();
  });

  it('answers every request in flight with its result or a coded 503/504, then exits with code 0', async () => {
    const poker = await startPokerProcess(databaseUrlOf(store));
    const client = new PokerClient(poker.url);
    const seated = Array.from({ length: 10 }, (_, i) => `seated-${i}`);
    for (const id of seated) await client.registerPlayer(id, id);
    await client.createTable('drain', { name: 'drain', variant: 'TEXAS_HOLDEM', smallBlind: 5, bigBlind: 10, minBuyIn: 100, maxBuyIn: 1000, maxPlayers: 10 });

    // Each registration ends with a SIMPLE deposit; each buy-in is a CASCADE through the buy-in process.
    const requests = [
      ...Array.from({ length: 20 }, (_, i) => ({ player: `late-${i}`, trace: 'PlayerRegistered', ...post(poker.url, '/auth/register', { playerId: `late-${i}`, displayName: `late-${i}` }) })),
      ...seated.map((id) => ({ player: id, trace: 'FundsReserved', ...post(poker.url, '/tables/drain/buy-in', { playerId: id, seat: -1, amount: 200 }, client.signedAs(id)) })),
    ];
    const traceOfRequest = (request: (typeof requests)[number]) => `${request.player} ${request.trace}`;
    const answered = requests.map(() => false);
    requests.forEach((request, i) => void request.answer.finally(() => (answered[i] = true)));
    await Promise.all(requests.map((request) => request.sent));
    // Flushed by the client is not yet read by the server: the signal waits until the application
    // handles one of them, or a signal before the server read any would leave nothing to drain.
    await oneInFlight(store, requests.map(traceOfRequest), answered);
    const exited = once(poker.child, 'exit');
    poker.child.kill('SIGTERM');
    const answeredBeforeSignal = answered.filter(Boolean).length;
    const answers = await Promise.all(requests.map((request) => request.answer));
    const [code, signal] = await exited;

    expect({ code, signal }).toEqual({ code: 0, signal: null });
    const cut = requests.filter((_, i) => answers[i].startsWith('no answer'));
    expect(answers.filter((answer) => !answer.startsWith('no answer') && !['200', '503 UNAVAILABLE', '504 SYNC_TIMEOUT'].includes(answer))).toEqual([]);
    // Some were answered after the signal: the drain let them finish.
    expect(requests.length - cut.length).toBeGreaterThan(answeredBeforeSignal);
    // A connection the server had not yet accepted when its listener closed is reset by the OS; such a
    // request never reached the application, so it left nothing in the store. One the application
    // handled was answered.
    const stored = new Set((await storedEvents(store)).map(traceOf));
    expect(cut.filter((request) => stored.has(traceOfRequest(request))).map((request) => request.player)).toEqual([]);
    expect(poker.output.join('')).not.toMatch(DRIVER_ERROR);
  });
});
