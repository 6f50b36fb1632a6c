import type { AddressInfo } from 'node:net';
import { context, propagation, SpanKind, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, NodeTracerProvider, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { EVENT_STORE, type EventStore } from '@nest-es/core';
import type { PokerClient } from '../apps/poker/src/client/poker-client.js';
import { HTTP_ADAPTERS } from './support/http-adapter.js';
import { createMergeApp } from './support/merge-app.js';
import { eventually, type PokerServer, startPokerServer } from './support/poker-server.js';
import { createTestStore, type TestStore } from './support/test-store.js';

/*
 * OpenTelemetry through @opentelemetry/api, with the SDK and an in-memory exporter registered the
 * way an application registers its own. One buy-in of the poker app is one trace: the caller's
 * traceparent -> the request's server span -> command ReserveFunds -> its append -> the deliveries of FundsReserved (a projector
 * and the buy-in process manager) -> the process manager's command JoinTable -> its deliveries.
 * A saga's command joins the trace of the event it reacted to in the same way. The framework's own
 * command route continues a caller's traceparent on Express and on Fastify.
 */
describe('tracing: one trace from a request through events to the next command', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  let store: TestStore;
  let server: PokerServer;
  let client: PokerClient;

  beforeAll(async () => {
    provider.register();
    store = await createTestStore();
    server = await startPokerServer(store.options);
    client = server.client;
    await client.createTable('traced', { name: 'Traced', variant: 'TEXAS_HOLDEM', smallBlind: 5, bigBlind: 10, minBuyIn: 100, maxBuyIn: 1000, maxPlayers: 6 });
    await client.registerPlayer('tess', 'Tess');
  });

  afterAll(async () => {
    await server?.app.close();
    await store?.cleanup();
    await provider.shutdown();
    trace.disable();
    context.disable();
    propagation.disable();
  });

  const CALLER_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
  const CALLER_SPAN = '00f067aa0ba902b7';

  it('links the request, the command, its events, their deliveries and the process manager\'s next command', async () => {
    exporter.reset();
    const outcome = await client.request<{ buyInId: string; status: string }>(
      'POST',
      '/tables/traced/buy-in',
      { playerId: 'tess', seat: 2, amount: 300 },
      client.signedAs('tess', { traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01` }),
    );
    expect(outcome.status).toBe('COMPLETED');
    // Projector deliveries may end just after the answer: wait for the last one expected.
    const inTrace = () => exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === CALLER_TRACE);
    await eventually(
      async () => inTrace().map((span) => span.name),
      (names) => names.includes('deliver table-view PlayerJoined') && names.includes('deliver buy-in PlayerJoined'),
      'the buy-in spans',
    );
    const spans = inTrace();
    const one = (name: string, parent?: ReadableSpan): ReadableSpan => {
      const matches = spans.filter((span) => span.name === name && (!parent || parentOf(span) === parent.spanContext().spanId));
      expect({ name, count: matches.length }).toEqual({ name, count: 1 });
      return matches[0];
    };
    const childNames = (parent: ReadableSpan) => spans.filter((span) => parentOf(span) === parent.spanContext().spanId).map((span) => span.name).sort();

    // The caller's traceparent is the parent of the request's server span, which is the command's.
    const request = one('POST /tables/:tableId/buy-in');
    expect([parentOf(request), request.kind, request.attributes['http.response.status_code']]).toEqual([CALLER_SPAN, SpanKind.SERVER, 200]);
    const reserve = one('command ReserveFunds', request);
    expect(reserve.attributes).toMatchObject({
      'es.command.type': 'ReserveFunds',
      'es.aggregate.type': 'player',
      'es.aggregate.id': 'tess',
      'es.correlation_id': outcome.buyInId,
      'es.sync_mode': 'cascade',
    });
    const reserveAppend = one('append', reserve);
    expect(childNames(reserve)).toEqual(['append', 'decide']);

    // FundsReserved carries the append's context in its metadata; its deliveries are children of that append.
    const [reserved] = (await server.app.get<EventStore>(EVENT_STORE).readStream({ aggregateType: 'player', aggregateId: 'tess' })).filter((e) => e.type === 'FundsReserved');
    expect(reserved.metadata.traceparent).toBe(`00-${CALLER_TRACE}-${reserveAppend.spanContext().spanId}-01`);
    expect(childNames(reserveAppend)).toEqual(['deliver balances FundsReserved', 'deliver buy-in FundsReserved']);
    const projected = one('deliver balances FundsReserved', reserveAppend);
    expect(projected.attributes).toMatchObject({ 'es.subscriber': 'balances', 'es.subscriber.kind': 'projector', 'es.correlation_id': outcome.buyInId });

    // The process manager records BuyInInitiated; its delivery emits JoinTable, a command of the same trace.
    const started = one('deliver buy-in FundsReserved', reserveAppend);
    const initiated = one('deliver buy-in BuyInInitiated', one('append', started));
    const join = one('command JoinTable', initiated);
    expect(join.attributes).toMatchObject({ 'es.aggregate.type': 'table', 'es.aggregate.id': 'traced', 'es.correlation_id': outcome.buyInId, 'es.sync_mode': 'async' });
    const joinAppend = one('append', join);
    expect(childNames(joinAppend)).toEqual(expect.arrayContaining(['deliver buy-in PlayerJoined', 'deliver table-view PlayerJoined']));
    // PlayerJoined completes the buy-in: the process manager appends BuyInCompleted in that delivery.
    expect(one('append', one('deliver buy-in PlayerJoined', joinAppend)).attributes).toMatchObject({ 'es.aggregate.type': 'buy-in', 'es.aggregate.id': outcome.buyInId });

    // Every span of the flow says which workflow it serves.
    const flow = spans.filter((span) => span.name.startsWith('command ') || span.name.startsWith('deliver '));
    expect(new Set(flow.map((span) => span.attributes['es.correlation_id']))).toEqual(new Set([outcome.buyInId]));
  });

  it('puts a saga\'s command in the trace of the event it reacted to', async () => {
    exporter.reset();
    await client.command('table', 'traced', 'LeaveTable', { playerId: 'tess' }, { 'Sync-Mode': 'cascade' });
    const named = (name: string) => exporter.getFinishedSpans().filter((span) => span.name === name);
    await eventually(async () => named('command SettleTableSession').length, (count) => count === 1, 'the saga\'s command');
    const [leave] = named('command LeaveTable');
    const [settle] = named('command SettleTableSession');
    const [delivery] = named('deliver table-to-player PlayerLeft');
    const [append] = named('append').filter((span) => span.attributes['es.aggregate.type'] === 'table');
    expect(parentOf(append)).toBe(leave.spanContext().spanId);
    expect(parentOf(delivery)).toBe(append.spanContext().spanId);
    expect(parentOf(settle)).toBe(delivery.spanContext().spanId);
    expect(new Set([leave, append, delivery, settle].map((span) => span.spanContext().traceId)).size).toBe(1);
    expect(delivery.attributes).toMatchObject({ 'es.subscriber.kind': 'saga', 'es.correlation_id': leave.attributes['es.correlation_id'] });
    expect(settle.attributes).toMatchObject({ 'es.aggregate.type': 'player', 'es.aggregate.id': 'tess', 'es.correlation_id': leave.attributes['es.correlation_id'] });
  });

  it('starts a trace of its own when the request carries no usable traceparent', async () => {
    for (const id of ['uma', 'vic']) await client.registerPlayer(id, id);
    exporter.reset();
    expect(await client.buyIn('traced', 'uma', 100, 4)).toMatchObject({ status: 'COMPLETED' });
    const malformed = await client.request('POST', '/tables/traced/buy-in', { playerId: 'vic', seat: 5, amount: 100 }, client.signedAs('vic', { traceparent: 'not-a-trace' }));
    expect(malformed).toMatchObject({ status: 'COMPLETED' });
    const requests = exporter.getFinishedSpans().filter((span) => span.name === 'POST /tables/:tableId/buy-in');
    const commands = exporter.getFinishedSpans().filter((span) => span.name === 'command ReserveFunds');
    expect([requests.length, commands.length]).toEqual([2, 2]);
    for (const request of requests) expect(parentOf(request)).toBeUndefined();
    expect(commands.map((command) => parentOf(command)).sort()).toEqual(requests.map((request) => request.spanContext().spanId).sort());
    expect(new Set(commands.map((span) => span.spanContext().traceId)).size).toBe(2);
  });

  it.each(HTTP_ADAPTERS)("continues the caller's trace from the framework's own command route on %s", async (adapter) => {
    const own = await createTestStore();
    const app = await createMergeApp(own.options, false, adapter);
    try {
      await app.listen(0, '127.0.0.1');
      const { port } = app.getHttpServer().address() as AddressInfo;
      const sent = await fetch(`http://127.0.0.1:${port}/commands/document/d1/EditDocument`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01` },
        body: JSON.stringify({ text: 'traced' }),
      });
      expect(sent.status).toBe(200);
      const [event] = await app.get<EventStore>(EVENT_STORE).readStream({ aggregateType: 'document', aggregateId: 'd1' });
      expect(event.metadata.traceparent).toMatch(new RegExp(`^00-${CALLER_TRACE}-[0-9a-f]{16}-01$`));
    } finally {
      await app.close();
      await own.cleanup();
    }
  });
});

function parentOf(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}
