import { Global, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { CommandGateway, EventSourcingModule, EVENT_STORE, type EventStore, inMemory } from '@nest-es/core';
import { AddMany, CounterAggregate } from './support/counter.aggregate.js';
import { createTestStore, type TestStore } from './support/test-store.js';
import { createDataSource, typeorm } from '@nest-es/typeorm';

const SETTINGS = Symbol('SETTINGS');

@Module({ providers: [{ provide: SETTINGS, useValue: { shutdownTimeoutMs: 2_000 } }], exports: [SETTINGS] })
class SettingsModule {}

/** Where the application keeps its own DataSource (as `@nestjs/typeorm` does under its token). */
const APP_DATA_SOURCE = Symbol('APP_DATA_SOURCE');

describe('EventSourcingModule.forRootAsync with an application-owned DataSource, found by its token', () => {
  let store: TestStore;

  beforeEach(async () => {
    store = await createTestStore();
  });

  afterEach(async () => {
    await store.cleanup();
  });

  it('builds its options from injected providers, uses the given DataSource, and leaves it open at shutdown', async () => {
    const dataSource = createDataSource(store.options);
    await dataSource.initialize();
    // A global module with an async factory, as @nestjs/typeorm registers its DataSource: ready only after a wait.
    @Global()
    @Module({ providers: [{ provide: APP_DATA_SOURCE, useFactory: () => new Promise((resolve) => setTimeout(() => resolve(dataSource), 50)) }], exports: [APP_DATA_SOURCE] })
    class AppDataSourceModule {}
    const moduleRef = await Test.createTestingModule({
      imports: [
        AppDataSourceModule,
        EventSourcingModule.forRootAsync({
          adapter: typeorm({ dataSource: APP_DATA_SOURCE }),
          imports: [SettingsModule],
          inject: [SETTINGS],
          useFactory: (settings: { shutdownTimeoutMs: number }) => ({ ...settings }),
        }),
      ],
      providers: [CounterAggregate],
    }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    await app.init();
    const result = await app.get(CommandGateway).send(new AddMany('k1', 2));
    expect(result).toMatchObject({ aggregateType: 'counter', aggregateId: 'k1', sequence: 2 });
    expect(await app.get<EventStore>(EVENT_STORE).streamSequence({ aggregateType: 'counter', aggregateId: 'k1' })).toBe(2);
    await app.close();
    expect(dataSource.isInitialized).toBe(true);
    const [row] = await dataSource.query('SELECT count(*) AS n FROM es_events');
    expect(Number(row.n)).toBe(2);
    await dataSource.destroy();
  });
});

describe('EventSourcingModule imported twice', () => {
  it('fails the boot naming the mistake, instead of sending commands to one store or the other', async () => {
    @Module({ imports: [EventSourcingModule.forRoot({ adapter: inMemory() })], providers: [CounterAggregate] })
    class CountersModule {}
    const moduleRef = await Test.createTestingModule({ imports: [EventSourcingModule.forRoot({ adapter: inMemory() }), CountersModule] }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    await expect(app.init()).rejects.toThrow(/EventSourcingModule.forRoot \(or forRootAsync\) is imported 2 times; .* import it once, in the root module/);
    await app.close().catch(() => undefined);
  });

  it('finds aggregates declared in feature modules when the root module imports it once', async () => {
    @Module({ providers: [CounterAggregate] })
    class CountersModule {}
    const moduleRef = await Test.createTestingModule({ imports: [EventSourcingModule.forRoot({ adapter: inMemory() }), CountersModule] }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    await app.init();
    expect(await app.get(CommandGateway).send(new AddMany('f1', 1))).toMatchObject({ aggregateType: 'counter', sequence: 1 });
    await app.close();
  });
});
