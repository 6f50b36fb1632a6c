import { randomUUID } from 'node:crypto';
import { Script } from 'node:vm';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { CommandGateway } from '@nest-es/core';
import { EVENT_STORE_ADAPTER, type EventStore } from '@nest-es/core/internal';
import { EventSourcingHttpModule } from '@nest-es/http';
import { ADMIN_TOKEN, BearerAdminGuard, MeterTotalsProjector, READER_TOKEN, Read, startConsoleApp } from './support/console-app.js';
import { HTTP_ADAPTERS } from './support/http-adapter.js';
import { SseClient } from './support/sse-client.js';
import { createTestStore, type TestStore } from './support/test-store.js';
import { until } from './support/until.js';

const CHECKPOINT = 'meter-totals';

/** Every JSON route of the console, as [method, path, body]. */
const API_ROUTES: Array<[string, string, object?]> = [
  ['GET', '/console/api/subscribers'],
  ['POST', '/console/api/subscribers/held/retry', { checkpoint: CHECKPOINT, position: 1 }],
  ['GET', '/console/api/streams'],
  ['GET', '/console/api/streams/meter/good'],
  ['GET', '/console/api/streams/meter/good/events'],
  ['GET', '/console/api/event-types'],
  ['GET', '/console/api/subscribers/live'],
  ['GET', '/console/api/projections'],
  ['POST', '/console/api/projections/rebuild', { projector: CHECKPOINT }],
  ['POST', '/console/api/projections/switch-back', { projector: CHECKPOINT }],
];

describe('the operator console: mounting', () => {
  it('fails the boot when the console is asked for without an admin guard, saying to add one', () => {
    expect(() => EventSourcingHttpModule.forRoot({ console: {} })).toThrow(/http\.console needs http\.adminGuard.*add one/);
    expect(() => EventSourcingHttpModule.forRoot({ console: { path: '/console' } })).toThrow(/adminGuard/);
  });

  it('refuses a path that is not plain segments', () => {
    for (const path of ['console', '/', '/con sole', '/a/../b?x', '/"><script>']) {
      expect(() => EventSourcingHttpModule.forRoot({ adminGuard: BearerAdminGuard, console: { path } })).toThrow(/http\.console\.path must be a path/);
    }
  });
});

