import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type pg from 'pg';
import type { DataSource } from 'typeorm';
import { Apply, AggregateReader, CommandGateway, EVENT_STORE, EventSourcingModule, OnEvent, ProcessManager, SyncMode, type EventStore, type ProcessReaction } from '@nest-es/core';
import { SNAPSHOT_STORE, TIMER_STORE } from '@nest-es/core/internal';
import type { SnapshotStore, TimerStore } from '@nest-es/core/adapter';
import { EVENT_SOURCING_DATA_SOURCE, READ_MODEL_DATA_SOURCE, typeorm } from '@nest-es/typeorm';
import { AddMany, CounterAggregate } from './support/counter.aggregate.js';
import { Count, tallyAggregate } from './support/tally.aggregate.js';
import { createShopApp } from './support/shop-app.js';
import { OrderPaid, OrderPlaced, PayOrder, PlaceOrder, ReserveStock } from './support/shop.domain.js';
import { createTestStore, type TestStore } from './support/test-store.js';

/** Every statement sent on the store's pool (`pool.query` checks a client out too). */
function recordStatements(pool: pg.Pool, sent: string[] = []): string[] {
  const record = (config: unknown) => {
    const text = typeof config === 'string' ? config : (config as { text?: string }).text;
    sent.push(String(text));
  };
  const wrapped = new WeakSet<pg.PoolClient>();
  pool.on('acquire', (client) => {
    if (wrapped.has(client)) return;
    wrapped.add(client);
    const clientQuery = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: unknown }).query = (config: unknown, ...rest: unknown[]) => {
      record(config);
      return clientQuery(config, ...rest);
    };
  });
  return sent;
}

function poolOf(dataSource: DataSource): pg.Pool {
  return (dataSource.driver as unknown as { master: pg.Pool }).master;
}

/** `es_append` for the store's append (whichever of its forms), else the tables a statement names, for telling statements apart. */
function touched(text: string): string {
  if (text.includes('es_append')) return 'es_append';
  return ['es_snapshots', 'es_events', 'es_commands'].filter((name) => text.includes(name)).join('+');
}

/** A tally that takes a snapshot every 5 events. */
const SnappedTally = tallyAggregate({ snapshot: { every: 5 } });

/** The module on the suite's store, with the test aggregates. */
async function boot(store: TestStore): Promise<INestApplication> {
  const moduleRef = await Test.createTestingModule({
    imports: [EventSourcingModule.forRoot({ adapter: typeorm(store.options) })],
    providers: [CounterAggregate, SnappedTally],
  }).compile();
  const instance = moduleRef.createNestApplication({ logger: false });
  await instance.init();
  return instance;
}

/**
 * What a command costs in round trips to PostgreSQL, counted on the store's pool: the command path's
 * budget (issue #14). A warm aggregate's command is its one `es_append`, which also carries the
 * wake-up for other instances; nothing else may slip in beside it (a separate NOTIFY, a re-read).
 */
