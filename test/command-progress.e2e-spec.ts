import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { EventSourcingModule } from '@nest-es/core';
import { EventSourcingHttpModule } from '@nest-es/http';
import { typeorm } from '@nest-es/typeorm';
import { createHttpApp, HTTP_ADAPTERS } from './support/http-adapter.js';
import { PARCEL_PROVIDERS, STUCK } from './support/parcel.domain.js';
import { SseClient } from './support/sse-client.js';
import { createTestStore, type TestStore } from './support/test-store.js';

const SYNC_TIMEOUT_MS = 1_500;

/** A command sent with Accept: text/event-stream: its progress as server-sent events instead of a wait. */
describe.each(HTTP_ADAPTERS)('a command\'s progress over server-sent events (%s)', (adapter) => {
  let store: TestStore;
  let app: INestApplication;
  let base: string;

  beforeAll(async () => {
    store = await createTestStore();
    const moduleRef = await Test.createTestingModule({
      imports: [
        EventSourcingModule.forRoot({ adapter: typeorm(store.options), syncTimeoutMs: SYNC_TIMEOUT_MS, processing: { pollIntervalMs: 50 } }),
        EventSourcingHttpModule.forRoot(),
      ],
      providers: PARCEL_PROVIDERS,
    }).compile();
    app = await createHttpApp(moduleRef, adapter);
    await app.listen(0, '127.0.0.1');
    base = await app.getUrl();
  });

  afterAll(async () => {
    await app?.close();
    await store?.cleanup();
  });

  const ship = (parcelId: string, headers: Record<string, string> = {}) => SseClient.connect(`${base}/commands/parcel/${parcelId}/Ship`, headers, { post: { to: `box-${parcelId}` } });

  it('streams stored, then each subscriber as it handled the cascade, then done', async () => {
    const client = await ship('p1');
    if (!(client instanceof SseClient)) throw new Error(`refused: ${client.status} ${client.body}`);
    await client.ended;
    const names = client.events.map((event) => event.event);
    expect(names[0]).toBe('stored');
    expect(names.at(-1)).toBe('done');
    expect(JSON.parse(client.events[0].data)).toMatchObject({ aggregateType: 'parcel', aggregateId: 'p1', sequence: 1, duplicate: false, events: [{ type: 'Shipped' }] });
    const steps = client.events.filter((event) => event.event === 'handled').map((event) => JSON.parse(event.data) as { subscriber: string; kind: string; position: number });
    // The saga once; the board for Shipped and again for the saga's NoteDropped (a later position), or
    // once at the later position when it handled both before the stream looked.
    expect(steps.filter((step) => step.subscriber === 'parcel-notes').map((step) => step.kind)).toEqual(['saga']);
    const shippedAt = (JSON.parse(client.events[0].data) as { events: { position: number }[] }).events[0].position;
    const board = steps.filter((step) => step.subscriber === 'parcel-board').map((step) => step.position);
    expect(board.length).toBeGreaterThanOrEqual(1);
    expect(board.length).toBeLessThanOrEqual(2);
    expect([...board].sort((a, b) => a - b)).toEqual(board);
    expect(board.at(-1)).toBeGreaterThan(shippedAt);
    expect(steps).toHaveLength(board.length + 1);
  });

  it('ends with timeout, naming what is late, when a consequence does not become visible in time', async () => {
    const client = await ship(`${STUCK}-1`);
    if (!(client instanceof SseClient)) throw new Error(`refused: ${client.status} ${client.body}`);
    await client.ended;
    const last = client.events.at(-1)!;
    expect(client.events[0].event).toBe('stored');
    expect(last.event).toBe('timeout');
    expect(JSON.parse(last.data)).toMatchObject({ code: 'SYNC_TIMEOUT', details: { pending: [expect.objectContaining({ subscriber: 'parcel-board' })] } });
  });

  it('refuses Sync-Mode beside it, and answers refusals before storing as any request', async () => {
    const both = await ship('p2', { 'sync-mode': 'cascade' });
    expect(both).toMatchObject({ status: 400 });
    expect(JSON.parse((both as { body: string }).body)).toMatchObject({ code: 'INVALID_ARGUMENT' });
    const invalid = await SseClient.connect(`${base}/commands/parcel/p3/Ship`, {}, { post: { to: 42 } });
    expect(invalid).toMatchObject({ status: 400 });
  });

  it('still answers a plain request with the JSON result', async () => {
    const response = await fetch(`${base}/commands/parcel/p4/Ship`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ to: 'box-p4' }) });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toMatchObject({ aggregateType: 'parcel', aggregateId: 'p4', sequence: 1 });
  });
});