describe.each(HTTP_ADAPTERS)('the operator console on %s', (adapter) => {
  let store: TestStore;
  let app: INestApplication;
  const http = () => request(app.getHttpServer());
  const admin = (method: string, path: string) => (http() as unknown as Record<string, (path: string) => request.Test>)[method.toLowerCase()](path).set('Authorization', `Bearer ${ADMIN_TOKEN}`);
  const subscribers = async () => (await admin('GET', '/console/api/subscribers')).body;
  const checkpoint = async () => (await subscribers()).subscribers.find((s: { name: string }) => s.name === CHECKPOINT).checkpoints[0];

  beforeAll(async () => {
    store = await createTestStore();
    ({ app } = await startConsoleApp(store.options, adapter));
  });

  afterAll(async () => {
    await app?.close();
    await store?.cleanup();
  });

  it('is not mounted without the console option, even with an admin guard', async () => {
    const other = await createTestStore();
    const { app: plain } = await startConsoleApp(other.options, adapter, { http: { adminGuard: BearerAdminGuard } });
    try {
      for (const path of ['/console', '/console/console.js', '/console/api/subscribers']) {
        expect([path, (await request(plain.getHttpServer()).get(path).set('Authorization', `Bearer ${ADMIN_TOKEN}`)).status]).toEqual([path, 404]);
      }
    } finally {
      await plain.close();
      await other.cleanup();
    }
  });

  it('serves a static, data-free shell under the strict CSP: the page, its script and its style, each on its own route', async () => {
    const page = await http().get('/console');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const csp = page.headers['content-security-policy'];
    expect(csp).toMatch(/script-src 'self'/);
    expect(csp).toMatch(/script-src-attr 'none'/);
    // No inline script or style in the markup: the CSP would block them.
    expect(page.text).not.toMatch(/<script>|<style|style="|\son[a-z]+=/i);
    expect(page.text).toContain('src="/console/console.js"');
    expect(page.text).toContain('href="/console/console.css"');
    expect(page.text).toContain('data-api="/console/api"');
    expect(page.text).toContain('data-dead-letters="/dead-letters"');
    const script = await http().get('/console/console.js');
    expect([script.status, script.headers['content-type']]).toEqual([200, expect.stringMatching(/^text\/javascript/)]);
    expect(script.text).toContain('sessionStorage');
    // It parses: a slip in the script (kept as a string) would leave the page dead in every browser.
    expect(() => new Script(script.text)).not.toThrow();
    const style = await http().get('/console/console.css');
    expect([style.status, style.headers['content-type']]).toEqual([200, expect.stringMatching(/^text\/css/)]);
  });

  it('puts every JSON route behind the admin guard: 401 without a token, 403 with one that is not the admin token', async () => {
    for (const [method, path, body] of API_ROUTES) {
      const call = (http() as unknown as Record<string, (path: string) => request.Test>)[method.toLowerCase()];
      const anonymous = await call(path).send(body);
      expect([method, path, anonymous.status, anonymous.body.code]).toEqual([method, path, 401, 'UNAUTHENTICATED']);
      const reader = await (http() as unknown as Record<string, (path: string) => request.Test>)[method.toLowerCase()](path).set('Authorization', `Bearer ${READER_TOKEN}`).send(body);
      expect([method, path, reader.status, reader.body.statusCode]).toEqual([method, path, 403, 403]);
    }
  });

  it('shows a held event with its error and attempts for the projector that fails on one aggregate', async () => {
    const gateway = app.get(CommandGateway);
    const projector = app.get(MeterTotalsProjector);
    await gateway.send(new Read('good', 1));
    projector.failing = true;
    const bad = await gateway.send(new Read('bad', 5));
    const behind = await gateway.send(new Read('bad', 6));
    const [first, second] = [bad.events[0].position, behind.events[0].position];
    await until(async () => {
      const { held } = await checkpoint();
      return held.length === 2 && held[0].lastError !== undefined;
    }, 'both events of meter bad to be held, the first with its error');

    const report = await subscribers();
    expect(report).toMatchObject({ headPosition: second, scaleOut: false, instances: null });
    expect(report.subscribers).toEqual([{ name: CHECKPOINT, kind: 'projector', checkpoints: [expect.any(Object)] }]);
    const status = await checkpoint();
    expect(status).toMatchObject({
      checkpoint: CHECKPOINT,
      partition: { index: 0, count: 1 },
      owner: { instance: null, runsHere: true },
      oldestUnhandled: { position: first, storedAt: expect.any(String), lagMs: expect.any(Number) },
    });
    expect(status.position).toBeGreaterThanOrEqual(second);
    expect(status.held).toEqual([
      { position: first, aggregateType: 'meter', aggregateId: 'bad', attempts: expect.any(Number), lastError: 'meter bad is out of range', nextAttemptAt: expect.any(String) },
      { position: second, aggregateType: 'meter', aggregateId: 'bad', attempts: 0, behind: first },
    ]);
    expect(status.held[0].attempts).toBeGreaterThanOrEqual(1);
  });

  it('refuses bad retry requests with 400, and unknown checkpoints or positions with 404', async () => {
    const retry = (body: unknown) => admin('POST', '/console/api/subscribers/held/retry').send(body as object);
    for (const body of [[1], { position: 1 }, { checkpoint: '', position: 1 }, { checkpoint: 7, position: 1 }, { checkpoint: CHECKPOINT, position: '1' }, { checkpoint: CHECKPOINT, position: 0 }, { checkpoint: CHECKPOINT, position: 1.5 }, { checkpoint: 'x'.repeat(301), position: 1 }]) {
      const refused = await retry(body);
      expect([JSON.stringify(body).slice(0, 60), refused.status, refused.body.code]).toEqual([JSON.stringify(body).slice(0, 60), 400, 'INVALID_ARGUMENT']);
    }
    const empty = await admin('POST', '/console/api/subscribers/held/retry');
    expect([empty.status, empty.body.code]).toEqual([400, 'INVALID_ARGUMENT']);
    const unknown = await retry({ checkpoint: 'no-such-projector', position: 1 });
    expect([unknown.status, unknown.body.code, unknown.body.message]).toEqual([404, 'NOT_FOUND', "no subscriber checkpoint is named 'no-such-projector'"]);
    const notHeld = await retry({ checkpoint: CHECKPOINT, position: 1 });
    expect([notHeld.status, notHeld.body.code]).toEqual([404, 'NOT_FOUND']);
  });

  it('answers 409 from a process that does not run the checkpoint, saying so, and changes nothing', async () => {
    const { app: elsewhere } = await startConsoleApp(store.options, adapter, { processing: { enabled: false } });
    try {
      const [oldest] = (await checkpoint()).held;
      const seen = (await request(elsewhere.getHttpServer()).get('/console/api/subscribers').set('Authorization', `Bearer ${ADMIN_TOKEN}`)).body;
      // The store's held events show there too, without the attempts only the running process knows.
      expect(seen.subscribers[0].checkpoints[0]).toMatchObject({ owner: { instance: null, runsHere: false }, held: [{ position: oldest.position, aggregateId: 'bad' }, { aggregateId: 'bad' }] });
      expect(seen.subscribers[0].checkpoints[0].held[0].attempts).toBeUndefined();
      const refused = await request(elsewhere.getHttpServer())
        .post('/console/api/subscribers/held/retry')
        .set('Authorization', `Bearer ${ADMIN_TOKEN}`)
        .send({ checkpoint: CHECKPOINT, position: oldest.position });
      expect([refused.status, refused.body.code, refused.body.message]).toEqual([409, 'FAILED_PRECONDITION', `${CHECKPOINT} does not run in this process: retry it where it runs`]);
    } finally {
      await elsewhere.close();
    }
    expect((await checkpoint()).held).toHaveLength(2);
  });

  it('retries a held event now, in this process, before its backoff would have: both events are then released in order', async () => {
    const projector = app.get(MeterTotalsProjector);
    // Five failures: the next attempt is two seconds away (the backoff's cap).
    await until(async () => (await checkpoint()).held[0].attempts >= 5, 'five failed attempts');
    const [oldest] = (await checkpoint()).held;
    const scheduled = Date.parse(oldest.nextAttemptAt);
    projector.failing = false;
    const retried = await admin('POST', '/console/api/subscribers/held/retry').send({ checkpoint: CHECKPOINT, position: oldest.position });
    expect([retried.status, retried.body]).toEqual([200, { checkpoint: CHECKPOINT, position: oldest.position, requestedBy: 'operator-olga' }]);
    await until(async () => (await checkpoint()).held.length === 0, 'the held events to be released');
    expect(Date.now()).toBeLessThan(scheduled);
    expect(projector.totals.get('bad')).toBe(11);
  });

  it('finds an aggregate: its state, and its events as stored and as upcast for this code, page by page', async () => {
    const stored: EventStore = app.get(EVENT_STORE_ADAPTER);
    const metadata = { eventId: randomUUID(), commandId: null, correlationId: randomUUID(), causationId: null };
    await stored.append({ stream: { aggregateType: 'meter', aggregateId: 'old' }, expectedSequence: 0, events: [{ type: 'MeterRead', schemaVersion: 1, payload: { value: 7 }, metadata }] });
    await app.get(CommandGateway).send(new Read('old', 3));
    await app.get(CommandGateway).send(new Read('old', 2));

    expect((await admin('GET', '/console/api/streams')).body).toEqual({ aggregates: [{ type: 'meter', hasView: false }] });
    const state = await admin('GET', '/console/api/streams/meter/old');
    expect([state.status, state.body]).toEqual([200, { aggregateType: 'meter', aggregateId: 'old', sequence: 3, state: { total: 12, readings: 3 }, hasView: false }]);

    const first = await admin('GET', '/console/api/streams/meter/old/events?limit=2');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ aggregateType: 'meter', aggregateId: 'old', nextAfter: 2 });
    expect(first.body.events.map((e: { stored: { sequence: number }; upcast: boolean }) => [e.stored.sequence, e.upcast])).toEqual([
      [1, true],
      [2, false],
    ]);
    expect(first.body.events[0].stored).toMatchObject({ type: 'MeterRead', schemaVersion: 1, payload: { value: 7 } });
    expect(first.body.events[0].read).toMatchObject({ type: 'MeterRead', schemaVersion: 2, payload: { value: 7, unit: 'W' } });
    const last = await admin('GET', '/console/api/streams/meter/old/events?limit=2&after=2');
    expect(last.body.events.map((e: { stored: { sequence: number } }) => e.stored.sequence)).toEqual([3]);
    expect(last.body.nextAfter).toBeUndefined();
  });

  it('answers unknown aggregates 404 and bad ids, cursors and limits 400', async () => {
    for (const path of ['/console/api/streams/meter/nobody', '/console/api/streams/meter/nobody/events', '/console/api/streams/boiler/old', '/console/api/streams/boiler/old/events']) {
      const missing = await admin('GET', path);
      expect([path, missing.status, missing.body.code]).toEqual([path, 404, 'NOT_FOUND']);
    }
    const tooLong = 'x'.repeat(300);
    for (const path of [
      `/console/api/streams/meter/${tooLong}`,
      `/console/api/streams/meter/${tooLong}/events`,
      '/console/api/streams/meter/old/events?limit=0',
      '/console/api/streams/meter/old/events?limit=201',
      '/console/api/streams/meter/old/events?limit=ten',
      '/console/api/streams/meter/old/events?limit=1&limit=2',
      '/console/api/streams/meter/old/events?after=-1',
      '/console/api/streams/meter/old/events?after=1.5',
      '/console/api/streams/meter/old/events?after=99999999999',
    ]) {
      const refused = await admin('GET', path);
      expect([path.slice(0, 80), refused.status, refused.body.code]).toEqual([path.slice(0, 80), 400, 'INVALID_ARGUMENT']);
    }
  });

  it('counts the stored events by type and version, as the CLI does', async () => {
    const census = await admin('GET', '/console/api/event-types');
    expect(census.status).toBe(200);
    expect(census.body.eventTypes).toEqual([
      expect.objectContaining({ type: 'MeterRead', schemaVersion: 1, events: 1, reading: 'upcast', current: { type: 'MeterRead', version: 2 } }),
      expect.objectContaining({ type: 'MeterRead', schemaVersion: 2, reading: 'current' }),
    ]);
  });
});