describe('round trips per command on PostgreSQL', () => {
  let store: TestStore;
  let app: INestApplication;
  let gateway: CommandGateway;
  let sent: string[];

  beforeAll(async () => {
    store = await createTestStore();
    app = await boot(store);
    gateway = app.get(CommandGateway);
    sent = recordStatements(poolOf(app.get<DataSource>(EVENT_SOURCING_DATA_SOURCE)));
  });

  afterAll(async () => {
    await app?.close();
    await store?.cleanup();
  });

  beforeEach(() => {
    sent.length = 0;
  });

  it('a warm aggregate: one append statement per command, the wake-up included', async () => {
    await gateway.send(new AddMany('warm', 1));
    sent.length = 0;
    for (let i = 0; i < 20; i++) await gateway.send(new AddMany('warm', 2));
    // The wake-up NOTIFY of a separate statement would have been sent right after each append.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(sent).toHaveLength(20);
    expect(sent.map(touched)).toEqual(Array(20).fill('es_append'));
  });

  it('a cold aggregate: its snapshot and its events are read once, then appended to', async () => {
    await gateway.send(new AddMany('cold', 1));
    // One statement reads the newest snapshot and the events after it.
    expect(sent.map(touched)).toEqual(['es_snapshots+es_events', 'es_append']);
  });

  it('a cold aggregate with a snapshot and events after it: one read, then the append, and the state is right', async () => {
    // Another instance writes the aggregate, so this one has never loaded it.
    const writer = await boot(store);
    try {
      const writes = writer.get(CommandGateway);
      // Sequence 6 crosses 5: a snapshot, of the state the handler hands back (a marker shows it was the start).
      await writes.send(new Count('snapped', 6, { handBack: { marker: 'from the snapshot' } }));
      await writes.send(new Count('snapped', 1));
      await writes.send(new Count('snapped', 1));
      const snapshot = await writer.get<SnapshotStore>(SNAPSHOT_STORE).loadLatest({ aggregateType: 'tally', aggregateId: 'snapped' }, 1);
      expect(snapshot).toMatchObject({ sequence: 6, state: { total: 6, milestones: 0, marker: 'from the snapshot' } });
    } finally {
      await writer.close();
    }
    sent.length = 0;

    const result = await gateway.send(new Count('snapped', 1));

    expect(sent.map(touched)).toEqual(['es_snapshots+es_events', 'es_append']);
    expect(result.sequence).toBe(9);
    // The snapshot's state, then events 7 and 8, then the command's event.
    expect((await app.get(AggregateReader).state('tally', 'snapped')).state).toEqual({ total: 9, milestones: 0, marker: 'from the snapshot' });
  });

  it('a caller-given command id: appended with its record; a repeat is refused by the append, then its record read', async () => {
    await gateway.send(new AddMany('warm', 1));
    sent.length = 0;
    const first = await gateway.send(new AddMany('warm', 1), { commandId: 'given-1' });
    expect(sent.map(touched)).toEqual(['es_append']);
    sent.length = 0;
    const repeat = await gateway.send(new AddMany('warm', 1), { commandId: 'given-1' });
    expect(sent.map(touched)).toEqual(['es_append', 'es_commands', 'es_events']);
    expect(repeat).toMatchObject({ sequence: first.sequence, duplicate: true });
  });
});

/**
 * A process manager's step on an instance it has run before: decided on the cached state and
 * appended, with no read of its stream and no lookup of the step's record (the append refuses a
 * step recorded already, and only then is the record read).
 */
class BulkOrderFollowed {
  constructor(readonly orderId: string) {}
}

/**
 * Follows bulk orders only (100 or more): any other order's OrderPlaced starts no instance, as a
 * process manager that follows few of the keys it hears of does, and that order's later events find
 * none. Keyed by the order's correlation id, like the shop's order flow.
 */
@ProcessManager('bulk-order-flow', { startsOn: [OrderPlaced] })
class BulkOrderFlow {
  initialState(): { followed: boolean } {
    return { followed: false };
  }

  @OnEvent(OrderPlaced)
  onPlaced(event: OrderPlaced): ProcessReaction {
    return event.quantity >= 100 ? { events: [new BulkOrderFollowed(event.sku)] } : {};
  }

  @OnEvent(OrderPaid)
  onPaid(): ProcessReaction {
    return {};
  }

  @Apply(BulkOrderFollowed)
  onFollowed(state: { followed: boolean }) {
    state.followed = true;
  }
}

