import { jest } from '@jest/globals';
import { context, propagation, ProxyTracer, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { OpenTelemetryTracing } from './open-telemetry-tracing.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const STORED_SPAN = '00f067aa0ba902b7';
/** An event's metadata as stored by a traced append. */
const stored = { traceparent: `00-${TRACE}-${STORED_SPAN}-01` };

describe('OpenTelemetryTracing', () => {
  afterEach(() => {
    jest.restoreAllMocks();
    trace.disable();
    context.disable();
    propagation.disable();
  });

  it('starts no span while no tracer provider is registered, and still carries a stored trace context on', async () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    const started = jest.spyOn(ProxyTracer.prototype, 'startActiveSpan');
    const tracing = new OpenTelemetryTracing();

    const metadata: Record<string, unknown> = {};
    const delivered = await tracing.span('deliver saga PlayerLeft', { kind: 'consumer', parentFrom: stored }, async (span) => {
      span.setAttributes({ 'es.subscriber': 'saga' });
      tracing.inject(metadata);
      return 'delivered';
    });
    await expect(tracing.span('command Deposit', {}, async () => Promise.reject(new Error('refused')))).rejects.toThrow('refused');

    expect(delivered).toBe('delivered');
    expect(started).not.toHaveBeenCalled();
    // What the saga's command would carry: the stored event's context, as an unrecorded span of the API would have passed on.
    expect(metadata.traceparent).toBe(stored.traceparent);
  });

  it('records every span once a provider is registered, also one registered after it was created', async () => {
    const tracing = new OpenTelemetryTracing();
    await tracing.span('command Deposit', {}, async () => undefined);
    const exporter = new InMemorySpanExporter();
    const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    provider.register();

    await tracing.span('command Deposit', { attributes: { 'es.aggregate.id': 'a-1', 'es.expected_sequence': undefined } }, async (span) => {
      span.setAttributes({ 'es.sequence': 3 });
    });
    const lost = Object.assign(new Error('lost the race'), { code: 'SEQUENCE_MISMATCH' });
    await expect(tracing.span('append', { kind: 'producer', parentFrom: stored }, async () => Promise.reject(lost))).rejects.toBe(lost);

    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => [span.name, span.kind, span.attributes])).toEqual([
      ['command Deposit', SpanKind.INTERNAL, { 'es.aggregate.id': 'a-1', 'es.sequence': 3 }],
      ['append', SpanKind.PRODUCER, { 'es.error.code': 'SEQUENCE_MISMATCH' }],
    ]);
    expect([spans[1].spanContext().traceId, spans[1].parentSpanContext?.spanId, spans[1].status.code]).toEqual([TRACE, STORED_SPAN, SpanStatusCode.ERROR]);
    await provider.shutdown();
  });
});
