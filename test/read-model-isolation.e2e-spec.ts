import { Inject, type INestApplication, type OnModuleInit } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { CHECKPOINT_STORE } from '@nest-es/core/internal';
import { CommandGateway, EVENT_STORE, EventSourcingModule, OnEvent, Projector, type EventStore, type ProjectionContext } from '@nest-es/core';
import { type CheckpointStore } from '@nest-es/core/adapter';
import {
  EVENT_SOURCING_DATA_SOURCE,
  READ_MODEL_DATA_SOURCE,
  portableQuery,
  type ReadModelOptions,
  typeorm,
} from '@nest-es/typeorm';
import { deferred, type Deferred } from '@nest-es/core/internal';
import type { DataSource, EntityManager } from 'typeorm';
import { AddMany, Added, CounterAggregate } from './support/counter.aggregate.js';
import { createTestStore, testDatabaseKind, type TestStore } from './support/test-store.js';

const PROJECTOR_MS = 500;
/** Generous for a loaded machine; a command that waits for the projector's transaction takes PROJECTOR_MS or forever. */
const ASYNC_BOUND_MS = 200;

interface Hold {
  entered: Deferred<void>;
  release: Deferred<void>;
}

/** Each event takes PROJECTOR_MS after its write, inside the transaction; a test may hold one transaction open. */
@Projector('slow-view')
class SlowProjector implements OnModuleInit {
  static hold: Hold | undefined;

  constructor(@Inject(READ_MODEL_DATA_SOURCE) private readonly dataSource: DataSource) {}

  async onModuleInit(): Promise<void> {
    await this.dataSource.query('CREATE TABLE IF NOT EXISTS slow_view (event_id TEXT PRIMARY KEY, projections INTEGER NOT NULL)');
  }

  @OnEvent(Added)
  async onAdded(_event: Added, { envelope, tx }: ProjectionContext<EntityManager>): Promise<void> {
    await portableQuery(
      tx,
      'INSERT INTO slow_view (event_id, projections) VALUES ($1, 1) ON CONFLICT (event_id) DO UPDATE SET projections = slow_view.projections + 1',
      [envelope.metadata.eventId],
    );
    const hold = SlowProjector.hold;
    SlowProjector.hold = undefined;
    if (hold) {
      hold.entered.resolve();
      await hold.release.promise;
    }
    await new Promise((resolve) => setTimeout(resolve, PROJECTOR_MS));
  }
}

async function boot(store: Pick<TestStore, 'options'>, readModels?: ReadModelOptions): Promise<INestApplication> {
  const moduleRef = await Test.createTestingModule({
    imports: [EventSourcingModule.forRoot({ adapter: typeorm({ ...store.options, readModels }), processing: { pollIntervalMs: 50 } })],
    providers: [CounterAggregate, SlowProjector],
  }).compile();
  const app = moduleRef.createNestApplication({ logger: ['error'] });
  await app.init();
  return app;
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not return within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function projections(app: INestApplication): Promise<number[]> {
  const rows = await app.get<DataSource>(READ_MODEL_DATA_SOURCE).query('SELECT projections FROM slow_view ORDER BY event_id');
  return rows.map((row: { projections: number }) => Number(row.projections));
}

/** Waits until the projector's checkpoint reached the store's head. */
async function caughtUp(app: INestApplication): Promise<number> {
  const head = await app.get<EventStore>(EVENT_STORE).headPosition();
  const checkpoints = app.get<CheckpointStore>(CHECKPOINT_STORE);
  const deadline = Date.now() + 30_000;
  while ((await checkpoints.load('slow-view')) < head) {
    if (Date.now() > deadline) throw new Error(`slow-view did not reach position ${head}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return head;
}

describe('ASYNC commands and a slow projector', () => {
  let store: TestStore;
  let app: INestApplication | undefined;

  beforeEach(async () => {
    store = await createTestStore();
  });

  afterEach(async () => {
    SlowProjector.hold?.release.resolve();
    SlowProjector.hold = undefined;
    await app?.close();
    app = undefined;
    await store.cleanup();
  });

  it('return at once while a projector transaction is open, and the projection still lands exactly once with its checkpoint', async () => {
    app = await boot(store);
    const gateway = app.get(CommandGateway);
    const hold: Hold = { entered: deferred(), release: deferred() };
    SlowProjector.hold = hold;
    await gateway.send(new AddMany('first', 1));
    await within(hold.entered.promise, 10_000, 'the projector');

    // The projector's transaction is open (it wrote, and waits for the release) during every send.
    const durations: number[] = [];
    try {
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        await within(gateway.send(new AddMany(`c${i}`, 1)), 5_000, `ASYNC command ${i}`);
        durations.push(performance.now() - started);
      }
    } finally {
      hold.release.resolve();
    }
    for (const duration of durations) expect(duration).toBeLessThan(ASYNC_BOUND_MS);

    const head = await caughtUp(app);
    expect(head).toBe(6);
    expect(await projections(app)).toEqual([1, 1, 1, 1, 1, 1]);

    // Across a restart: the checkpoint committed with the rows, so nothing is projected twice.
    await app.close();
    app = await boot(store);
    await app.get(CommandGateway).send(new AddMany('after-restart', 1));
    expect(await caughtUp(app)).toBe(7);
    expect(await projections(app)).toEqual([1, 1, 1, 1, 1, 1, 1]);
  });

  it('keeps read models where a store from before the separate read-model database has them', async () => {
    app = await boot(store, 'store');
    await app.get(CommandGateway).send(new AddMany('old', 2));
    await caughtUp(app);
    await app.close();

    app = await boot(store);
    expect(app.get(READ_MODEL_DATA_SOURCE)).toBe(app.get(EVENT_SOURCING_DATA_SOURCE));
    await app.get(CommandGateway).send(new AddMany('new', 1));
    expect(await caughtUp(app)).toBe(3);
    expect(await projections(app)).toEqual([1, 1, 1]);
  });

  (testDatabaseKind() === 'sqlite' ? it : it.skip)('gives an in-memory SQLite store an in-memory read-model database of its own', async () => {
    app = await boot({ options: { type: 'sqlite', database: ':memory:' } });
    expect(app.get(READ_MODEL_DATA_SOURCE)).not.toBe(app.get(EVENT_SOURCING_DATA_SOURCE));
    await app.get(CommandGateway).send(new AddMany('m', 2));
    expect(await caughtUp(app)).toBe(2);
    expect(await projections(app)).toEqual([1, 1]);
  });
});
