import { randomBytes } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { jetstream, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { connect, headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import { CommandGateway, EVENT_STORE, EventSourcingModule, type EventStore, type StoredEvent } from '@nest-es/core';
import { NatsJetStreamModule, type NatsJetStreamOptions } from '@nest-es/nats';
import { PrivateNatsServer } from './support/nats-server.js';
import { PayOrder, PlaceOrder, SHOP_PROVIDERS, StockCounted } from './support/shop.domain.js';
import { createTestStore, type TestStore } from './support/test-store.js';
import { typeorm } from '@nest-es/typeorm';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

async function until(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function shopWithNats(store: TestStore, nats: Omit<NatsJetStreamOptions, 'servers'>, servers = NATS_URL): Promise<INestApplication> {
  const moduleRef = await Test.createTestingModule({
    imports: [
      EventSourcingModule.forRoot({ adapter: typeorm(store.options), processing: { pollIntervalMs: 50, timerPollIntervalMs: 20 } }),
      NatsJetStreamModule.forRoot({ servers, ...nats }),
    ],
    providers: SHOP_PROVIDERS,
  }).compile();
  const app = moduleRef.createNestApplication({ logger: ['error'] });
  await app.init();
  return app;
}

interface Published {
  eventId: string;
  aggregateType: string;
  aggregateId: string;
  sequence: number;
  type: string;
}

describe(`NATS JetStream adapters (${process.env.ES_TEST_DB ?? 'sqlite'})`, () => {
  const id = randomBytes(5).toString('hex');
  let store: TestStore;
  let nc: NatsConnection;
  let jsm: JetStreamManager;
  const streams: string[] = [];

  beforeAll(async () => {
    store = await createTestStore();
    nc = await connect({ servers: NATS_URL });
    jsm = await jetstreamManager(nc);
  });

  afterAll(async () => {
    for (const name of streams) await jsm.streams.delete(name).catch(() => undefined);
    await nc?.close();
    await store?.cleanup();
  });

  async function streamMessages(name: string, manager = jsm): Promise<Published[]> {
    const info = await manager.streams.info(name);
    const out: Published[] = [];
    for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages > 0; seq++) {
      out.push((await manager.streams.getMessage(name, { seq }))!.json<Published>());
    }
    return out;
  }

  /** Each event stored is in the stream once, and each aggregate's events are in their order. */
  function expectPublishedOnceInOrder(published: Published[], stored: StoredEvent[]): void {
    expect(published.map((m) => m.eventId).sort()).toEqual(stored.map((e) => e.metadata.eventId).sort());
    expect(new Set(published.map((m) => m.eventId)).size).toBe(published.length);
    const last = new Map<string, number>();
    for (const message of published) {
      const key = `${message.aggregateType}/${message.aggregateId}`;
      expect(message.sequence).toBe((last.get(key) ?? 0) + 1);
      last.set(key, message.sequence);
    }
  }

  const all = async (app: INestApplication): Promise<StoredEvent[]> => app.get<EventStore>(EVENT_STORE).readAll({ limit: 10_000 });

  it('publishes every committed event once, with the event id as message id, in each aggregate\'s order, across a restart', async () => {
    const stream = `ES_OUT_${id}`;
    streams.push(stream);
    const publisher = { stream, subjectPrefix: `out${id}` };
    let app = await shopWithNats(store, { publisher });
    try {
      for (let i = 0; i < 10; i++) await app.get(CommandGateway).send(new PlaceOrder(`p${i}`, `sku-${i % 3}`, 1));
      await until(async () => (await streamMessages(stream)).length === (await all(app)).length);
    } finally {
      await app.close();
    }
    // A restart starts from the checkpoint; more events after it.
    app = await shopWithNats(store, { publisher });
    let stored: StoredEvent[];
    try {
      await app.get(CommandGateway).send(new PlaceOrder('after-restart', 'sku-0', 1));
      await until(async () => (await streamMessages(stream)).length === (await all(app)).length);
      stored = await all(app);
    } finally {
      await app.close();
    }

    const published = await streamMessages(stream);
    expectPublishedOnceInOrder(published, stored);
    const first = (await jsm.streams.getMessage(stream, { seq: 1 }))!;
    expect(first.subject).toBe(`out${id}.${published[0].aggregateType}.${published[0].type}`);
    expect(first.header?.get('Nats-Msg-Id')).toBe(published[0].eventId);
  });

  it('boots instances that start together on a stream none of them finds: one stream, every event once', async () => {
    const stream = `ES_TOGETHER_${id}`;
    streams.push(stream);
    const apps = await Promise.all([1, 2, 3].map(() => shopWithNats(store, { publisher: { stream, subjectPrefix: `together${id}` } })));
    try {
      await apps[0].get(CommandGateway).send(new PlaceOrder(`together-${id}`, 'fig', 1));
      const stored = (await apps[0].get<EventStore>(EVENT_STORE).readAll({ limit: 10_000 })).filter((event) => event.aggregateId === `together-${id}`);
      await until(async () => (await streamMessages(stream)).some((message) => message.aggregateId === `together-${id}`));
      expect((await streamMessages(stream)).filter((message) => message.aggregateId === `together-${id}`).map((message) => message.eventId)).toEqual(
        stored.map((event) => event.metadata.eventId),
      );
    } finally {
      await Promise.all(apps.map((app) => app.close()));
    }
  });

  it('survives a NATS restart: nothing lost, nothing twice, no aggregate\'s events reordered', async () => {
    // A server of the test's own (the shared one on 4222 stays up for the other suites).
    const server = await PrivateNatsServer.start();
    const stream = `ES_RESTART_${id}`;
    const app = await shopWithNats(store, { publisher: { stream, subjectPrefix: `restart${id}` } }, server.url);
    let own: NatsConnection | undefined;
    try {
      const gateway = app.get(CommandGateway);
      for (let i = 0; i < 5; i++) await gateway.send(new PlaceOrder(`r${id}-${i}`, `rsku-${i}`, 1));
      own = await connect({ servers: server.url, reconnect: true, maxReconnectAttempts: -1, reconnectTimeWait: 100 });
      const manager = await jetstreamManager(own);
      await until(async () => (await streamMessages(stream, manager)).length === (await all(app)).length);

      // NATS goes away while the same aggregates go on: their next events wait for it.
      await server.stop();
      for (let i = 0; i < 5; i++) await gateway.send(new PayOrder(`r${id}-${i}`));
      for (let i = 5; i < 8; i++) await gateway.send(new PlaceOrder(`r${id}-${i}`, `rsku-${i}`, 1));
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await server.restart();

      await until(async () => (await streamMessages(stream, manager).catch(() => [])).length === (await all(app)).length, 30_000);
      const stored = await all(app);
      expect(stored.filter((event) => event.type === 'OrderPaid')).toHaveLength(5);
      expectPublishedOnceInOrder(await streamMessages(stream, manager), stored);
    } finally {
      await app.close();
      await own?.close();
      await server.destroy();
    }
  });

  it('stores each incoming message once as a fact, and acknowledges it only after', async () => {
    const stream = `ES_IN_${id}`;
    streams.push(stream);
    await jsm.streams.add({ name: stream, subjects: [`in${id}.>`] });
    const app = await shopWithNats(store, {
      consumer: {
        stream,
        durable: `facts_${id}`,
        toFact: (message) => {
          const { sku, onHand } = message.data as { sku: string; onHand: number };
          return { aggregateType: 'stock', aggregateId: sku, event: new StockCounted(onHand) };
        },
      },
    });
    try {
      const js = jetstream(nc);
      const h = natsHeaders();
      h.set('Correlation-Id', 'warehouse-sync');
      await js.publish(`in${id}.counted`, JSON.stringify({ sku: `in-${id}`, onHand: 42 }), { msgID: 'count-1', headers: h });
      // The same message sent again (a producer's retry): JetStream keeps one, and so does the store.
      await js.publish(`in${id}.counted`, JSON.stringify({ sku: `in-${id}`, onHand: 42 }), { msgID: 'count-1' });
      await js.publish(`in${id}.counted`, JSON.stringify({ sku: `in-${id}`, onHand: 7 }), { msgID: 'count-2' });
      const events = app.get<EventStore>(EVENT_STORE);
      const stream$ = { aggregateType: 'stock', aggregateId: `in-${id}` };
      await until(async () => (await events.readStream(stream$)).length === 2);
      const facts = await events.readStream(stream$);
      expect(facts.map((e) => [e.type, e.payload, e.metadata.externalId])).toEqual([
        ['StockCounted', { onHand: 42 }, 'count-1'],
        ['StockCounted', { onHand: 7 }, 'count-2'],
      ]);
      await until(async () => (await jsm.consumers.info(stream, `facts_${id}`)).num_ack_pending === 0);
    } finally {
      await app.close();
    }
  });
});
