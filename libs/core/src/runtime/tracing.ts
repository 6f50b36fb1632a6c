import { Injectable } from '@nestjs/common';

export type TraceAttributes = Record<string, string | number | boolean | undefined>;

export interface SpanOptions {
  /** `producer` for appends, `consumer` for deliveries; default `internal`. */
  kind?: 'internal' | 'producer' | 'consumer';
  attributes?: TraceAttributes;
  /** Where the parent comes from instead of the active context: an event's metadata (its `traceparent`). */
  parentFrom?: Record<string, unknown>;
}

/** The span `work` runs in: attributes known only once the work has begun go here. */
export interface TraceSpan {
  setAttributes(attributes: TraceAttributes): void;
}

/** The span of work that is not traced: its attributes go nowhere. */
export const UNRECORDED_SPAN: TraceSpan = { setAttributes: () => undefined };

/**
 * Spans of commands, appends and deliveries, and the trace context carried in event metadata, so
 * that one trace runs from a request through its events to the commands sagas send. Without
 * @opentelemetry/api (an optional peer) it is {@link NoopTracing}; with the API but no SDK
 * registered by the application, the API itself does nothing.
 */
export abstract class Tracing {
  /** Runs `work` in a new span; a failure is recorded on it (with its error code) and thrown on. */
  abstract span<T>(name: string, options: SpanOptions, work: (span: TraceSpan) => Promise<T>): Promise<T>;
  /** `work`, to run later from a queue (an aggregate's lane), in the context active now. */
  abstract bind<T>(work: () => Promise<T>): () => Promise<T>;
  /** Writes the active span as W3C trace context (`traceparent`, `tracestate`) into event metadata. */
  abstract inject(metadata: Record<string, unknown>): void;
  /**
   * Runs `work` in the context an incoming request's headers carry (a `traceparent`), read by the
   * application's propagator, unless a span is already active (an HTTP instrumentation's).
   */
  abstract continueFrom<T>(headers: Record<string, unknown>, work: () => T): T;
}

/** No @opentelemetry/api: nothing is traced and nothing is added to metadata. */
@Injectable()
export class NoopTracing extends Tracing {
  span<T>(_name: string, _options: SpanOptions, work: (span: TraceSpan) => Promise<T>): Promise<T> {
    return work(UNRECORDED_SPAN);
  }

  bind<T>(work: () => Promise<T>): () => Promise<T> {
    return work;
  }

  inject(): void {}

  continueFrom<T>(_headers: Record<string, unknown>, work: () => T): T {
    return work();
  }
}
