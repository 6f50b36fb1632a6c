import type { INestApplication, Type } from '@nestjs/common';
import { EventsHandler, CqrsModule, type IEventHandler } from '@nestjs/cqrs';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { Aggregate, Apply, CommandGateway, EVENT_STORE, EventSourcingModule, EventType, type EventStore } from '@nest-es/core';
import { SnapshotRebuilder, SNAPSHOT_STORE } from '@nest-es/core/internal';
import { type SnapshotStore } from '@nest-es/core/adapter';
import { EventSourcingCqrsModule, storedEventOf } from '@nest-es/core/cqrs';
import { exposedForTests } from '@nest-es/core/testing';
import {
  AccountNowAggregate,
  AccountThen,
  AddFunds,
  DepositNoticeSaga,
  DepositsProjector,
  DepositWatchProcess,
  FundsAdded,
  OpenAccount,
  seen,
} from './support/evolving-account.domain.js';
import { createTestStore, type TestStore } from './support/test-store.js';
import { until } from './support/until.js';
import { typeorm } from '@nest-es/typeorm';
import { EventSourcingHttpModule } from '@nest-es/http';

const published: Array<{ event: object; name?: string; version?: number }> = [];

@EventsHandler(FundsAdded)
class PublishedFunds implements IEventHandler<FundsAdded> {
  handle(event: FundsAdded) {
    const stored = storedEventOf(event);
    published.push({ event: { ...event }, name: stored?.type, version: stored?.schemaVersion });
  }
}

async function boot(store: TestStore, providers: Type[], imports: NonNullable<Parameters<typeof Test.createTestingModule>[0]['imports']> = []): Promise<INestApplication> {
  const moduleRef = await Test.createTestingModule({
    imports: [EventSourcingModule.forRoot({ adapter: typeorm(store.options), processing: { pollIntervalMs: 20 }, metrics: true }), EventSourcingHttpModule.forRoot({ aggregateReads: true }), ...imports],
    providers,
  }).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  await app.init();
  return app;
}

const send = (app: INestApplication, command: object) => app.get(CommandGateway).send(command, { correlationId: 'acc-1' });
const command = <T extends object>(type: new () => T, fields: Partial<T>): T => Object.assign(new type(), fields);

describe('events that evolve: v1 events read by code where the event is v3, and by code that renamed a class', () => {
  let store: TestStore;
  let app: INestApplication;

  beforeAll(async () => {
    store = await createTestStore();
    const then = await boot(store, [AccountThen]);
    await send(then, command(OpenAccount, { accountId: 'acc-1', owner: 'Ada' }));
    await send(then, command(AddFunds, { accountId: 'acc-1', amount: 5 }));
    await send(then, command(AddFunds, { accountId: 'acc-1', amount: 7 }));
    const raw = await then.get<EventStore>(EVENT_STORE).readStream({ aggregateType: 'account', aggregateId: 'acc-1' });
    // What release 1 stored: the declared name with version 1, and the plain class name.
    expect(raw.map((event) => [event.type, event.schemaVersion, event.payload])).toEqual([
      ['AccountOpened', 1, { owner: 'Ada' }],
      ['bank.FundsAdded', 1, { amount: 5 }],
      ['bank.FundsAdded', 1, { amount: 7 }],
    ]);
    await then.close();

    app = await boot(store, [exposedForTests(AccountNowAggregate), DepositsProjector, DepositNoticeSaga, DepositWatchProcess, PublishedFunds], [CqrsModule.forRoot(), EventSourcingCqrsModule]);
  });

  afterAll(async () => {
    await app?.close();
    await store.cleanup();
  });

  it('loads the aggregate through the upcasters and the renamed class, and appends v3 after the v1 events', async () => {
    const http = request(app.getHttpServer());
    expect((await http.get('/aggregates/account/acc-1')).body).toEqual({ sequence: 3, state: { owner: 'Ada', cents: 1200, currencies: ['EUR'] } });
    const added = await send(app, command(AddFunds, { accountId: 'acc-1', amount: 1 }));
    expect(added.sequence).toBe(4);
    expect((await http.get('/aggregates/account/acc-1')).body.state.cents).toBe(1300);
  });

  it('lists events over HTTP at the current version', async () => {
    const listed = (await request(app.getHttpServer()).get('/aggregates/account/acc-1/events')).body.events;
    expect(listed.map((event: { type: string; payload: unknown }) => [event.type, event.payload])).toEqual([
      ['AccountOpened', { owner: 'Ada' }],
      ['bank.FundsAdded', { cents: 500, currency: 'EUR' }],
      ['bank.FundsAdded', { cents: 700, currency: 'EUR' }],
      ['bank.FundsAdded', { cents: 100, currency: 'EUR' }],
    ]);
  });

  it('hands projectors, sagas and process managers the upcast payloads', async () => {
    await until(() => seen.projector.length >= 3 && seen.saga.length >= 3 && seen.process.length >= 4, `the subscribers (seen ${JSON.stringify(seen)})`, 10_000);
    const v3 = [{ cents: 500, currency: 'EUR' }, { cents: 700, currency: 'EUR' }, { cents: 100, currency: 'EUR' }];
    expect(seen.projector).toEqual(v3.map((payload) => ({ ...payload, version: 3, type: 'bank.FundsAdded' })));
    expect(seen.saga).toEqual(v3);
    expect(seen.process).toEqual([{ opened: 'Ada' }, ...v3]);
  });

  it('rebuilds snapshots from upcast events', async () => {
    const summary = await app.get(SnapshotRebuilder).rebuild('account');
    expect(summary).toMatchObject({ aggregates: 1 });
    const snapshot = await app.get<SnapshotStore>(SNAPSHOT_STORE).loadLatest({ aggregateType: 'account', aggregateId: 'acc-1' }, 2);
    expect(snapshot).toMatchObject({ sequence: 4, state: { owner: 'Ada', cents: 1300, currencies: ['EUR'] } });
  });

  it('publishes on the @nestjs/cqrs EventBus as the current class, with the stored name and version', async () => {
    await until(() => published.length >= 1, 'the EventBus', 10_000);
    expect(published[0]).toEqual({ event: { cents: 100, currency: 'EUR' }, name: 'bank.FundsAdded', version: 3 });
  });

  it('fails the boot on two classes with one event name, and on a version without an upcaster from each older one', async () => {
    @EventType('bank.FundsAdded')
    class Impostor {}
    @EventType('bank.Gap', { version: 3, upcasters: { 1: (v1) => v1 } })
    class Gap {}
    @Aggregate('impostor')
    class ImpostorAggregate {
      initialState() {
        return {};
      }
      @Apply(Impostor) onImpostor() {}
      @Apply(Gap) onGap() {}
    }
    const other = await createTestStore();
    try {
      await expect(boot(other, [AccountNowAggregate, ImpostorAggregate])).rejects.toThrow(
        /event type 'bank.FundsAdded' is declared by two classes: (FundsAdded and Impostor|Impostor and FundsAdded)[\s\S]*event type 'bank.Gap' \(Gap\) is version 3 but has no upcaster from version 2/,
      );
    } finally {
      await other.cleanup();
    }
  });
});
