import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { DataSource } from 'typeorm';
import { AggregateReader, CommandGateway, EVENT_STORE, type EventStore, EventSourcingModule, SyncMode } from '@nest-es/core';
import { DEAD_LETTER_STORE } from '@nest-es/core/internal';
import type { DeadLetterStore } from '@nest-es/core/adapter';
import { EVENT_SOURCING_DATA_SOURCE, portableQuery, typeorm } from '@nest-es/typeorm';
import { AddItem, Attempts, ORDER_WORKFLOW_PROVIDERS, POISON } from './support/order-workflows.domain.js';
import { createTestStore, type TestStore } from './support/test-store.js';
import { until } from './support/until.js';

/*
 * Sagas and process managers go through the same pipeline as projectors: an event whose reaction
 * throws is held and retried with backoff (8 attempts here, several seconds), and only its own key
 * waits behind it: the order's aggregate for the saga, the process instance (keyed by the order id)
 * for the process manager. Every other order's CASCADE command completes meanwhile.
 */
describe('workflows: a failing event holds back only its own key', () => {
  const OTHERS = 20;
  /** Generous on a loaded machine; the poison's retries alone take over 7 s, the sync timeout is 10 s. */
  const BOUND_MS = 1_000;
  let store: TestStore;
  let app: INestApplication;

  beforeAll(async () => {
    store = await createTestStore();
    const moduleRef = await Test.createTestingModule({
      imports: [EventSourcingModule.forRoot({ adapter: typeorm(store.options), syncTimeoutMs: 10_000, processing: { pollIntervalMs: 50, timerPollIntervalMs: 20 } })],
      providers: ORDER_WORKFLOW_PROVIDERS,
    }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.init();
  });

  afterAll(async () => {
    await app?.close();
    await store?.cleanup();
  });

  const noteExists = (id: string) =>
    app
      .get(AggregateReader)
      .state('note', id)
      .then(
        () => true,
        () => false,
      );

  it('keeps CASCADE commands on other orders fast while a saga and a process manager retry a poison, then handles the poisoned order in order', async () => {
    const gateway = app.get(CommandGateway);
    const attempts = app.get(Attempts);
    const deadLetters: DeadLetterStore = app.get(DEAD_LETTER_STORE);

    const poison = (await gateway.send(AddItem, { orderId: 'o-poison', item: POISON })).events[0].position;
    // The order's next item, stored behind the poison: both workflows must keep it waiting.
    const next = (await gateway.send(AddItem, { orderId: 'o-poison', item: 'book' })).events[0].position;
    await until(() => ['receipts', 'fulfilment'].every((name) => attempts.positions(name, 'o-poison').includes(poison)), 'both workflows to fail on the poison once');

    const latencies: number[] = [];
    for (let i = 0; i < OTHERS; i++) {
      const started = performance.now();
      await gateway.send(AddItem, { orderId: `o-${i}`, item: 'pen' }, { syncMode: SyncMode.CASCADE });
      latencies.push(performance.now() - started);
      // CASCADE returned: both workflows reacted, and what they sent is stored.
      expect(await noteExists(`receipt-o-${i}-1`)).toBe(true);
      expect(await noteExists(`packed-o-${i}-1`)).toBe(true);
    }
    expect(await deadLetters.list({ kind: 'event' })).toEqual([]);
    expect(latencies.filter((ms) => ms >= BOUND_MS)).toEqual([]);
    for (const name of ['receipts', 'fulfilment']) expect(attempts.positions(name, 'o-poison')).not.toContain(next);

    // Dead-lettered after its attempts; then the order's next item goes through both workflows.
    await until(async () => (await deadLetters.list({ kind: 'event' })).length === 2, 'the poison to be dead-lettered by both');
    await until(async () => (await noteExists('receipt-o-poison-2')) && (await noteExists('packed-o-poison-1')), 'the next item of the poisoned order');
    const letters = await deadLetters.list({ kind: 'event' });
    expect(letters.map((letter) => letter.subscriber).sort()).toEqual(['fulfilment', 'receipts']);
    for (const letter of letters) expect(letter).toMatchObject({ aggregateId: 'o-poison', attempts: 8, context: { position: poison } });
    for (const name of ['receipts', 'fulfilment']) {
      const seen = attempts.positions(name, 'o-poison');
      expect(seen.filter((position) => position === poison)).toHaveLength(8);
      expect(seen.indexOf(next)).toBeGreaterThan(seen.lastIndexOf(poison));
    }
  }, 90_000);

  it('sends the same commands when a timer step is delivered again after its instance moved on', async () => {
    const gateway = app.get(CommandGateway);
    const events: EventStore = app.get(EVENT_STORE);
    const dataSource: DataSource = app.get(EVENT_SOURCING_DATA_SOURCE);
    const label = async () => (await events.readStream({ aggregateType: 'note', aggregateId: 'label-o-t' })).map((event) => (event.payload as { text: string }).text);

    await gateway.send(AddItem, { orderId: 'o-t', item: 'label-1' });
    await until(async () => (await label()).length > 0, 'the label timer to fire');
    expect(await label()).toEqual(['1 of 1']);

    // The instance moves on; then the same timer comes again, as after a crash before it was marked fired.
    await gateway.send(AddItem, { orderId: 'o-t', item: 'pen' }, { syncMode: SyncMode.CASCADE });
    await portableQuery(dataSource.manager, `UPDATE es_timers SET status = 'pending' WHERE owner = $1 AND correlation_id = $2`, ['fulfilment', 'o-t']);
    await until(async () => {
      const [row] = (await portableQuery(dataSource.manager, `SELECT status FROM es_timers WHERE owner = $1 AND correlation_id = $2`, ['fulfilment', 'o-t'])) as Array<{ status: string }>;
      return row.status === 'fired';
    }, 'the timer to fire again');

    // The step decided from the state it first saw: the same label, so the note took it as the same command.
    expect(await label()).toEqual(['1 of 1']);
    const own = await events.readStream({ aggregateType: 'fulfilment', aggregateId: 'o-t' });
    expect(own.map((event) => event.type)).toEqual(['ItemCounted', 'ItemCounted']);
  }, 60_000);
});
