import {
  type Attributes,
  context,
  type Context,
  createTraceState,
  isSpanContextValid,
  propagation,
  ProxyTracerProvider,
  ROOT_CONTEXT,
  type SpanContext,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
} from '@opentelemetry/api';
import { type SpanOptions, type TraceAttributes, Tracing, type TraceSpan, UNRECORDED_SPAN } from './tracing.js';
import { errorMessage } from '../errors/error-message.js';

const KINDS = { internal: SpanKind.INTERNAL, producer: SpanKind.PRODUCER, consumer: SpanKind.CONSUMER };
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const TRACER_NAME = '@nest-es/core';

/**
 * Tracing over @opentelemetry/api; importing this file loads it. Event metadata always gets the
 * W3C format whatever propagator the application registered: it is stored, and must read back the
 * same after a change of configuration. Request headers go through the application's propagator.
 */
export class OpenTelemetryTracing extends Tracing {
  private readonly tracer = trace.getTracer(TRACER_NAME);
  private providerRegistered = false;

  span<T>(name: string, options: SpanOptions, work: (span: TraceSpan) => Promise<T>): Promise<T> {
    if (!this.recording()) return options.parentFrom ? context.with(parentOf(options), work, undefined, UNRECORDED_SPAN) : work(UNRECORDED_SPAN);
    return this.tracer.startActiveSpan(name, { kind: KINDS[options.kind ?? 'internal'], attributes: defined(options.attributes) }, parentOf(options), async (span) => {
      try {
        return await work({ setAttributes: (attributes) => span.setAttributes(defined(attributes)) });
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if (typeof code === 'string') span.setAttribute('es.error.code', code);
        span.recordException(error instanceof Error ? error : String(error));
        span.setStatus({ code: SpanStatusCode.ERROR, message: errorMessage(error) });
        throw error;
      } finally {
        span.end();
      }
    });
  }

  bind<T>(work: () => Promise<T>): () => Promise<T> {
    return context.bind(context.active(), work);
  }

  /**
   * Whether the application registered a tracer provider (an SDK). Without one, the API's span
   * records nothing and, made active, only carries its parent's context on: the work runs in that
   * context without it, sparing each command and delivery the API's work. Asked on each span until a
   * provider shows up, so one registered after the module started is used from then on.
   */
  private recording(): boolean {
    if (!this.providerRegistered) {
      const provider = trace.getTracerProvider();
      this.providerRegistered = !(provider instanceof ProxyTracerProvider) || provider.getDelegateTracer(TRACER_NAME) !== undefined;
    }
    return this.providerRegistered;
  }

  inject(metadata: Record<string, unknown>): void {
    const span = trace.getActiveSpan()?.spanContext();
    if (!span || !isSpanContextValid(span)) return;
    metadata.traceparent = `00-${span.traceId}-${span.spanId}-${span.traceFlags & TraceFlags.SAMPLED ? '01' : '00'}`;
    const state = span.traceState?.serialize();
    if (state) metadata.tracestate = state;
  }

  continueFrom<T>(headers: Record<string, unknown>, work: () => T): T {
    if (trace.getActiveSpan()) return work();
    return context.with(propagation.extract(context.active(), headers), work);
  }
}

/** A delivery's parent is its event's context, never what happens to be active in the subscription's loop. */
function parentOf(options: SpanOptions): Context {
  return options.parentFrom ? (contextOf(options.parentFrom) ?? ROOT_CONTEXT) : context.active();
}

/** The context a stored `traceparent` names; undefined when there is none or it is malformed. */
function contextOf(metadata: Record<string, unknown>): Context | undefined {
  const match = typeof metadata.traceparent === 'string' ? TRACEPARENT.exec(metadata.traceparent) : null;
  if (!match) return undefined;
  const span: SpanContext = {
    traceId: match[1],
    spanId: match[2],
    traceFlags: Number.parseInt(match[3], 16) & TraceFlags.SAMPLED,
    isRemote: true,
    ...(typeof metadata.tracestate === 'string' ? { traceState: createTraceState(metadata.tracestate) } : {}),
  };
  return isSpanContextValid(span) ? trace.setSpanContext(ROOT_CONTEXT, span) : undefined;
}

/** The attributes that have a value; a plain loop, as it runs for every span of every command. */
function defined(attributes: TraceAttributes | undefined): Attributes {
  const kept: Attributes = {};
  for (const key in attributes) {
    const value = attributes[key];
    if (value !== undefined) kept[key] = value;
  }
  return kept;
}
