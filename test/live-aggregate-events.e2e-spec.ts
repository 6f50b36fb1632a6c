import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { INestApplication } from '@nestjs/common';
import { CommandGateway } from '@nest-es/core';
import { HTTP_ADAPTERS } from './support/http-adapter.js';
import { WriteEntry } from './support/journal.domain.js';
import { createLiveApp } from './support/live-app.js';
import { opened, SseClient } from './support/sse-client.js';
import { createTestStore, type TestStore } from './support/test-store.js';
import { until } from './support/until.js';

const ANN = { 'x-user': 'ann' };

/**
 * `GET /aggregates/:type/:id/events/live` over a real socket, read as a browser's EventSource would:
 * what the events route shows the reader, in order, once each, across reconnects; refusals as the
 * events route answers them; the bound on open streams; shutdown with streams open.
 */
describe.each(HTTP_ADAPTERS)('live aggregate events over server-sent events (%s)', (adapter) => {
  let store: TestStore;
  let app: INestApplication;
  let url: string;
  let gateway: CommandGateway;
  const clients: SseClient[] = [];

  const live = (journalId: string, headers: Record<string, string> = ANN, query = '') =>
    SseClient.connect(`${url}/aggregates/journal/${journalId}/events/live${query}`, headers);
  const connect = async (journalId: string, headers: Record<string, string> = ANN, query = '') => {
    const client = opened(await live(journalId, headers, query));
    clients.push(client);
    return client;
  };
  const write = async (journalId: string, ...texts: string[]) => {
    for (const text of texts) await gateway.send(new WriteEntry(journalId, text));
  };
  /** What the events route shows ann of a journal, as one JSON text per event. */
  const eventsRoute = async (journalId: string) => {
    const page = (await (await fetch(`${url}/aggregates/journal/${journalId}/events`, { headers: ANN })).json()) as { events: unknown[] };
    return page.events.map((event) => JSON.stringify(event));
  };

  beforeAll(async () => {
    store = await createTestStore();
    ({ app, url } = await createLiveApp(adapter, store.options, { maxStreams: 3, heartbeatMs: 100, pollMs: 60_000 }));
    gateway = app.get(CommandGateway);
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });

  afterAll(async () => {
    // fetch's connection pool may hold a socket it connected but sent nothing on; Node counts that as
    // a request under way until its headers timeout, so the server's close would wait a minute for it.
    // (That close ends open streams promptly is the suite below, which does not do this.)
    (app?.getHttpServer() as Server | undefined)?.closeAllConnections();
    await app?.close();
    await store?.cleanup();
  });

  it('sends what the events route shows, in order: the stored events at once, then each new one as it is committed', async () => {
    await write('ann-diary', 'one', 'two');
    await gateway.send(new WriteEntry('ann-diary', 'hidden', { private: true }));
    const client = await connect('ann-diary');
    expect(client.headers.get('content-type')).toMatch(/^text\/event-stream/);
    await client.received(2);
    await write('ann-diary', 'three', 'four', 'five');
    await client.received(5);
    // The private entry (sequence 3) is hidden, as on the events route.
    expect(client.ids).toEqual([1, 2, 4, 5, 6]);
    expect(client.events.map((event) => event.event)).toEqual(Array(5).fill('EntryWritten'));
    expect(client.events.map((event) => event.data)).toEqual(await eventsRoute('ann-diary'));
    expect(JSON.parse(client.events[0].data)).toMatchObject({ type: 'EntryWritten', sequence: 1, payload: { text: 'one' } });
  });

  it('resumes after Last-Event-ID with exactly the events missed while disconnected', async () => {
    await write('ann-trip', 'a', 'b', 'c');
    const first = await connect('ann-trip');
    await first.received(3);
    await first.close();
    await write('ann-trip', 'd', 'e');
    const again = await connect('ann-trip', { ...ANN, 'last-event-id': first.events.at(-1)!.id! });
    await again.received(2);
    await write('ann-trip', 'f');
    await again.received(3);
    // Nothing more comes: a duplicate would arrive with the next wake-up or poll.
    await write('ann-other', 'elsewhere');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(again.ids).toEqual([4, 5, 6]);
    expect([...first.events, ...again.events].map((event) => JSON.parse(event.data).payload.text)).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
  });

  it('takes ?after= from clients that cannot set headers; Last-Event-ID wins over it', async () => {
    await write('ann-log', 'a', 'b', 'c', 'd');
    const fromQuery = await connect('ann-log', ANN, '?after=2');
    await fromQuery.received(2);
    const both = await connect('ann-log', { ...ANN, 'last-event-id': '3' }, '?after=1');
    await both.received(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(fromQuery.ids).toEqual([3, 4]);
    expect(both.ids).toEqual([4]);
  });

  it.each([
    ['?after=-1', {}],
    ['?after=x', {}],
    ['', { 'last-event-id': 'abc' }],
  ])('answers an invalid cursor (%s %j) with 400 and the error body', async (query, headers) => {
    const refused = await live('ann-diary', { ...ANN, ...headers }, query);
    expect(refused).not.toBeInstanceOf(SseClient);
    expect(refused.status).toBe(400);
    expect(JSON.parse((refused as { body: string }).body)).toMatchObject({ statusCode: 400, code: 'INVALID_ARGUMENT' });
  });

  it('refuses an aggregate the reader may not read with the events route\'s status, and sends none of its events', async () => {
    await write('bob-secrets', 'mine');
    const route = await fetch(`${url}/aggregates/journal/bob-secrets/events`, { headers: ANN });
    const refused = await live('bob-secrets');
    expect(refused).not.toBeInstanceOf(SseClient);
    expect(refused.status).toBe(route.status);
    expect(refused.status).toBe(403);
    expect((refused as { body: string }).body).not.toContain('mine');
    expect(JSON.parse((refused as { body: string }).body)).toMatchObject({ code: 'PERMISSION_DENIED' });
    // The guard's refusal, and an aggregate type not readable over HTTP, likewise.
    expect((await live('ann-diary', {})).status).toBe(401);
    expect((await SseClient.connect(`${url}/aggregates/nothing/x/events/live`, ANN)).status).toBe(404);
  });

  it('ends the stream, sending nothing, when the view refuses an event committed after the connection', async () => {
    // Empty when connecting: the view has nothing to refuse yet, so the stream opens.
    const client = await connect('bob-later');
    await write('bob-later', 'not for ann');
    await client.ended;
    expect(client.events).toEqual([]);
  });

  it('sends a heartbeat comment while nothing happens', async () => {
    const client = await connect('ann-quiet');
    // The opening comment, then heartbeats.
    await until(() => client.comments >= 3, 'two heartbeats', 5_000);
    expect(client.events).toEqual([]);
  });

  it('answers 503 with Retry-After and the error body past maxStreams, and frees the slot of a closed stream', async () => {
    // The streams of the tests before are closed, but the server may not have seen their sockets go yet.
    const open: SseClient[] = [];
    for (const journal of ['ann-a', 'ann-b', 'ann-c']) {
      await until(async () => {
        const result = await live(journal);
        if (result instanceof SseClient) open.push(result);
        return result.status === 200;
      }, `a slot for ${journal}`, 5_000);
    }
    clients.push(...open);
    const refused = await live('ann-d');
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(JSON.parse((refused as { body: string }).body)).toMatchObject({ statusCode: 503, code: 'UNAVAILABLE' });
    await open[0].close();
    await until(async () => {
      const result = await live('ann-d');
      if (result instanceof SseClient) clients.push(result);
      return result.status === 200;
    }, 'a slot after a stream closed', 5_000);
  });
});

describe.each(HTTP_ADAPTERS)('live aggregate events at shutdown (%s)', (adapter) => {
  let store: TestStore;

  beforeAll(async () => {
    store = await createTestStore();
  });

  afterAll(async () => {
    await store?.cleanup();
  });

  it('app.close() ends the open streams promptly instead of waiting for them', async () => {
    const { app, url } = await createLiveApp(adapter, store.options);
    await app.get(CommandGateway).send(new WriteEntry('ann-last', 'bye'));
    const clients = await Promise.all([1, 2].map(async () => opened(await SseClient.connect(`${url}/aggregates/journal/ann-last/events/live`, ANN))));
    await Promise.all(clients.map((client) => client.received(1)));
    const started = Date.now();
    await app.close();
    await Promise.all(clients.map((client) => client.ended));
    // Held open, Node would wait for them until its header timeout (over a minute).
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe.each(HTTP_ADAPTERS)('live aggregate events to a client that does not read (%s)', (adapter) => {
  let store: TestStore;
  let app: INestApplication;
  let url: string;
  /** The server's responses of the live route, to see how much waits in their buffers. */
  const responses: ServerResponse[] = [];

  beforeAll(async () => {
    store = await createTestStore();
    ({ app, url } = await createLiveApp(adapter, store.options, { pollMs: 60_000 }));
    (app.getHttpServer() as Server).on('request', (request: IncomingMessage, response: ServerResponse) => {
      if (request.url?.includes('/events/live')) responses.push(response);
    });
  });

  afterAll(async () => {
    (app?.getHttpServer() as Server | undefined)?.closeAllConnections();
    await app?.close();
    await store?.cleanup();
  });

  it('holds at most one batch for it while its socket does not drain, then sends the rest once it reads', async () => {
    const text = 'x'.repeat(8_000);
    const commands = 30;
    const client = opened(await SseClient.connect(`${url}/aggregates/journal/ann-bulk/events/live`, ANN, { paused: true }));
    try {
      const response = responses.at(-1)!;
      let buffered = 0;
      const sample = setInterval(() => (buffered = Math.max(buffered, response.writableLength)), 5);
      const gateway = app.get(CommandGateway);
      for (let i = 0; i < commands; i++) await gateway.send(new WriteEntry('ann-bulk', text, { copies: 100 }));
      // The socket's buffers fill first (how much they take depends on the machine); then the
      // response holds what the socket does not take, and goes on holding it while nobody reads.
      await until(() => buffered > 0, 'the server to hold a batch for the client that does not read', 30_000);
      await new Promise((resolve) => setTimeout(resolve, 500));
      clearInterval(sample);
      // 24 MB were committed; the socket took a few, the response holds at most one batch (100 events).
      const batchBytes = 100 * (text.length + 400);
      expect(buffered).toBeGreaterThan(0);
      expect(buffered).toBeLessThanOrEqual(batchBytes);
      expect(client.events).toEqual([]);
      client.resume();
      await client.received(commands * 100, 30_000);
      expect(client.ids).toEqual(Array.from({ length: commands * 100 }, (_, i) => i + 1));
    } finally {
      await client.close();
    }
  });
});

describe('live aggregate events on a store without a wake channel (SQLite), committed by another process', () => {
  let store: TestStore;
  let writer: INestApplication;
  let server: { app: INestApplication; url: string };

  beforeAll(async () => {
    store = await createTestStore();
    ({ app: writer } = await createLiveApp('express', store.options));
    server = await createLiveApp('express', store.options, { pollMs: 100 });
  });

  afterAll(async () => {
    (server?.app.getHttpServer() as Server | undefined)?.closeAllConnections();
    await server?.app.close();
    await writer?.close();
    await store?.cleanup();
  });

  it('finds the other instance\'s events with its poll, once each, in order', async () => {
    const client = opened(await SseClient.connect(`${server.url}/aggregates/journal/ann-polled/events/live`, ANN));
    try {
      const gateway = writer.get(CommandGateway);
      for (let i = 1; i <= 5; i++) await gateway.send(new WriteEntry('ann-polled', `entry ${i}`));
      await client.received(5);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(client.ids).toEqual([1, 2, 3, 4, 5]);
    } finally {
      await client.close();
    }
  });
});
