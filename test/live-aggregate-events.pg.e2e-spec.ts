import type { Server } from 'node:http';
import type { INestApplication } from '@nestjs/common';
import { CommandGateway } from '@nest-es/core';
import { EventNotifier } from '@nest-es/core/internal';
import { WriteEntry } from './support/journal.domain.js';
import { createLiveApp } from './support/live-app.js';
import { opened, SseClient } from './support/sse-client.js';
import { createTestStore, type TestStore } from './support/test-store.js';
import { until } from './support/until.js';

/**
 * Commands on instance A, a live client on instance B, one PostgreSQL store. B polls only once a
 * minute: only the store's wake channel (LISTEN/NOTIFY, relayed by B's EventNotifier) can bring A's
 * events to the client in time.
 */
describe('live aggregate events across instances on PostgreSQL', () => {
  let store: TestStore;
  let writer: INestApplication;
  let server: { app: INestApplication; url: string };
  let gateway: CommandGateway;

  beforeAll(async () => {
    store = await createTestStore();
    ({ app: writer } = await createLiveApp('express', store.options));
    server = await createLiveApp('fastify', store.options, { pollMs: 60_000 });
    gateway = writer.get(CommandGateway);
    // A lone instance announces nothing; wait until B hears A's appends (A has greeted B).
    const notifier = server.app.get(EventNotifier);
    const heard = notifier.appendCount;
    await until(async () => {
      await gateway.send(new WriteEntry('ann-warmup', 'hello'));
      return notifier.appendCount > heard;
    }, 'the second instance to hear the first one\'s appends', 10_000);
  });

  afterAll(async () => {
    // fetch's pool may hold an unused connected socket that Node would wait for (see the SQLite suite).
    (server?.app.getHttpServer() as Server | undefined)?.closeAllConnections();
    await server?.app.close();
    await writer?.close();
    await store?.cleanup();
  });

  it('sends a client on B every event committed on A, once each, in order', async () => {
    await gateway.send(new WriteEntry('ann-shared', 'before'));
    const client = opened(await SseClient.connect(`${server.url}/aggregates/journal/ann-shared/events/live`, { 'x-user': 'ann' }));
    try {
      await client.received(1);
      for (let i = 1; i <= 20; i++) await gateway.send(new WriteEntry('ann-shared', `after ${i}`));
      await client.received(21, 10_000);
      // Unrelated appends wake B again; nothing of ann-shared is sent twice.
      for (let i = 0; i < 5; i++) await gateway.send(new WriteEntry('ann-elsewhere', `noise ${i}`));
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(client.ids).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));
      expect(client.events.map((event) => JSON.parse(event.data).payload.text)).toEqual(['before', ...Array.from({ length: 20 }, (_, i) => `after ${i + 1}`)]);
    } finally {
      await client.close();
    }
  });

  it('resumes on B after Last-Event-ID with the events A committed meanwhile', async () => {
    await gateway.send(new WriteEntry('ann-resume', 'one'));
    const first = opened(await SseClient.connect(`${server.url}/aggregates/journal/ann-resume/events/live`, { 'x-user': 'ann' }));
    await first.received(1);
    await first.close();
    await gateway.send(new WriteEntry('ann-resume', 'two'));
    const again = opened(await SseClient.connect(`${server.url}/aggregates/journal/ann-resume/events/live`, { 'x-user': 'ann', 'last-event-id': '1' }));
    try {
      await again.received(1);
      await gateway.send(new WriteEntry('ann-resume', 'three'));
      await again.received(2);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(again.ids).toEqual([2, 3]);
    } finally {
      await again.close();
    }
  });
});