describe.each(HTTP_ADAPTERS)('the console\u2019s live subscribers view on %s', (adapter) => {
  let store: TestStore;
  let app: INestApplication;
  let url: string;

  beforeAll(async () => {
    store = await createTestStore();
    ({ app, url } = await startConsoleApp(store.options, adapter));
  });

  afterAll(async () => {
    await app?.close();
    await store?.cleanup();
  });

  it('closes promptly after pages left and other requests came on kept-alive connections (no hang on shutdown)', async () => {
    const other = await createTestStore();
    const { app: closing, url: at } = await startConsoleApp(other.options, adapter);
    try {
      const pages: SseClient[] = [];
      for (let i = 0; i < 3; i++) pages.push((await SseClient.connect(`${at}/console/api/subscribers/live`, { authorization: `Bearer ${ADMIN_TOKEN}` })) as SseClient);
      await Promise.all(pages.map((page) => page.received(1)));
      await Promise.all(pages.map((page) => page.close()));
      for (let i = 0; i < 3; i++) expect((await fetch(`${at}/console/api/event-types`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).status).toBe(200);
    } finally {
      // Without the adapter options' forceCloseConnections, Fastify's close waited here for ever.
      await closing.close();
      await other.cleanup();
    }
  });

  it('pushes the subscribers view over server-sent events when it changes, to at most 16 pages', async () => {
    const live = () => SseClient.connect(`${url}/console/api/subscribers/live`, { authorization: `Bearer ${ADMIN_TOKEN}` });
    const positionIn = (data: string): number => JSON.parse(data).subscribers.find((s: { name: string }) => s.name === CHECKPOINT).checkpoints[0].position;
    const client = await live();
    if (!(client instanceof SseClient)) throw new Error(`refused: ${client.status} ${client.body}`);
    try {
      const [first] = await client.received(1);
      expect(first.event).toBe('subscribers');
      expect(JSON.parse(first.data)).toMatchObject({ headPosition: expect.any(Number), scaleOut: false, subscribers: [expect.objectContaining({ name: CHECKPOINT })] });
      const { events } = await app.get(CommandGateway).send(new Read('live', 2));
      // Sent again once the projector moved past the new event, without being asked.
      await until(() => client.events.some((event) => positionIn(event.data) >= events[0].position), 'a pushed view with the new position');
      const seen = client.events.length;
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      // Nothing changed meanwhile (the held events of 'bad' aside, whose attempts tick): no copy of the same view.
      const repeats = client.events.slice(seen).filter((event, i, all) => i > 0 && event.data.replace(/"at":"[^"]*"/, '') === all[i - 1].data.replace(/"at":"[^"]*"/, ''));
      expect(repeats).toEqual([]);

      const more: SseClient[] = [];
      try {
        for (let i = 1; i < 16; i++) more.push((await live()) as SseClient);
        const refused = await live();
        expect(refused).toMatchObject({ status: 503 });
        expect((refused as { body: string }).body).toMatch(/already serves 16 live console views/);
      } finally {
        await Promise.all(more.map((other) => other.close()));
      }
    } finally {
      await client.close();
    }
  });
});