describe('round trips per process-manager step on PostgreSQL', () => {
  let store: TestStore;
  let app: INestApplication;
  let sent: string[];

  beforeAll(async () => {
    store = await createTestStore();
    // No poll backstop within a test: a poll's read would count as the command's, once a loaded host
    // makes a CASCADE outlast the shop app's 50 ms interval. This process's appends need none.
    app = await createShopApp(store.options, { providers: [BulkOrderFlow], processing: { pollIntervalMs: 60_000 } });
    sent = recordStatements(poolOf(app.get<DataSource>(EVENT_SOURCING_DATA_SOURCE)));
    const readModels = poolOf(app.get<DataSource>(READ_MODEL_DATA_SOURCE));
    // The checkpoints are the read models' (the same pool unless they live apart).
    if (readModels !== poolOf(app.get<DataSource>(EVENT_SOURCING_DATA_SOURCE))) recordStatements(readModels, sent);
  });

  afterAll(async () => {
    await app?.close();
    await store?.cleanup();
  });

  /**
   * An order placed, then paid with CASCADE: the statements the payment sent. Each order has a sku of
   * its own, so the saga's stock-count fact is new: a repeated one would be refused by its external id
   * after taking a position, and the subscriptions would read the store to pass that gap.
   */
  async function payPlacedOrder(orderId: string): Promise<string[]> {
    const gateway = app.get(CommandGateway);
    await gateway.send(new PlaceOrder(orderId, `sku-${orderId}`, 1), { syncMode: SyncMode.CASCADE, correlationId: `flow-${orderId}` });
    sent.length = 0;
    await gateway.send(new PayOrder(orderId), { syncMode: SyncMode.CASCADE, correlationId: `flow-${orderId}` });
    return [...sent];
  }

  it("reads neither the step's record nor the instance's stream, nor the stream of an instance whose start was declined", async () => {
    const during = await payPlacedOrder('rt-1');

    const settled = (await app.get<EventStore>(EVENT_STORE).readStream({ aggregateType: 'order-flow', aggregateId: 'flow-rt-1' })).map((event) => event.type);
    expect(settled).toEqual(['OrderTracked', 'OrderSettled']);
    expect(during.filter((text) => /FROM es_commands/.test(text))).toEqual([]);
    expect(during.filter((text) => /FROM es_events\s+WHERE aggregate_type = \$1 AND aggregate_id = \$2 AND sequence >/.test(text))).toEqual([]);
  });

  it("a step's timers, cancelled and scheduled, in one statement", async () => {
    const timers = app.get<TimerStore>(TIMER_STORE);
    const timer = (id: string) => ({ id, name: 'payment', dueAt: new Date(Date.now() + 60_000), payload: { id } });
    await timers.change('order-flow', 'rt-timers', [], [timer('rt-t1')]);
    sent.length = 0;
    await timers.change('order-flow', 'rt-timers', ['payment'], [timer('rt-t2')]);
    // The timer poller's query for due timers runs on its own clock and may fall inside the call.
    expect(sent.filter((text) => !/FROM es_timers WHERE status = 'pending' AND due_at <=/.test(text))).toHaveLength(1);
    expect((await timers.pending('order-flow', 'rt-timers')).map((pending) => pending.id)).toEqual(['rt-t2']);
  });

  const correlationReads = (statements: string[]) => statements.filter((text) => /WHERE correlation_id = \$1 AND position >/.test(text));

  it("CASCADE in one process: the subscribers take this process's appends without reading them, and the wait reads neither the checkpoints nor the correlation", async () => {
    const checkpointReads = (statements: string[]) => statements.filter((text) => /FROM es_checkpoints|FROM es_held_events/.test(text));
    // A wait that hears no checkpoint move for its poll interval (a hop slower than 25 ms, as on a
    // loaded machine) reads the checkpoints, and then the correlation: that attempt shows nothing,
    // and another is made. An attempt without that fallback must read neither.
    let clean = 0;
    for (let attempt = 0; attempt < 5 && clean === 0; attempt++) {
      const during = await payPlacedOrder(`rt-2-${attempt}`);
      expect(during.filter((text) => text.includes('SELECT head.head, page.*'))).toEqual([]);
      const settled = (await app.get<EventStore>(EVENT_STORE).readStream({ aggregateType: 'order-flow', aggregateId: `flow-rt-2-${attempt}` })).map((event) => event.type);
      expect(settled).toEqual(['OrderTracked', 'OrderSettled']);
      if (checkpointReads(during).length > 0) continue;
      // OrderPaid reaches the process manager, whose OrderSettled this process appended and heard: the
      // wait follows the hop from this process's checkpoint moves and appends.
      expect(correlationReads(during)).toEqual([]);
      clean++;
    }
    expect(clean).toBe(1);
  });

  it('CASCADE on events that only projectors handle: no read of the correlation, and the projection is done when it returns', async () => {
    const gateway = app.get(CommandGateway);
    sent.length = 0;
    await gateway.send(new ReserveStock('rt-sku', 2, 'rt-3'), { syncMode: SyncMode.CASCADE, correlationId: 'flow-rt-3' });
    const during = [...sent];
    const [row] = await app.get<DataSource>(READ_MODEL_DATA_SOURCE).query('SELECT reserved FROM shop_stock WHERE sku = $1', ['rt-sku']);
    expect(row).toEqual({ reserved: 2 });
    expect(correlationReads(during)).toEqual([]);
  });
});
